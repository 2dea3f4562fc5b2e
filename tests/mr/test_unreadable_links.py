"""Links urllib cannot split (``http://[x/…``) are bad links with a code, never an exception out of a reader.

One such row in a registry costs that row only: the others are read, in every registry form, whole or streamed
as the harvest reads them; a passport linking such files is still read, its links reported by the check.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ckanext.passport.mr import urls
from ckanext.passport.mr.check import check_passport
from ckanext.passport.mr.fetch import FetchPolicy, fetch
from ckanext.passport.mr.passport import looks_like_data_file, parse_passport, passport_from_entry, passport_locations
from ckanext.passport.mr.model import RegistryEntry
from ckanext.passport.mr.registry import iter_registry, parse_registry

from tests.support.fault_passports import valid_passport

SITE = "http://example.ru/opendata/"
STANDARD = "http://opendata.gosmonitor.ru/standard/3.0"
GOOD = "7707083893-good"
BAD = "7707083893-bad"
# An unclosed IPv6 bracket, absolute and relative to the registry; a host NFKC turns into a delimiter.
BAD_LINKS = ["http://[x/opendata/7707083893-bad/meta.json", "//[x/opendata/7707083893-bad/", "http://ex＃ample.ru/a"]


def _list_csv(bad_link: str) -> bytes:
    return (f'property,title,value,format\nstandardversion,Версия,{STANDARD},\n'
            f'{BAD},Плохой,{bad_link},json\n{GOOD},Хороший,{SITE}{GOOD}/meta.json,json\n').encode()


def _opendatalist_csv(bad_link: str) -> bytes:
    return (f"№;Наименование набора данных;Ссылка на паспорт\n1;Плохой;{bad_link}\n"
            f"2;Хороший;{SITE}{GOOD}/\n").encode()


def _list_xml(bad_link: str) -> bytes:
    items = "".join(f"<item><identifier>{identifier}</identifier><title>{identifier}</title><link>{link}</link>"
                    f"<format>json</format></item>"
                    for identifier, link in ((BAD, bad_link), (GOOD, f"{SITE}{GOOD}/meta.json")))
    return (f'<?xml version="1.0" encoding="UTF-8"?><list><standardversion>{STANDARD}</standardversion>'
            f"<meta>{items}</meta></list>").encode()


def _list_json(bad_link: str) -> bytes:
    return json.dumps({"standardversion": STANDARD, "meta": [
        {"identifier": BAD, "title": "Плохой", "link": bad_link, "format": "json"},
        {"identifier": GOOD, "title": "Хороший", "link": f"{SITE}{GOOD}/meta.json", "format": "json"},
    ]}, ensure_ascii=False).encode()


def _rdfa_page(bad_link: str) -> bytes:
    rows = "".join(
        f'<tr rel="dc:hasPart"><td typeof="foaf:Document" about="{link}" property="dc:title" content="{title}">'
        f'<a href="{link}">{title}</a></td></tr>'
        for link, title in ((bad_link, "Плохой"), (f"/opendata/{GOOD}", "Хороший"))
    )
    return (f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:dc="http://purl.org/dc/terms/" '
            f'xmlns:foaf="http://xmlns.com/foaf/0.1/"><body><div about="/opendata" typeof="dc:Collection">'
            f'<div rel="dc:conformsTo" resource="{STANDARD}"></div><table>{rows}</table></div></body></html>').encode()


# registry file name → (its writer, the code of the skipped row, the good row's link as read)
FORMS = {
    "list.csv": (_list_csv, "registry.entry_unreadable_link", f"{SITE}{GOOD}/meta.json"),
    "opendatalist.csv": (_opendatalist_csv, "registry.entry_unreadable_link", f"{SITE}{GOOD}/"),
    "list.xml": (_list_xml, "registry.entry_unreadable_link", f"{SITE}{GOOD}/meta.json"),
    "list.json": (_list_json, "registry.entry_unreadable_link", f"{SITE}{GOOD}/meta.json"),
    "": (_rdfa_page, "rdfa.unreadable_link", f"{SITE}{GOOD}"),
}


def _read_whole(data: bytes, url: str) -> tuple[list[RegistryEntry], list[str]]:
    result = parse_registry(data, url)
    return (result.value.entries if result.value else []), [p.code for p in result.problems]


def _read_streamed(data: bytes, url: str) -> tuple[list[RegistryEntry], list[str]]:
    items = list(iter_registry(data, url))
    return ([i for i in items if isinstance(i, RegistryEntry)],
            [i.code for i in items if not isinstance(i, RegistryEntry)])


@pytest.mark.parametrize("read", [_read_whole, _read_streamed], ids=["whole", "streamed"])
@pytest.mark.parametrize("bad_link", BAD_LINKS)
@pytest.mark.parametrize("name", FORMS, ids=lambda name: name or "rdfa page")
def test_a_registry_row_with_an_unreadable_link_is_skipped_with_its_code_and_the_others_are_read(name, bad_link, read):
    write, code, good_link = FORMS[name]

    entries, codes = read(write(bad_link), SITE + name)

    assert [entry.link for entry in entries] == [good_link]
    assert code in codes
    assert not {"registry.unreadable", "rdfa.parse_failed", "registry.empty"} & set(codes)


@pytest.mark.parametrize("bad_link", BAD_LINKS)
def test_a_passport_linking_unreadable_files_is_read_and_its_links_are_reported_by_the_check(bad_link):
    passport = valid_passport(GOOD, "Хороший")
    passport["data"][0]["source"] = bad_link
    passport["structure"][0]["source"] = bad_link
    url = f"{SITE}{GOOD}/meta.json"

    read = parse_passport(json.dumps(passport, ensure_ascii=False).encode(), url)
    report = check_passport(read.value, None, url, read.form)

    assert read.value.identifier == GOOD
    assert not {"passport.unreadable"} & {p.code for p in read.problems}
    assert {"check.data_link_template", "check.structure_link_template"} <= {p.code for p in report.problems}


@pytest.mark.parametrize("bad_link", BAD_LINKS)
def test_where_a_passport_may_be_is_answered_for_an_unreadable_link_and_fetching_there_is_invalid_url(bad_link):
    entry = RegistryEntry(BAD, "Плохой", bad_link, "csv")

    looks_like_data_file(bad_link, "csv")
    located = passport_locations(bad_link)
    from_entry = passport_from_entry(entry, SITE)

    assert from_entry.value.data_versions[0].source == bad_link
    assert {fetch(url, FetchPolicy(retries=0)).problem.code for _, url in located} <= {"fetch.invalid_url"}


@given(st.text(), st.text())
def test_the_url_helpers_never_raise(base, link):
    urls.split(link)
    urls.host(link)
    assert isinstance(urls.join(base, link), str)
