"""CSV registries: MR 3.0 ``list.csv`` and MR 2.3 ``opendatalist.csv``, generated with real-world quirks."""
from __future__ import annotations

import pytest
from tests.support.publisher_bytes import mojibake, write_csv

from ckanext.passport.mr.model import STANDARD_2_3, STANDARD_3_0, RegistryEntry
from ckanext.passport.mr.registry import csv_list, csv_opendatalist

SITE = "http://example.com/opendata/"


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


# --- list.csv ---------------------------------------------------------------------------------------------

LIST = [
    ("property", "title", "value", "format"),
    ("standardversion", "Версия методических рекомендаций", STANDARD_3_0, ""),
    ("7712345678-showrooms", "Список выставочных залов, музеев", SITE + "7712345678-showrooms", "xml"),
    ("7712345678-libraries", "Библиотеки", SITE + "7712345678-libraries/", "csv"),
]

EXPECTED = [
    RegistryEntry("7712345678-showrooms", "Список выставочных залов, музеев", SITE + "7712345678-showrooms", "xml"),
    RegistryEntry("7712345678-libraries", "Библиотеки", SITE + "7712345678-libraries/", "csv"),
]

LIST_QUIRKS = {
    "plain": {},
    "semicolon": {"delimiter": ";"},
    "tab": {"delimiter": "\t"},
    "all quoted": {"quote_all": True},
    "blank lines and crlf": {"blank_lines": True, "line_end": "\r\n"},
    "column numbers": {"number_row": True},
    "trailing padding": {"delimiter": ";", "trailing": 4},
    "windows-1251": {"encoding": "cp1251"},
    "utf-8 bom": {"bom": True},
}


@pytest.mark.parametrize("quirks", LIST_QUIRKS.values(), ids=LIST_QUIRKS.keys())
def test_list_csv_reads_in_every_dialect(quirks):
    result = csv_list.parse(write_csv(LIST, **quirks), url=SITE + "list.csv")

    assert result.form == "list.csv"
    assert result.value.standard_version == STANDARD_3_0
    assert result.value.entries == EXPECTED
    assert [c for c in codes(result) if not c.startswith("decode.")] == []


def test_list_csv_without_header_is_read_and_reported():
    result = csv_list.parse(write_csv(LIST[1:]))

    assert result.value.entries == EXPECTED
    assert codes(result) == ["registry.csv_missing_header"]


@pytest.mark.parametrize("key", ["standard version", '"standard version"', "Standard_Version", "standartversion"])
def test_list_csv_standard_version_key_spellings(key):
    rows = list(LIST)
    rows[1] = (key, "Версия", STANDARD_3_0, "")

    assert csv_list.parse(write_csv(rows)).value.standard_version == STANDARD_3_0


def test_list_csv_standard_url_in_the_second_cell_and_wrong_case():
    rows = list(LIST)
    rows[1] = ("standardversion", "http://OpenData.gosmonitor.ru/standard/3.0")
    result = csv_list.parse(write_csv(rows))

    assert result.value.standard_version == STANDARD_3_0
    assert codes(result) == ["registry.standard_version_variant"]


def test_list_csv_without_standard_version_is_reported():
    result = csv_list.parse(write_csv([LIST[0]] + LIST[2:]))

    assert result.value.standard_version == ""
    assert codes(result) == ["registry.csv_missing_standard_version"]


def test_list_csv_relative_links_are_resolved():
    rows = LIST[:2] + [("7712345678-showrooms", "Залы", "/opendata/7712345678-showrooms/", "xml")]

    assert csv_list.parse(write_csv(rows), url=SITE + "list.csv").value.entries[0].link == SITE + "7712345678-showrooms/"


def test_list_csv_identifier_is_taken_from_the_link_when_missing():
    rows = LIST[:2] + [("", "Залы", SITE + "7712345678-showrooms/meta.csv", "csv")]
    result = csv_list.parse(write_csv(rows))

    assert result.value.entries[0].identifier == "7712345678-showrooms"
    assert [(p.code, p.location.line) for p in result.problems] == [("registry.entry_missing_identifier", 3)]


def test_list_csv_record_without_link_is_skipped():
    rows = LIST + [("7712345678-parks", "Парки", "", "csv")]
    result = csv_list.parse(write_csv(rows))

    assert result.value.entries == EXPECTED
    assert [(p.code, p.location.line) for p in result.problems] == [("registry.entry_missing_link", 5)]


def test_list_csv_repeated_identifier_is_skipped():
    rows = LIST + [LIST[2]]
    result = csv_list.parse(write_csv(rows))

    assert result.value.entries == EXPECTED
    assert codes(result) == ["registry.duplicate_identifier"]


def test_list_csv_unquoted_comma_in_title_is_rejoined():
    data = write_csv(LIST[:2]) + f"7712345678-showrooms,Залы, музеи,{SITE}7712345678-showrooms,xml\n".encode()
    result = csv_list.parse(data)

    assert result.value.entries == [
        RegistryEntry("7712345678-showrooms", "Залы, музеи", SITE + "7712345678-showrooms", "xml")
    ]
    assert codes(result) == ["registry.csv_unquoted_value"]


def test_list_csv_mojibake_title_is_repaired():
    rows = LIST[:2] + [("7712345678-libraries", mojibake("Библиотеки"), SITE + "7712345678-libraries/", "csv")]
    result = csv_list.parse(write_csv(rows))

    assert result.value.entries == EXPECTED[1:]
    assert codes(result) == ["decode.mojibake_repaired"]


@pytest.mark.parametrize("data, code", [
    (b"<!DOCTYPE html><html><body>Access denied</body></html>", "csv.html_instead_of_csv"),
    (b"", "csv.empty"),
])
def test_list_csv_that_is_not_csv(data, code):
    result = csv_list.parse(data)

    assert result.value is None
    assert codes(result) == [code]


def test_list_csv_with_nothing_of_a_registry():
    result = csv_list.parse(write_csv([("a", "b"), ("c", "d")]))

    assert result.value is None
    assert codes(result)[-1] == "registry.csv_not_a_registry"


# --- opendatalist.csv -------------------------------------------------------------------------------------

OPENDATALIST = [
    ("№", "Наименование набора данных", "Ссылка на паспорт"),
    ("1", "Список МФЦ", SITE + "7710349494-mfclist/"),
    ("2", "Перечень территориальных органов", SITE + "7703092752-terorg"),
]

ODL_EXPECTED = [
    RegistryEntry("7710349494-mfclist", "Список МФЦ", SITE + "7710349494-mfclist/", ""),
    RegistryEntry("7703092752-terorg", "Перечень территориальных органов", SITE + "7703092752-terorg", ""),
]

ODL_QUIRKS = {
    "windows-1251 semicolon": {"delimiter": ";", "encoding": "cp1251"},
    "comma": {"delimiter": ","},
    "all quoted": {"delimiter": ";", "quote_all": True},
    "padded with blank lines": {"delimiter": ";", "trailing": 5, "blank_lines": True},
    "column numbers": {"delimiter": ";", "number_row": True},
}


@pytest.mark.parametrize("quirks", ODL_QUIRKS.values(), ids=ODL_QUIRKS.keys())
def test_opendatalist_reads_in_every_dialect(quirks):
    result = csv_opendatalist.parse(write_csv(OPENDATALIST, **quirks), url=SITE + "opendatalist.csv")

    assert result.form == "opendatalist.csv"
    assert result.value.standard_version == STANDARD_2_3
    assert result.value.entries == ODL_EXPECTED
    assert [c for c in codes(result) if not c.startswith("decode.")] == []


def test_opendatalist_in_windows_1251_reports_the_encoding():
    result = csv_opendatalist.parse(write_csv(OPENDATALIST, delimiter=";", encoding="cp1251"))

    assert result.encoding == "windows-1251"
    assert codes(result) == ["decode.windows_1251"]


def test_opendatalist_without_header():
    assert csv_opendatalist.parse(write_csv(OPENDATALIST[1:], delimiter=";")).value.entries == ODL_EXPECTED


def test_opendatalist_reads_identifier_and_format_columns_wherever_they_are():
    rows = [("1", "7710349494-mfclist", "Список МФЦ", "CSV", SITE + "7710349494-mfclist/")]

    assert csv_opendatalist.parse(write_csv(rows, delimiter=";")).value.entries == [
        RegistryEntry("7710349494-mfclist", "Список МФЦ", SITE + "7710349494-mfclist/", "CSV")
    ]


@pytest.mark.parametrize("link, identifier", [
    (SITE + "7710349494-mfclist/", "7710349494-mfclist"),
    (SITE + "7710349494-mfclist/meta.csv", "7710349494-mfclist"),
    (SITE + "7710349494-mfclist.csv", "7710349494-mfclist"),
    ("/opendata/7710349494-mfclist", "7710349494-mfclist"),
])
def test_opendatalist_identifier_comes_from_the_passport_link(link, identifier):
    result = csv_opendatalist.parse(write_csv([("1", "Список МФЦ", link)], delimiter=";"), url=SITE)

    assert result.value.entries[0].identifier == identifier
    assert codes(result) == []


def test_opendatalist_honours_a_standardversion_row():
    rows = [("standardversion", "", STANDARD_3_0)] + OPENDATALIST[1:]

    assert csv_opendatalist.parse(write_csv(rows, delimiter=";")).value.standard_version == STANDARD_3_0


def test_opendatalist_record_without_link_is_reported():
    rows = OPENDATALIST + [("3", "Без ссылки")]
    result = csv_opendatalist.parse(write_csv(rows, delimiter=";"))

    assert result.value.entries == ODL_EXPECTED
    assert [(p.code, p.location.line) for p in result.problems] == [("registry.entry_missing_link", 4)]


def test_opendatalist_html_page():
    result = csv_opendatalist.parse("<html><body>Открытые данные</body></html>".encode("cp1251"))

    assert result.value is None
    assert codes(result) == ["decode.windows_1251", "csv.html_instead_of_csv"]


def test_opendatalist_without_any_record():
    result = csv_opendatalist.parse(write_csv([OPENDATALIST[0]], delimiter=";"))

    assert result.value is None
    assert codes(result) == ["registry.csv_not_a_registry"]
