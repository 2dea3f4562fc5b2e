"""Fetched text cannot make a reader's work super-linear: no regular expression backtracks past linear time and
HTML is parsed in C, refused past a documented depth or attribute count, and walked without recursion
(issue 20, 3-4). Each class runs at the size it was seen at; bounds are generous, the target is 2 s."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ckanext.passport.mr.htmldom import MAX_ATTRIBUTES, MAX_DEPTH, MAX_NODES
from ckanext.passport.mr.model import ParseResult, Registry, RegistryEntry
from ckanext.passport.mr.passport import parse_passport, passport_locations
from ckanext.passport.mr.registry import parse_registry
from ckanext.passport.mr.writers.registry import opendatalist_csv

SITE = "http://opendata.example.ru/opendata/"
PAGE_URL = SITE + "7707082071-x/"
SECONDS = 5
FIXTURES = Path(__file__).parent.parent / "fixtures"
HTML_FIXTURES = sorted(FIXTURES.glob("mr-pages/*.html")) + [
    FIXTURES / "real" / "predgor" / "2618017120-politicaldivisions" / "index.php"]
# The characteristics a table passport states before the row under test (MR 2.3 Appendix 1's names).
ROWS = [("Идентификационный номер (код) набора данных", "7707082071-x"), ("Наименование набора данных", "t"),
        ("Описание набора данных", "d"), ("Владелец набора данных", "o"), ("Ответственное лицо", "p"),
        ("Телефон ответственного лица", "+7 495 1234567"), ("Адрес электронной почты ответственного лица", "a@b.ru")]


def timed(read: Callable[[], object]) -> tuple[object, float]:
    """The read's result and the CPU time it took: the bound is on the parse's work, which a machine busy with other
    processes stretches in wall time only."""
    start = time.process_time()
    result = read()
    return result, time.process_time() - start


def codes(result: ParseResult) -> set[str]:
    return {found.code for found in result.problems}


def table_page(value: str) -> bytes:
    rows = ROWS + [("Гиперссылка (URL) на набор", value)]
    body = "".join(f"<tr><td>{number}</td><td>{name}</td><td>{cell}</td></tr>"
                   for number, (name, cell) in enumerate(rows, 1))
    return f"<html><body><table>{body}</table></body></html>".encode()


def attributes(count: int) -> bytes:
    return b"<html><body><div " + b" ".join(b"a%d=x" % index for index in range(count)) + b">x</div></body></html>"


def nested(opening: bytes, closing: bytes, depth: int) -> bytes:
    return b"<html><body>" + opening * depth + b"x" + closing * depth + b"</body></html>"


def packed(element: bytes, count: int) -> bytes:
    return b"<html><body>" + element * count + b"</body></html>"


CROWDED_SPAN = b"<span " + b" ".join(b'a%d="v"' % index for index in range(250)) + b">x</span>"


# --- regular expressions ------------------------------------------------------------------------------------

@pytest.mark.parametrize("brackets", [40, 95], ids=["90 bytes", "200 bytes"])
@pytest.mark.parametrize("read", [parse_passport, parse_registry], ids=["passport", "registry"])
def test_a_doctype_of_empty_brackets_is_sniffed_at_once(read, brackets):
    data = b"<!DOCTYPE " + b"[]" * brackets

    result, seconds = timed(lambda: read(data, SITE))

    assert result.value is None and result.problems
    assert seconds < SECONDS


def test_a_registry_link_of_40_kb_of_extensions_gives_its_passport_locations_quickly():
    link = SITE + ".a" * 20000 + "!"

    locations, seconds = timed(lambda: passport_locations(link))

    assert locations
    assert seconds < SECONDS


def test_a_table_passport_linking_a_file_named_by_40_kb_of_extensions_is_read_quickly():
    data = table_page('<a href="http://opendata.example.ru/' + ".a" * 20000 + '!">data</a>')

    result, seconds = timed(lambda: parse_passport(data, PAGE_URL))

    assert result.value is not None and result.value.identifier == "7707082071-x"
    assert seconds < SECONDS


def test_a_link_text_of_40_kb_of_slashes_in_a_table_cell_is_read_quickly():
    data = table_page('<a href="#">' + "a/" * 20000 + " x</a>")

    result, seconds = timed(lambda: parse_passport(data, PAGE_URL))

    assert result.value is not None and result.value.data_versions == []
    assert seconds < SECONDS


def test_a_meta_json_of_40_kb_of_escaped_quotes_is_salvaged_quickly():
    data = ('{"identifier": "7707082071-x", "title": "' + '\\"' * 20000).encode()

    result, seconds = timed(lambda: parse_passport(data, PAGE_URL + "meta.json"))

    assert result.value is not None and "passport.json_damaged" in codes(result)
    assert seconds < SECONDS


def test_an_opendatalist_title_of_40_kb_of_spaces_is_written_quickly():
    title = "a" + " " * 40000 + "b;c"
    registry = Registry("", [RegistryEntry(identifier="7707082071-x", title=title, link=PAGE_URL)])

    written, seconds = timed(lambda: opendatalist_csv(registry))

    assert title.replace(";", ",").encode() in written
    assert seconds < SECONDS


# --- HTML ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, code", [
    (attributes(20000), "html.too_many_attributes"),
    (nested(b"<div>", b"</div>", 5000), "html.too_deep"),
    (nested(b"<table><tr><td>", b"</td></tr></table>", 3000), "html.too_deep"),
    (packed(CROWDED_SPAN, 500), "html.too_many_nodes"),
    (packed(b"<b>x</b>", MAX_NODES + 1), "html.too_many_nodes"),
], ids=["20k attributes on one tag", "5k nested divs", "3k nested tables", "125k attributes on 500 tags",
        "60k small elements"])
@pytest.mark.parametrize("read", [parse_passport, parse_registry], ids=["passport", "registry"])
def test_a_page_past_the_html_limits_is_refused_with_its_code_quickly(read, data, code):
    result, seconds = timed(lambda: read(data, PAGE_URL))

    assert result.value is None and code in codes(result)
    assert seconds < SECONDS


def test_a_page_within_the_html_limits_is_read():
    data = nested(b'<div about="/opendata/7707082071-x" property="dc:title">', b"</div>", MAX_DEPTH - 10)
    data = data.replace(b"<div ", b"<div " + b" ".join(b"a%d=x" % index for index in range(MAX_ATTRIBUTES - 2)) + b" ",
                        1)

    result, seconds = timed(lambda: parse_passport(data, PAGE_URL))

    assert not codes(result) & {"html.too_deep", "html.too_many_attributes", "passport.unreadable"}
    assert seconds < SECONDS


def test_a_page_of_as_many_elements_as_the_node_limit_is_read():
    result, seconds = timed(lambda: parse_passport(packed(b"<b>x</b>", MAX_NODES - 10), PAGE_URL))

    assert not codes(result) & {"html.too_many_nodes", "passport.unreadable"}
    assert seconds < SECONDS


@st.composite
def mutated_pages(draw) -> bytes:
    """A real page cut, with slices repeated and nesting inserted, as broken CMS output is."""
    page = draw(st.sampled_from(HTML_FIXTURES)).read_bytes()
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, len(page)))
        end = draw(st.integers(start, min(len(page), start + 4000)))
        kind = draw(st.sampled_from(["cut", "repeat", "nest"]))
        if kind == "cut":
            page = page[:start]
        elif kind == "repeat":
            page = page[:end] + page[start:end] * draw(st.integers(1, 50)) + page[end:]
        else:
            opening = draw(st.sampled_from([b"<div>", b"<table><tr><td>", b"<span a=1 b=2>", b"<a href='x'>"]))
            page = page[:start] + opening * draw(st.integers(1, 3000)) + page[start:]
    return page


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(page=mutated_pages())
def test_a_mutated_real_page_gives_a_result_with_coded_problems_in_bounded_time(page):
    for read in (parse_passport, parse_registry):
        result, seconds = timed(lambda: read(page, PAGE_URL))

        assert isinstance(result, ParseResult)
        assert all(found.code for found in result.problems)
        assert seconds < SECONDS

