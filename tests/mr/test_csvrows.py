"""Reading CSV text into numbered rows, whatever dialect and padding real publishers chose.

``write_csv`` is the corpus writer: it renders rows with each quirk seen on real MR sites, so that the CSV
parser tests (registries, passports) build their generated corpus from small templates.
"""
from __future__ import annotations

import pytest
from tests.support.publisher_bytes import write_csv

from ckanext.passport.mr.csvrows import (
    canonical_standard,
    compact,
    detect_delimiter,
    join_cells,
    is_column_number_row,
    is_header,
    read_rows,
)
from ckanext.passport.mr.decode import decode_bytes
from ckanext.passport.mr.model import STANDARD_3_0


def rows_of(data: bytes, **kwargs) -> list[tuple[int, tuple[str, ...]]]:
    table = read_rows(decode_bytes(data).text, **kwargs)
    return [(row.line, row.cells) for row in table.rows]


TEMPLATE = [("property", "value"), ("identifier", "7712345678-showrooms"), ("title", "Список залов, музеев")]


# --- dialects --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_delimiter_is_detected(delimiter):
    data = write_csv(TEMPLATE, delimiter=delimiter)

    assert read_rows(data.decode()).delimiter == delimiter
    assert rows_of(data) == [(1, TEMPLATE[0]), (2, TEMPLATE[1]), (3, TEMPLATE[2])]


def test_semicolon_wins_when_values_hold_commas():
    text = "№;Характеристика;Значение\n5;Ответственное лицо;Петрова О. В., заместитель\n15;Ключевые слова;а, б, в\n"

    assert detect_delimiter(text) == ";"


def test_every_field_quoted_is_read_like_plain_fields():
    assert rows_of(write_csv(TEMPLATE, delimiter=";", quote_all=True)) == rows_of(write_csv(TEMPLATE))


def test_crlf_line_ends_are_read():
    assert rows_of(write_csv(TEMPLATE, line_end="\r\n")) == rows_of(write_csv(TEMPLATE))


def test_space_after_delimiter_before_a_quote_is_tolerated():
    assert rows_of(b'title, "Halls, museums"\n') == [(1, ("title", "Halls, museums"))]


# --- padding and numbering -------------------------------------------------------------------------------

def test_blank_lines_are_skipped_and_line_numbers_kept():
    assert rows_of(write_csv(TEMPLATE, blank_lines=True)) == [(1, TEMPLATE[0]), (3, TEMPLATE[1]), (5, TEMPLATE[2])]


def test_trailing_empty_cells_are_dropped():
    assert rows_of(write_csv(TEMPLATE, delimiter=";", trailing=5)) == rows_of(write_csv(TEMPLATE, delimiter=";"))


def test_rows_of_only_delimiters_count_as_blank():
    assert rows_of(b"a;b\n;;;;\nc;d\n") == [(1, ("a", "b")), (3, ("c", "d"))]


def test_cells_inside_a_row_stay_even_when_empty():
    assert rows_of(b"a;;c;;\n") == [(1, ("a", "", "c"))]


def test_a_quoted_field_over_several_lines_is_one_row_numbered_by_its_first_line():
    assert rows_of(b'description,"line one\nline two"\ntitle,x\n') == [
        (1, ("description", "line one\nline two")),
        (3, ("title", "x")),
    ]


def test_column_number_row_is_recognised():
    rows = read_rows(write_csv(TEMPLATE, delimiter=";", number_row=True, trailing=3).decode()).rows

    assert rows[1].cells == ("1", "2")
    assert is_column_number_row(rows[1].cells)
    assert is_column_number_row(["1.", "2.", "3."])
    assert not is_column_number_row(["1", "Идентификационный номер", "7703092752-terorg"])
    assert not is_column_number_row(["1"])
    assert not is_column_number_row(["2", "3"])


def test_header_is_recognised_by_its_names():
    assert is_header(["property", "value"], ("property", "value"))
    assert is_header(['"Property"', "Title", "VALUE", "format"], ("property", "title", "value", "format"), minimum=4)
    assert not is_header(["identifier", "7712345678-showrooms"], ("property", "value"))


# --- not CSV at all --------------------------------------------------------------------------------------

@pytest.mark.parametrize("page", [
    "<!DOCTYPE html>\n<html><head><title>403</title></head><body>Forbidden</body></html>",
    "\n  <html lang='ru'><body>Доступ запрещён</body></html>",
    "<HTML><BODY>Moved</BODY></HTML>",
])
def test_html_page_is_reported_instead_of_read(page):
    table = read_rows(page, url="https://example.org/opendata/list.csv")

    assert table.rows == []
    assert [p.code for p in table.problems] == ["csv.html_instead_of_csv"]
    assert table.problems[0].location.url == "https://example.org/opendata/list.csv"


@pytest.mark.parametrize("text", ['<?xml version="1.0"?><list/>', '{"standardversion": "x"}'])
def test_xml_or_json_is_not_csv(text):
    assert [p.code for p in read_rows(text).problems] == ["csv.not_csv"]


@pytest.mark.parametrize("text", ["", "   \n\r\n", ";;;\n ; ;\n"])
def test_empty_file_is_reported(text):
    table = read_rows(text)

    assert table.rows == []
    assert [p.code for p in table.problems] == ["csv.empty"]


# --- broken quoting ----------------------------------------------------------------------------------------

def test_stray_quote_is_reported_with_its_line_and_the_row_salvaged():
    table = read_rows('property,value\ntitle,"Залы" музеи\nformat,xml\n')

    assert [(row.line, row.cells) for row in table.rows] == [
        (1, ("property", "value")), (2, ("title", "Залы музеи")), (3, ("format", "xml")),
    ]
    assert [(p.code, p.location.line) for p in table.problems] == [("csv.malformed_row", 2)]


def test_unclosed_quote_at_the_end_is_reported():
    table = read_rows('property,value\ntitle,"Залы\n')

    assert table.rows[-1].cell(1) == "Залы"
    assert [(p.code, p.location.line) for p in table.problems] == [("csv.malformed_row", 2)]


def test_a_split_value_is_rejoined_with_the_space_the_reader_ate():
    [row] = read_rows("title,Залы, музеи,выставки\n").rows

    assert join_cells(row.cells[1:], ",") == "Залы, музеи, выставки"


# --- key helpers -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["standardversion", '"standard version"', "Standard_Version", "standard-version"])
def test_keys_compare_compactly(key):
    assert compact(key) == "standardversion"


@pytest.mark.parametrize("written", [
    "http://opendata.gosmonitor.ru/standard/3.0",
    "http://OpenData.gosmonitor.ru/standard/3.0",
    "http://opendata.gosmonitor.ru/standard/3.0/",
    " HTTP://OPENDATA.GOSMONITOR.RU/standard/3.0 ",
])
def test_standard_url_is_canonicalised(written):
    assert canonical_standard(written) == STANDARD_3_0


# --- real publications -----------------------------------------------------------------------------------

def test_rosstat_data_file_all_quoted_semicolons_no_header(read_real):
    table = read_rows(decode_bytes(read_real("rosstat-okved2/data-20251101T1411-structure-20180402T1704.csv")).text)

    assert table.delimiter == ";"
    assert table.problems == []
    assert table.rows[0].cells == ("A", " ", "СЕЛЬСКОЕ, ЛЕСНОЕ ХОЗЯЙСТВО, ОХОТА, РЫБОЛОВСТВО И РЫБОВОДСТВО")
    assert table.rows[1].cells == (
        "A", "01", "Растениеводство и животноводство, охота и предоставление соответствующих услуг в этих областях"
    )
    assert len({len(row.cells) for row in table.rows}) == 1


def test_rosstat_meta_csv_rows(read_real):
    table = read_rows(decode_bytes(read_real("rosstat-okved2/meta.csv")).text)

    assert table.delimiter == ","
    assert len(table.rows) == 58
    assert table.rows[13].cells == ("publisherphone", "+7 (495) 568-00-42 доб. 99732")
    assert table.rows[-1].line == 58


def test_meteorf_data_file_has_sixteen_columns(read_real):
    table = read_rows(decode_bytes(read_real("meteorf-terorg/data-1-structure-1.csv")).text)

    assert table.delimiter == ";"
    assert table.rows[0].cells[0] == "№ п/п"
    assert table.rows[1].cells[2] == "Департамент Росгидромета по ПФО"
    assert {len(row.cells) for row in table.rows} <= set(range(1, 17))
