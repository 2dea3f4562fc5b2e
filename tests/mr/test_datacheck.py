"""Data against structure: the newest data file's header is compared with its structure file's fields.

Sites are real local HTTP servers over folders written by ``data_site``; only a capped head of each data file
is read. Findings: ``data.field_missing``, ``data.field_extra``, ``data.field_renamed``, ``data.header_unmatched``
(a first row that names no field), ``data.header_unread``, and ``fetch.not_found`` for a file that is not there.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ckanext.passport.mr.datacheck import DEFAULT_HEAD_BYTES, check_data, compare
from ckanext.passport.mr.fetch import FetchResult, fetch
from ckanext.passport.mr.limits import ReadLimits
from ckanext.passport.mr.model import Passport, StructureField
from ckanext.passport.mr.translation import translator

from tests.support.data_site import DATA_CSV, STRUCTURE_CSV, Dataset, publish
from tests.support.loopback import LOCAL

IDENTIFIER = "7709876545-pharmacies"


class Reader:
    """``fetch_one`` over real HTTP, remembering what was asked and what came back."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None, FetchResult]] = []

    def __call__(self, url: str, head_bytes: int | None = None, max_bytes: int | None = None) -> FetchResult:
        result = fetch(url, ReadLimits.policy(LOCAL, max_bytes), head_bytes=head_bytes)
        self.calls.append((url.rsplit("/", 1)[1], head_bytes, result))
        return result


@pytest.fixture
def check(tmp_path, serve_site):
    """``check(data, structure, **formats)``: publish one dataset and check its data; the findings."""
    site = serve_site(tmp_path)
    reader = Reader()

    def run(data, structure, head_bytes=DEFAULT_HEAD_BYTES, **formats):
        dataset = Dataset(IDENTIFIER, data, structure, **formats)
        passport = publish(tmp_path, site.url, [dataset])[IDENTIFIER]
        return check_data(passport, reader, head_bytes)

    run.reader = reader
    run.site = site
    return run


def codes(found) -> list[tuple[str, dict]]:
    return [(p.code, dict(p.params)) for p in found]


# --- CSV ------------------------------------------------------------------------------------------------

def test_a_header_naming_the_structures_fields_is_in_order(check):
    assert check(DATA_CSV, STRUCTURE_CSV) == []


def test_only_the_head_of_the_data_file_is_read_and_the_structure_file_whole(check):
    rows = "".join(f'"Аптека № {n}","ул. Полянка, {n}",08:00-22:00\r\n' for n in range(100_000))
    big = DATA_CSV + rows.encode("utf-8")

    assert check(big, STRUCTURE_CSV, head_bytes=4096) == []
    (data_name, data_head, data), (structure_name, structure_head, structure) = check.reader.calls
    assert data_name.startswith("data-") and (data_head, data.truncated, len(data.content)) == (4096, True, 4096)
    assert structure_name.startswith("structure-") and (structure_head, structure.truncated) == (None, False)


def test_a_structure_file_over_its_cap_is_never_downloaded_whole(check):
    big_structure = STRUCTURE_CSV + b"".join(b"field%d;Field %d;string\r\n" % (n, n) for n in range(120_000))

    found = check(DATA_CSV, big_structure)

    assert [(p.code, p.params) for p in found] == [("fetch.too_large", {"limit": 2 * 1024 * 1024})]
    _data, (_name, _head, structure) = check.reader.calls
    assert structure.content == b""


def test_missing_extra_and_renamed_fields_are_each_found_with_their_column(check):
    data = "NAME;adres;phone\r\n1;2;3\r\n".encode("utf-8")

    found = check(data, STRUCTURE_CSV)

    assert codes(found) == [
        ("data.field_renamed", {"column": 1, "header": "NAME", "field": "name"}),
        ("data.field_renamed", {"column": 2, "header": "adres", "field": "address"}),
        ("data.field_renamed", {"column": 3, "header": "phone", "field": "hours"}),
    ]
    assert found[0].location.url.endswith(".csv") and found[0].location.line == 1


def test_a_column_the_structure_does_not_name_is_extra_and_a_field_without_column_is_missing(check):
    data = "name,address,district,comment\r\n".encode("utf-8")

    found = check(data, STRUCTURE_CSV.replace(b"hours,Opening hours,", b"phone,Phone,"))

    assert codes(found) == [
        ("data.field_renamed", {"column": 3, "header": "district", "field": "phone"}),
        ("data.field_extra", {"column": 4, "header": "comment"}),
    ]
    found = check("address,name\r\n".encode("utf-8"), STRUCTURE_CSV)
    assert codes(found) == [("data.field_missing", {"field": "hours"})]


def test_a_column_added_in_front_shifts_no_later_field(check):
    data = "№,Название,Адрес,Часы работы\r\n".encode("utf-8")

    assert codes(check(data, STRUCTURE_CSV)) == [
        ("data.field_extra", {"column": 1, "header": "№"}),
        ("data.field_renamed", {"column": 2, "header": "Название", "field": "name"}),
        ("data.field_renamed", {"column": 3, "header": "Адрес", "field": "address"}),
        ("data.field_renamed", {"column": 4, "header": "Часы работы", "field": "hours"}),
    ]


def test_a_windows_1251_file_with_semicolons_is_read_as_every_csv_form_is(check):
    data = '"name";"address";"hours"\r\n"Аптека";"ул. Полянка, 2";"08:00"\r\n'.encode("cp1251")

    assert check(data, STRUCTURE_CSV) == []


def test_a_data_file_without_a_header_row_is_one_finding(check, read_real):
    found = check(read_real("rosstat-okved2/data-20251101T1411-structure-20180402T1704.csv"),
                  read_real("rosstat-okved2/structure-20180402T1704.csv"))

    assert codes(found) == [("data.header_unmatched", {"count": 3})]


def test_the_real_roshydromet_data_names_its_fields_by_their_descriptions(check, read_real):
    found = check(read_real("meteorf-terorg/data-1-structure-1.csv"),
                  read_real("meteorf-terorg/structure-1-2013-07-15.csv"))

    assert found[0].code == "data.field_extra" and found[0].params["header"] == "№ п/п"
    assert {p.code for p in found[1:]} == {"data.field_renamed"}
    assert (found[1].params["field"], found[-1].params["field"]) == ("orgname", "url")


def test_an_html_page_served_for_the_data_file_says_so(check):
    found = check(b"<!DOCTYPE html><html><body>Not here</body></html>", STRUCTURE_CSV)

    assert codes(found) == [("csv.html_instead_of_csv", {})]


# --- missing files --------------------------------------------------------------------------------------

def test_a_data_file_that_is_not_there_is_not_found_as_the_mr_validator_says(check):
    found = check(None, STRUCTURE_CSV)

    assert codes(found) == [("fetch.not_found", {"status": 404})]
    assert found[0].location.url.endswith(".csv") and "/data-" in found[0].location.url
    assert found[0].message(translator("ru")) == "файл не найден (HTTP 404)"
    assert found[0].message(translator("cs")) == "soubor nebyl nalezen (HTTP 404)"


def test_a_structure_file_that_is_not_there_is_not_found(check):
    found = check(DATA_CSV, None)

    assert codes(found) == [("fetch.not_found", {"status": 404})]
    assert "/structure-" in found[0].location.url


# --- JSON and XML ---------------------------------------------------------------------------------------

JSON_SCHEMA = json.dumps({"$schema": "http://json-schema.org/draft-04/schema#", "type": "array", "items": {
    "type": "object", "properties": {"name": {"type": "string"}, "lat": {"type": "number"},
                                     "lon": {"type": "number"}}}}).encode("utf-8")


def test_json_data_is_headed_by_its_first_records_keys(check):
    data = json.dumps([{"name": "Люберцы", "lat": 55.6, "lon": 37.8}], ensure_ascii=False).encode("utf-8")

    assert check(data, JSON_SCHEMA, data_format="json", structure_format="json") == []


def test_a_json_record_is_read_from_a_cut_head(check):
    records = [{"name": f"Остановка {n}", "Lat": 55.6, "lng": 37.8} for n in range(5000)]

    found = check(json.dumps(records, ensure_ascii=False).encode("utf-8"), JSON_SCHEMA, head_bytes=2048,
                  data_format="json", structure_format="json")

    assert codes(found) == [
        ("data.field_renamed", {"column": 2, "header": "Lat", "field": "lat"}),
        ("data.field_renamed", {"column": 3, "header": "lng", "field": "lon"}),
    ]


def test_a_head_too_short_for_one_record_says_that_no_header_was_read(check):
    records = [{"name": "x" * 5000, "lat": 1, "lon": 2}]

    found = check(json.dumps(records).encode("utf-8"), JSON_SCHEMA, head_bytes=1024,
                  data_format="json", structure_format="json")

    assert codes(found) == [("data.header_unread", {"size": 1024})]
    assert found[0].severity.value == "info"


XSD = ('<?xml version="1.0" encoding="utf-8"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
       '<xs:element name="schools"><xs:complexType><xs:sequence><xs:element name="school" maxOccurs="unbounded">'
       '<xs:complexType><xs:sequence><xs:element name="name" type="xs:string"/>'
       '<xs:element name="address" type="xs:string"/></xs:sequence></xs:complexType></xs:element>'
       '</xs:sequence></xs:complexType></xs:element></xs:schema>').encode("utf-8")


def test_xml_data_is_headed_by_its_first_records_elements(check):
    data = '<?xml version="1.0"?><schools><school><name>Школа № 1</name><address>ул. Ленина</address></school></schools>'

    assert check(data.encode("utf-8"), XSD, data_format="xml", structure_format="xsd") == []


def test_an_xml_record_without_an_element_the_xsd_names_misses_it(check):
    data = '<?xml version="1.0"?><schools><school><name>Школа № 1</name><phone>1</phone></school>' + (
        "<school><name>x</name></school>" * 3000) + "</schools>"

    found = check(data.encode("utf-8"), XSD, head_bytes=1024, data_format="xml", structure_format="xsd")

    assert codes(found) == [("data.field_renamed", {"column": 2, "header": "phone", "field": "address"})]


def test_an_xml_data_file_with_entities_expands_none(check):
    data = ('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
            '<schools><school><name>&e;</name><address/></school></schools>')

    assert check(data.encode("utf-8"), XSD, data_format="xml", structure_format="xsd") == []


def test_a_format_without_a_header_is_left_alone(check):
    assert check(b"PK\x03\x04" + b"\x00" * 100, STRUCTURE_CSV, data_format="zip") == []


# --- which files ----------------------------------------------------------------------------------------

def test_the_newest_version_and_the_structure_it_names_are_the_ones_read(check, tmp_path):
    passport = publish(tmp_path, check.site.url, [Dataset(IDENTIFIER, DATA_CSV, STRUCTURE_CSV)])[IDENTIFIER]
    newest, = passport.data_versions
    named, = passport.structure_versions
    # An older version listed first, and a newer structure that the newest version does not follow.
    older = replace(newest, source=newest.source.replace("20250301T1200", "20240101T0000"),
                    version="20240101T0000", created=None)
    unused = replace(named, source=named.source.replace("20250101", "20260101"), version="20260101T0000")
    passport.data_versions = [older, newest]
    passport.structure_versions = [unused, named]

    assert check_data(passport, check.reader, 1024) == []
    assert [name for name, _head, _result in check.reader.calls] == [
        "data-20250301T1200-structure-20250101T0000.csv", "structure-20250101T0000.csv"]


def test_a_passport_without_data_versions_has_nothing_to_check():
    def never(url, head_bytes=None):
        raise AssertionError(url)

    assert check_data(Passport(identifier="7709876545-pharmacies"), never, 1024) == []


# --- the comparison itself ------------------------------------------------------------------------------

def fields(*names: str) -> list[StructureField]:
    return [StructureField(name=name) for name in names]


def test_transliterated_and_differently_separated_names_are_renamed_not_missing():
    assert codes(compare(["Раздел", "kod_okved", "Naimenovanie"], fields("Razdel", "KodOKVED", "naimenovanie"))) == [
        ("data.field_renamed", {"column": 1, "header": "Раздел", "field": "Razdel"}),
        ("data.field_renamed", {"column": 2, "header": "kod_okved", "field": "KodOKVED"}),
        ("data.field_renamed", {"column": 3, "header": "Naimenovanie", "field": "naimenovanie"}),
    ]


def test_a_header_in_another_order_is_no_finding():
    assert compare(["c", "a", "b"], fields("a", "b", "c")) == []


def test_findings_are_translated():
    found = compare(["name", "extra"], fields("name", "address", "hours"))

    assert [p.message(translator("ru")) for p in found] == [
        "столбец 2 называется 'extra', а в структуре поле называется 'address'",
        "поле 'hours' структуры отсутствует в заголовке файла данных",
    ]
    assert found[1].message(translator("cs")) == "pole 'hours' struktury chybí v záhlaví datového souboru"
