"""The MR writers: what each written form holds, byte for byte where it matters."""
from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import json

import pytest
from lxml import etree

from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.model import (
    STANDARD_2_3,
    STANDARD_3_0,
    DataVersion,
    MRDate,
    Passport,
    Publisher,
    Registry,
    RegistryEntry,
    StructureVersion,
)
from ckanext.passport.mr.writers import passport as passport_writer
from ckanext.passport.mr.writers import registry as registry_writer

SHOWROOMS = "http://example.com/opendata/7712345678-showrooms"


def showrooms() -> Passport:
    """The MR 3.0 Appendix 8 example passport, with two data versions."""
    return Passport(
        standard_version=STANDARD_3_0,
        identifier="7712345678-showrooms",
        title="Список выставочных залов",
        description="Список выставочных залов с указанием контактных данных по округам и районам.",
        creator="Министерство культуры",
        publisher=Publisher("Иванов Иван Иванович", "+74951234567", "ivanov@example.com"),
        created=parse_date("20130401"),
        modified=parse_date("20130601"),
        valid=parse_date("20130701"),
        subject=["Выставка", "зал", "выставочный зал", "культура"],
        format="xml",
        provenance="Исправлены незначительные ошибки, добавлены новые выставочные залы",
        data_versions=[
            DataVersion(
                source=f"{SHOWROOMS}/data-20130601T0000-structure-20130401T0000.xml",
                version="20130601T0000",
                structure_version="20130401T0000",
                created=parse_date("20130601T0000"),
                provenance="Исправлены незначительные ошибки, добавлены новые выставочные залы",
                valid=parse_date("20130701"),
            ),
            DataVersion(
                source=f"{SHOWROOMS}/data-20130401T0000-structure-20130401T0000.xml",
                version="20130401T0000",
                structure_version="20130401T0000",
                created=parse_date("20130401T0000"),
                provenance="Первичная публикация",
                valid=parse_date("20130501"),
            ),
        ],
        structure_versions=[
            StructureVersion(
                source=f"{SHOWROOMS}/structure-20130401T0000.xsd",
                version="20130401T0000",
                created=parse_date("20130401T0000"),
            )
        ],
    )


def csv_rows(data: bytes, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline=""), delimiter=delimiter))


def registry() -> Registry:
    return Registry(
        standard_version=STANDARD_3_0,
        entries=[
            RegistryEntry("7712345678-showrooms", "Список выставочных залов", f"{SHOWROOMS}/meta.csv", "csv"),
            RegistryEntry("7712345678-parks", 'Парки "Москвы"; с 2013\r\nгода', "http://example.com/p/meta.xml", "xml"),
        ],
    )


# --- meta.csv -------------------------------------------------------------------------------------------

def test_meta_csv_lists_the_appendix_8_properties_in_order_then_versions():
    rows = csv_rows(passport_writer.meta_csv(showrooms()))

    assert rows[0] == ["property", "value"]
    assert [row[0] for row in rows[1:]] == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "provenance", "valid", "publishername", "publisherphone", "publishermbox",
        "data-20130601T0000-structure-20130401T0000",
        "data-20130401T0000-structure-20130401T0000",
        "structure-20130401T0000",
    ]


def test_meta_csv_rows_carry_the_values_and_version_links():
    values = dict(csv_rows(passport_writer.meta_csv(showrooms()))[1:])

    assert values["standardversion"] == STANDARD_3_0
    assert values["subject"] == "Выставка,зал,выставочный зал,культура"
    assert values["created"] == "20130401"
    assert values["valid"] == "20130701"
    assert values["publisherphone"] == "+74951234567"
    assert values["data-20130401T0000-structure-20130401T0000"] == (
        f"{SHOWROOMS}/data-20130401T0000-structure-20130401T0000.xml"
    )
    assert values["structure-20130401T0000"] == f"{SHOWROOMS}/structure-20130401T0000.xsd"


def test_meta_csv_is_utf8_rfc4180_with_crlf_and_quoted_commas():
    data = passport_writer.meta_csv(showrooms())

    assert data.startswith(b"property,value\r\nstandardversion,http://opendata.gosmonitor.ru/standard/3.0\r\n")
    assert 'subject,"Выставка,зал,выставочный зал,культура"\r\n'.encode("utf-8") in data


def test_meta_csv_quotes_quotes_and_line_breaks():
    passport = Passport(title='Залы "Москвы"', description="строка 1\nстрока 2")

    values = dict(csv_rows(passport_writer.meta_csv(passport))[1:])

    assert values["title"] == 'Залы "Москвы"'
    assert values["description"] == "строка 1\nстрока 2"
    assert b'title,"\xd0\x97\xd0\xb0\xd0\xbb\xd1\x8b ""' in passport_writer.meta_csv(passport)


def test_meta_csv_takes_provenance_and_validity_from_the_newest_version_when_the_passport_has_none():
    passport = showrooms()
    passport.provenance, passport.valid = "", None

    values = dict(csv_rows(passport_writer.meta_csv(passport))[1:])

    assert values["provenance"] == "Исправлены незначительные ошибки, добавлены новые выставочные залы"
    assert values["valid"] == "20130701"


# --- dates ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("published", "written"),
    [
        ("20130401", "20130401"),
        ("20130401T0000", "20130401T0000"),
        ("2013-04-01", "20130401"),
        ("01.04.2013", "20130401"),
        ("28 мая 2015 00:00", "20150528T0000"),
        ("2013-04-01T10:30:00", "20130401T1030"),
    ],
)
def test_understood_dates_are_written_in_mr30_basic_form(published, written):
    assert passport_writer.date_text(parse_date(published)) == written


def test_dates_whose_seconds_basic_form_cannot_hold_keep_their_published_text():
    assert passport_writer.date_text(parse_date("28.11.2022 15:51:07")) == "28.11.2022 15:51:07"


def test_unreadable_dates_keep_their_published_text():
    assert passport_writer.date_text(MRDate("201307010", None)) == "201307010"


def test_a_missing_date_is_written_empty():
    assert passport_writer.date_text(None) == ""


# --- meta.xml -------------------------------------------------------------------------------------------

def test_meta_xml_follows_the_schema_element_order():
    root = etree.fromstring(passport_writer.meta_xml(showrooms()))

    assert root.tag == "meta"
    assert [child.tag for child in root] == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "data", "structure", "publisher",
    ]
    assert [child.tag for child in root.find("data/dataversion")] == [
        "source", "created", "provenance", "valid", "structure",
    ]
    assert [child.tag for child in root.find("publisher")] == ["name", "phone", "mbox"]


def test_meta_xml_holds_every_data_and_structure_version():
    root = etree.fromstring(passport_writer.meta_xml(showrooms()))

    assert root.findtext("subject") == "Выставка,зал,выставочный зал,культура"
    assert [v.findtext("created") for v in root.iterfind("data/dataversion")] == ["20130601T0000", "20130401T0000"]
    assert [v.findtext("valid") for v in root.iterfind("data/dataversion")] == ["20130701", "20130501"]
    assert root.findtext("data/dataversion[2]/provenance") == "Первичная публикация"
    assert root.findtext("structure/structureversion/source") == f"{SHOWROOMS}/structure-20130401T0000.xsd"
    assert root.findtext("publisher/mbox") == "ivanov@example.com"


def test_meta_xml_declares_utf8_and_escapes_markup():
    passport = Passport(title="<b>A & B</b>", description="]]> \"quoted\" 'single'")

    data = passport_writer.meta_xml(passport)
    root = etree.fromstring(data)

    assert data.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    assert b"&lt;b&gt;A &amp; B&lt;/b&gt;" in data
    assert root.findtext("title") == "<b>A & B</b>"
    assert root.findtext("description") == "]]> \"quoted\" 'single'"


def test_meta_xml_drops_characters_xml_cannot_carry():
    root = etree.fromstring(passport_writer.meta_xml(Passport(title="bell\x07 nul\x00 tab\t")))

    assert root.findtext("title") == "bell nul tab\t"


def test_meta_xml_keeps_carriage_returns_as_character_references():
    data = passport_writer.meta_xml(Passport(description="a\r\nb"))

    assert b"a&#13;\nb" in data
    assert etree.fromstring(data).findtext("description") == "a\r\nb"


def test_meta_xml_lends_the_passport_provenance_to_the_newest_version_that_has_none():
    passport = showrooms()
    passport.data_versions[0].provenance, passport.data_versions[0].valid = "", None

    root = etree.fromstring(passport_writer.meta_xml(passport))

    assert root.findtext("data/dataversion[1]/provenance") == passport.provenance
    assert root.findtext("data/dataversion[1]/valid") == "20130701"
    assert root.findtext("data/dataversion[2]/provenance") == "Первичная публикация"


# --- meta.json ------------------------------------------------------------------------------------------

def test_meta_json_has_the_appendix_8_shape():
    document = json.loads(passport_writer.meta_json(showrooms()))

    assert list(document) == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "data", "structure", "publisher",
    ]
    assert document["data"][1] == {
        "source": f"{SHOWROOMS}/data-20130401T0000-structure-20130401T0000.xml",
        "created": "20130401T0000",
        "provenance": "Первичная публикация",
        "valid": "20130501",
        "structure": "20130401T0000",
    }
    assert document["structure"] == [{"source": f"{SHOWROOMS}/structure-20130401T0000.xsd", "created": "20130401T0000"}]
    assert document["publisher"] == {"name": "Иванов Иван Иванович", "phone": "+74951234567", "mbox": "ivanov@example.com"}


def test_meta_json_writes_cyrillic_as_utf8_not_escapes():
    data = passport_writer.meta_json(showrooms())

    assert "Список выставочных залов".encode("utf-8") in data
    assert b"\\u04" not in data


def test_meta_json_escapes_quotes_backslashes_and_control_characters():
    passport = Passport(title='a "b" \\ c\n\x01')

    assert json.loads(passport_writer.meta_json(passport))["title"] == 'a "b" \\ c\n\x01'


# --- every passport form --------------------------------------------------------------------------------

@pytest.mark.parametrize("form", sorted(passport_writer.WRITERS))
def test_writing_a_passport_twice_gives_the_same_bytes(form):
    assert passport_writer.write_passport(showrooms(), form) == passport_writer.write_passport(showrooms(), form)


@pytest.mark.parametrize(("form", "start"), [
    ("meta.csv", b"property,value\r\nstandardversion,\r\n"),
    ("meta.xml", b"<?xml version='1.0' encoding='utf-8'?>\n<meta>\n  <standardversion></standardversion>"),
    ("meta.json", b'{\n  "standardversion": "",'),
])
def test_an_empty_passport_can_still_be_written(form, start):
    assert passport_writer.write_passport(Passport(), form).startswith(start)


def test_a_data_version_without_a_version_name_is_keyed_by_its_creation_date():
    version = DataVersion(source="http://x/d.csv", structure_version="1", created=MRDate("2016-04-21", dt.date(2016, 4, 21)))

    assert passport_writer.data_key(version) == "data-20160421-structure-1"


# --- list.csv -------------------------------------------------------------------------------------------

def test_list_csv_starts_with_the_mr30_header_and_standard_version_row():
    rows = csv_rows(registry_writer.list_csv(registry()))

    assert rows[0] == ["property", "title", "value", "format"]
    assert rows[1] == ["standardversion", "Версия методических рекомендаций", STANDARD_3_0, ""]


def test_list_csv_has_one_rfc4180_row_per_dataset():
    data = registry_writer.list_csv(registry())
    rows = csv_rows(data)

    assert rows[2:] == [
        ["7712345678-showrooms", "Список выставочных залов", f"{SHOWROOMS}/meta.csv", "csv"],
        ["7712345678-parks", 'Парки "Москвы"; с 2013\r\nгода', "http://example.com/p/meta.xml", "xml"],
    ]
    assert data.endswith(b"\r\n")
    assert '"Парки ""Москвы""; с 2013\r\nгода"'.encode("utf-8") in data


def test_list_csv_writes_the_registry_standard_version():
    rows = csv_rows(registry_writer.list_csv(Registry(standard_version=STANDARD_2_3)))

    assert rows[1][2] == STANDARD_2_3


def test_a_registry_without_standard_version_is_written_as_mr30():
    assert csv_rows(registry_writer.list_csv(Registry()))[1][2] == STANDARD_3_0


# --- opendatalist.csv -----------------------------------------------------------------------------------

def test_opendatalist_csv_is_semicolon_separated_and_numbered():
    rows = csv_rows(registry_writer.opendatalist_csv(registry()), delimiter=";")

    assert rows[0] == list(registry_writer.OPENDATALIST_HEADER)
    assert rows[1] == ["1", "Список выставочных залов", f"{SHOWROOMS}/meta.csv", "7712345678-showrooms", "csv"]
    assert rows[2][0] == "2"


def test_opendatalist_csv_replaces_semicolons_and_line_breaks_inside_fields():
    data = registry_writer.opendatalist_csv(registry())
    lines = data.decode("utf-8").split("\r\n")

    assert lines[2] == '2;"Парки ""Москвы"", с 2013 года";http://example.com/p/meta.xml;7712345678-parks;xml'
    assert len(lines) == 4 and lines[3] == ""


# --- list.xml -------------------------------------------------------------------------------------------

def test_list_xml_has_the_mr30_shape():
    root = etree.fromstring(registry_writer.list_xml(registry()))

    assert root.tag == "list"
    assert root.findtext("standardversion") == STANDARD_3_0
    items = root.findall("meta/item")
    assert [[child.tag for child in item] for item in items] == [["identifier", "title", "link", "format"]] * 2
    assert items[1].findtext("title") == 'Парки "Москвы"; с 2013\r\nгода'
    assert items[0].findtext("link") == f"{SHOWROOMS}/meta.csv"


def test_an_empty_registry_writes_an_empty_meta_list():
    root = etree.fromstring(registry_writer.list_xml(Registry()))

    assert root.find("meta") is not None
    assert root.findall("meta/item") == []


# --- list.json ------------------------------------------------------------------------------------------

def test_list_json_has_the_mr30_shape():
    document = json.loads(registry_writer.list_json(registry()))

    assert document == {
        "standardversion": STANDARD_3_0,
        "meta": [
            {"identifier": "7712345678-showrooms", "title": "Список выставочных залов",
             "link": f"{SHOWROOMS}/meta.csv", "format": "csv"},
            {"identifier": "7712345678-parks", "title": 'Парки "Москвы"; с 2013\r\nгода',
             "link": "http://example.com/p/meta.xml", "format": "xml"},
        ],
    }


def test_an_empty_registry_writes_an_empty_json_list():
    assert json.loads(registry_writer.list_json(Registry())) == {"standardversion": STANDARD_3_0, "meta": []}


# --- streaming ------------------------------------------------------------------------------------------

def endless_entries():
    for number in itertools.count(1):
        yield RegistryEntry(f"7712345678-set{number}", f"Набор {number}", f"http://example.com/{number}/meta.csv", "csv")


@pytest.mark.parametrize("form", sorted(registry_writer.STREAMS))
def test_streams_write_entries_as_they_come_without_reading_ahead(form):
    chunks = registry_writer.STREAMS[form](endless_entries(), STANDARD_3_0)

    written = b"".join(
        chunk if isinstance(chunk, bytes) else chunk.encode("utf-8") for chunk in itertools.islice(chunks, 60)
    )

    assert "7712345678-set50".encode("utf-8") in written


@pytest.mark.parametrize("form", sorted(registry_writer.STREAMS))
def test_whole_documents_are_the_joined_streams(form):
    streamed = registry_writer.STREAMS[form](iter(registry().entries), STANDARD_3_0)
    joined = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8") for chunk in streamed)

    assert registry_writer.write_registry(registry(), form) == joined
