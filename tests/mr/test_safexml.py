"""Hostile XML: entity bombs, external entities and DTDs are refused, never expanded, fetched or hung on."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from ckanext.passport.mr.passport import meta_xml
from ckanext.passport.mr.registry import list_xml
from ckanext.passport.mr.safexml import child_texts, parse_xml, text_of

SECRET = "TOP-SECRET-CONTENT-42"


def billion_laughs() -> bytes:
    levels = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10)
    ]
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE meta [\n' + "\n".join(levels) + "\n]>\n"
        "<meta><title>&lol9;</title></meta>"
    ).encode()


def external_entity(target: str, root: str = "meta", body: str = "<title>before&xxe;after</title>") -> bytes:
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "{target}">]>\n<{root}>{body}</{root}>'
    ).encode()


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


def codes(problems) -> set[str]:
    return {p.code for p in problems}


def test_billion_laughs_is_refused_quickly_as_not_well_formed():
    started = time.monotonic()
    root, problems = parse_xml(billion_laughs(), "http://example.com/meta.xml")
    assert time.monotonic() - started < 2
    assert root is None
    assert codes(problems) == {"xml.entity_declared", "xml.not_well_formed"}
    assert problems[0].location.url == "http://example.com/meta.xml"


def test_billion_laughs_passport_gives_no_value_and_no_expansion():
    result = meta_xml.parse(billion_laughs())
    assert result.value is None
    assert "xml.not_well_formed" in codes(result.problems)


def test_billion_laughs_registry_stream_ends_with_a_problem():
    data = billion_laughs().replace(b"<meta><title>&lol9;</title></meta>",
                                    b"<list><meta><item><title>&lol9;</title></item></meta></list>")
    data = data.replace(b"DOCTYPE meta", b"DOCTYPE list")
    started = time.monotonic()
    items = list(list_xml.iter_entries(data))
    assert time.monotonic() - started < 2
    assert codes(items) == {"xml.entity_declared", "xml.not_well_formed"}


def test_external_file_entity_is_not_read(secret_file: Path):
    root, problems = parse_xml(external_entity(secret_file.as_uri()))
    assert root is not None
    assert text_of(root) == "beforeafter"
    assert codes(problems) == {"xml.entity_declared"}


def test_external_file_entity_does_not_leak_into_a_passport(secret_file: Path):
    result = meta_xml.parse(external_entity(secret_file.as_uri()))
    assert result.value is not None
    assert result.value.title == "beforeafter"
    assert SECRET not in repr(result)


def test_external_file_entity_does_not_leak_into_a_registry(secret_file: Path):
    data = external_entity(
        secret_file.as_uri(), root="list",
        body="<meta><item><identifier>1-a</identifier><title>&xxe;</title><link>http://x/1-a/</link></item></meta>",
    )
    items = list(list_xml.iter_entries(data))
    assert SECRET not in repr(items)
    assert items[0].code == "xml.entity_declared"
    assert items[1].title == ""


def test_network_entities_and_dtds_are_never_fetched(httpserver):
    httpserver.expect_request("/evil").respond_with_data("<!ENTITY leak 'x'>")
    evil = httpserver.url_for("/evil")
    documents = [
        external_entity(evil),
        f'<?xml version="1.0"?><!DOCTYPE meta SYSTEM "{evil}"><meta><title>t</title></meta>'.encode(),
        f'<?xml version="1.0"?><!DOCTYPE meta [<!ENTITY % p SYSTEM "{evil}"> %p;]><meta/>'.encode(),
    ]
    for data in documents:
        parse_xml(data)
        meta_xml.parse(data)
        list(list_xml.iter_entries(data))
    assert httpserver.log == []


def test_broken_xml_reports_the_line():
    root, problems = parse_xml(b"<meta>\n<title>unclosed\n</meta>", "http://example.com/meta.xml")
    assert root is None
    assert [p.code for p in problems] == ["xml.not_well_formed"]
    assert problems[0].location.line == 3


def test_empty_bytes_are_not_well_formed():
    root, problems = parse_xml(b"")
    assert root is None
    assert [p.code for p in problems] == ["xml.not_well_formed"]


def test_text_of_skips_comments_and_keeps_nested_text():
    root, _ = parse_xml(b"<t>  a <!-- note --><b>bold</b> c  </t>")
    assert text_of(root) == "a bold c"


def test_child_texts_reads_children_by_lower_case_local_name_first_wins():
    root, _ = parse_xml(b'<item xmlns="urn:x"><Title> One </Title><title>Two</title><link>L</link></item>')
    assert child_texts(root) == {"title": "One", "link": "L"}
