"""MR 3.0 ``meta.csv``: the real Rosstat passport, then a generated corpus of every quirk seen in the wild."""
from __future__ import annotations

import datetime as dt

import pytest
from tests.support.publisher_bytes import mojibake, write_csv

from ckanext.passport.mr.model import STANDARD_3_0, Severity
from ckanext.passport.mr.fields import read_version_name
from ckanext.passport.mr.passport.meta_csv import parse

ROSSTAT = "https://rosstat.gov.ru/opendata/7708234640-okvedva/"


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


# --- the real Rosstat passport ---------------------------------------------------------------------------

@pytest.fixture
def rosstat(read_real):
    return parse(read_real("rosstat-okved2/meta.csv"), url=ROSSTAT + "meta.csv")


def test_rosstat_fields(rosstat):
    passport = rosstat.value

    assert rosstat.form == "meta.csv"
    assert passport.standard_version == STANDARD_3_0
    assert passport.identifier == "7708234640-okvedva"
    assert passport.title == "Общероссийский классификатор видов экономической деятельности (ОКВЭД2)"
    assert passport.description == "Общероссийский классификатор видов экономической деятельности ОКВЭД2"
    assert passport.creator == "Федеральная служба государственной статистики"
    assert passport.subject == ["Классификатор", "вид экономической деятельности"]
    assert passport.format == "csv"
    assert passport.provenance == "с учетом изменения 83/2025"
    assert (passport.created.value, passport.modified.value, passport.valid.value) == (
        dt.date(2018, 9, 5), dt.date(2025, 11, 1), dt.date(2025, 12, 31),
    )


def test_rosstat_publisher_phone_is_the_utf8_line_read_correctly(rosstat):
    publisher = rosstat.value.publisher

    assert rosstat.encoding == "mixed"
    assert publisher.name == "Апатова Ирина Петровна"
    assert publisher.phone == "+7 (495) 568-00-42 доб. 99732"
    assert publisher.mbox == "apatovaip@rosstat.gov.ru"


def test_rosstat_reports_only_the_mixed_encoding(rosstat):
    assert codes(rosstat) == ["decode.mixed_encoding"]
    assert rosstat.problems[0].location.line == 14


def test_rosstat_data_versions_newest_first(rosstat):
    # SOURCES.md says 15 data rows; the file as published holds 42.
    versions = rosstat.value.data_versions

    assert len(versions) == 42
    assert [v.version for v in versions[:3]] == ["20251101T1411", "20250801T1008", "20250601T1106"]
    assert versions[-1].version == "20180326T1703"
    assert [v.created.value for v in versions] == sorted((v.created.value for v in versions), reverse=True)
    assert {v.structure_version for v in versions} == {"20180402T1704"}
    assert {v.format for v in versions} == {"csv"}


def test_rosstat_newest_version_carries_provenance_and_validity(rosstat):
    newest = rosstat.value.data_versions[0]

    assert newest.source == ROSSTAT + "data-20251101T1411-structure-20180402T1704.csv"
    assert newest.created.value == dt.datetime(2025, 11, 1, 14, 11)
    assert newest.provenance == "с учетом изменения 83/2025"
    assert newest.valid.value == dt.date(2025, 12, 31)
    assert rosstat.value.data_versions[1].provenance == ""


def test_rosstat_structure_version(rosstat):
    [structure] = rosstat.value.structure_versions

    assert structure.source == ROSSTAT + "structure-20180402T1704.csv"
    assert structure.version == "20180402T1704"
    assert structure.created.value == dt.datetime(2018, 4, 2, 17, 4)
    assert structure.format == "csv"


# --- generated corpus ------------------------------------------------------------------------------------

SITE = "http://example.com/opendata/7712345678-showrooms/"


def template(title: str = "Список выставочных залов") -> list[tuple[str, str]]:
    """The Appendix 8 example passport."""
    return [
        ("property", "value"),
        ("standardversion", STANDARD_3_0),
        ("identifier", "7712345678-showrooms"),
        ("title", title),
        ("description", "Список выставочных залов с указанием контактных данных по округам и районам."),
        ("creator", "Министерство культуры"),
        ("created", "20130401"),
        ("modified", "20130601"),
        ("subject", "Выставка,зал,выставочный зал,культура"),
        ("format", "xml"),
        ("provenance", "Исправлены незначительные ошибки, добавлены новые выставочные залы"),
        ("valid", "20130701"),
        ("publishername", "Иванов Иван Иванович"),
        ("publisherphone", "+7 (495) 123-45-67, доб. 50704"),
        ("publishermbox", "ivanov@example.com"),
        ("data-20130601T0000-structure-20130401T0000", SITE + "data-20130601T0000-structure-20130401T0000.xml"),
        ("data-20130501T0000-structure-20130401T0000", SITE + "data-20130501T0000-structure-20130401T0000.xml"),
        ("structure-20130401T0000", SITE + "structure-20130401T0000.xsd"),
    ]


PHONE_ROW = 13

QUIRKS = {
    "plain": {},
    "semicolon": {"delimiter": ";"},
    "tab": {"delimiter": "\t"},
    "all quoted": {"quote_all": True},
    "blank lines": {"blank_lines": True},
    "column numbers": {"number_row": True},
    "trailing padding": {"delimiter": ";", "trailing": 5},
    "crlf": {"line_end": "\r\n"},
    "utf-8 bom": {"bom": True},
    "windows-1251": {"encoding": "cp1251"},
    "mixed encoding": {"encoding": "cp1251", "utf8_rows": {PHONE_ROW}},
    "all at once": {"delimiter": ";", "quote_all": True, "blank_lines": True, "number_row": True, "trailing": 3,
                    "line_end": "\r\n", "encoding": "cp1251", "utf8_rows": {PHONE_ROW}},
}


@pytest.mark.parametrize("quirks", QUIRKS.values(), ids=QUIRKS.keys())
def test_every_quirk_reads_the_same_passport(quirks):
    result = parse(write_csv(template(), **quirks), url=SITE + "meta.csv")
    passport = result.value

    assert passport.identifier == "7712345678-showrooms"
    assert passport.title == "Список выставочных залов"
    assert passport.subject == ["Выставка", "зал", "выставочный зал", "культура"]
    assert passport.publisher.phone == "+7 (495) 123-45-67, доб. 50704"
    assert passport.provenance == "Исправлены незначительные ошибки, добавлены новые выставочные залы"
    assert [v.version for v in passport.data_versions] == ["20130601T0000", "20130501T0000"]
    assert [s.version for s in passport.structure_versions] == ["20130401T0000"]
    assert result.errors == []
    assert not [p for p in result.problems if p.severity is Severity.WARNING and p.code.startswith("passport.")]


@pytest.mark.parametrize("quirks, encoding, code", [
    ({}, "utf-8", None),
    ({"encoding": "cp1251"}, "windows-1251", "decode.windows_1251"),
    ({"encoding": "cp1251", "utf8_rows": {PHONE_ROW}}, "mixed", "decode.mixed_encoding"),
])
def test_encoding_is_reported(quirks, encoding, code):
    result = parse(write_csv(template(), **quirks))

    assert result.encoding == encoding
    assert [c for c in codes(result) if c.startswith("decode.")] == ([code] if code else [])


def test_mojibake_title_is_repaired():
    result = parse(write_csv(template(title=mojibake("Список выставочных залов"))))

    assert result.value.title == "Список выставочных залов"
    assert codes(result) == ["decode.mojibake_repaired"]
    assert result.problems[0].location.line == 4


def test_missing_header_is_reported_and_rows_still_read():
    result = parse(write_csv(template()[1:]))

    assert result.value.identifier == "7712345678-showrooms"
    assert codes(result) == ["passport.csv_missing_header"]


def test_versions_are_sorted_newest_first_whatever_the_published_order():
    rows = template()
    rows[15], rows[16] = rows[16], rows[15]

    assert [v.version for v in parse(write_csv(rows)).value.data_versions] == ["20130601T0000", "20130501T0000"]


# --- keys with typos --------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["standard version", "Standard_Version", "standartversion", " standardversion "])
def test_standard_version_key_spellings(key):
    rows = template()
    rows[1] = (key, STANDARD_3_0)

    assert parse(write_csv(rows)).value.standard_version == STANDARD_3_0


def test_wrong_case_standard_url_is_canonicalised_and_reported():
    rows = template()
    rows[1] = ("standardversion", "http://OpenData.gosmonitor.ru/standard/3.0")
    result = parse(write_csv(rows))

    assert result.value.standard_version == STANDARD_3_0
    assert codes(result) == ["passport.standard_version_variant"]


def test_misspelt_property_is_read_as_the_property_meant():
    rows = template()
    rows[4] = ("descripton", "Описание")
    result = parse(write_csv(rows))

    assert result.value.description == "Описание"
    assert codes(result) == ["passport.csv_property_typo"]
    assert "descripton" in result.problems[0].message()


def test_strucrure_typo_in_keys_still_reads_versions():
    rows = template()[:15] + [
        ("data-1-strucrure-1", SITE + "data-1-structure-1.csv"),
        ("strucrure-1", SITE + "structure-1.csv"),
    ]
    passport = parse(write_csv(rows)).value

    assert [(v.version, v.structure_version) for v in passport.data_versions] == [("1", "1")]
    assert [s.version for s in passport.structure_versions] == ["1"]


# --- version names ---------------------------------------------------------------------------------------

VERSION_NAMES = [
    ("data-20130601T0000-structure-20130401T0000", "20130601T0000", "20130401T0000", dt.datetime(2013, 6, 1, 0, 0)),
    ("data-2016-04-21-structure-2016-04-21", "2016-04-21", "2016-04-21", dt.date(2016, 4, 21)),
    ("data-1-structure-1", "1", "1", None),
    ("data_20140930_structure_1_20140930", "20140930", "1", dt.date(2014, 9, 30)),
    ("data-10122025-structure-10062025", "10122025", "10062025", dt.date(2025, 12, 10)),
    ("data-20130601T0000-structure-20130401T0000.csv.CSV", "20130601T0000", "20130401T0000",
     dt.datetime(2013, 6, 1, 0, 0)),
    ("data 3 structure 2", "3", "2", None),
]


@pytest.mark.parametrize("key, version, structure, created", VERSION_NAMES, ids=[v[0] for v in VERSION_NAMES])
def test_version_name_forms_in_keys(key, version, structure, created):
    rows = template()[:15] + [(key, SITE + "data.xml")]
    [data] = parse(write_csv(rows)).value.data_versions

    assert (data.version, data.structure_version) == (version, structure)
    assert (data.created.value if data.created else None) == created
    assert data.format == "xml"


@pytest.mark.parametrize("key, version, structure, created", VERSION_NAMES, ids=[v[0] for v in VERSION_NAMES])
def test_version_name_forms_in_file_names(key, version, structure, created):
    rows = template()[:15] + [("data", SITE + key.replace(" ", "-") + ".csv")]
    result = parse(write_csv(rows))
    [data] = result.value.data_versions

    assert (data.version, data.structure_version) == (version, structure)
    assert "passport.csv_unreadable_version_key" in codes(result)


def test_double_upper_case_extension_gives_the_format():
    rows = template()[:15] + [("data-1-structure-1", SITE + "data-1-structure-1.csv.CSV")]

    assert parse(write_csv(rows)).value.data_versions[0].format == "csv"


def test_unreadable_version_key_and_file_name_keep_the_link():
    rows = template()[:15] + [("data-latest", SITE + "export.xml")]
    result = parse(write_csv(rows))
    [data] = result.value.data_versions

    assert (data.source, data.version, data.format) == (SITE + "export.xml", "", "xml")
    assert [(p.code, p.location.line) for p in result.problems] == [("passport.csv_unreadable_version_key", 16),
                                                                     ("passport.csv_no_structure_versions", None)]


def test_version_without_link_is_skipped():
    rows = template()
    rows[16] = ("data-20130501T0000-structure-20130401T0000", "")
    result = parse(write_csv(rows))

    assert len(result.value.data_versions) == 1
    assert codes(result) == ["passport.version_without_source"]


def test_relative_links_are_resolved_against_the_passport_url():
    rows = template()[:15] + [("data-1-structure-1", "data-1-structure-1.csv"), ("structure-1", "/s/structure-1.csv")]
    passport = parse(write_csv(rows), url=SITE + "meta.csv").value

    assert passport.data_versions[0].source == SITE + "data-1-structure-1.csv"
    assert passport.structure_versions[0].source == "http://example.com/s/structure-1.csv"


@pytest.mark.parametrize("name, version, date", [
    ("structure-20130401T0000", "20130401T0000", dt.datetime(2013, 4, 1, 0, 0)),
    ("structure-1-2013-07-15.csv", "1", dt.date(2013, 7, 15)),
    ("structure_1_20140930", "1", dt.date(2014, 9, 30)),
    ("structure-2-data-11.xsd", "2", None),
    ("strucrure-1", "1", None),
])
def test_structure_name_forms(name, version, date):
    parsed = read_version_name(name)

    assert (parsed.kind, parsed.version) == ("structure", version)
    assert (parsed.created.value if parsed.created else None) == date


def test_names_that_are_not_versions():
    assert read_version_name("data") is None
    assert read_version_name("dataset-title") is None
    assert read_version_name("subject") is None


# --- broken passports ------------------------------------------------------------------------------------

def test_missing_properties_are_reported_by_name():
    rows = [row for row in template() if row[0] not in ("identifier", "valid", "publishermbox")]
    result = parse(write_csv(rows))

    missing = [(p.code, p.location.element) for p in result.problems]
    assert missing == [("passport.csv_missing_identifier", "identifier"),
                       ("passport.csv_missing_property", "valid"),
                       ("passport.csv_missing_property", "publishermbox")]
    assert result.errors[0].code == "passport.csv_missing_identifier"


def test_unknown_property_is_reported_with_its_line():
    rows = template()[:15] + [("license", "CC-BY")] + template()[15:]
    result = parse(write_csv(rows))

    assert [(p.code, p.location.line) for p in result.problems] == [("passport.csv_unknown_property", 16)]


def test_unreadable_date_keeps_the_text_and_is_reported():
    rows = template()
    rows[6] = ("created", "весной 2013")
    result = parse(write_csv(rows))

    assert result.value.created.text == "весной 2013"
    assert result.value.created.value is None
    assert [(p.code, p.location.element) for p in result.problems] == [("passport.csv_unreadable_date", "created")]


def test_repeated_property_keeps_the_first_value():
    rows = template() + [("title", "Другое")]
    result = parse(write_csv(rows))

    assert result.value.title == "Список выставочных залов"
    assert codes(result) == ["passport.csv_duplicate_property"]


def test_unquoted_comma_in_a_value_is_rejoined():
    data = write_csv(template()[:8]) + "subject,Выставка,зал,культура\n".encode()
    result = parse(data)

    assert result.value.subject == ["Выставка", "зал", "культура"]
    assert "passport.csv_unquoted_value" in codes(result)


def test_html_page_instead_of_meta_csv():
    result = parse(b"<!DOCTYPE html><html><body>Captcha</body></html>", url=SITE + "meta.csv")

    assert result.value is None
    assert codes(result) == ["csv.html_instead_of_csv"]
    assert result.form == "meta.csv"


def test_empty_file():
    result = parse(b"")

    assert result.value is None
    assert codes(result) == ["csv.empty"]


def test_csv_that_is_no_passport():
    result = parse(write_csv([("name", "age"), ("Иван", "42")]))

    assert result.value is None
    assert codes(result)[-1] == "passport.csv_not_a_passport"
