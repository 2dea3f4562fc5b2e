"""Writers and parsers agree: what is written reads back as the same passport or registry.

Generated passports cover every shape (no versions, one, several; dates with and without time; empty
fields; markup, quotes and commas in texts); real publications are parsed, written and parsed again.
"""
from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from ckanext.passport.mr.dates import format_basic, parse_date
from ckanext.passport.mr.model import (
    STANDARD_2_3,
    STANDARD_3_0,
    DataVersion,
    Passport,
    Publisher,
    Registry,
    RegistryEntry,
    StructureVersion,
)
from ckanext.passport.mr.passport import parse_passport
from ckanext.passport.mr.passport.meta_json import json_schema_validator
from ckanext.passport.mr.passport.meta_xml import xml_schema
from ckanext.passport.mr.registry import parse_registry
from ckanext.passport.mr.writers.passport import WRITERS, write_passport
from ckanext.passport.mr.writers.registry import STREAMS, write_registry

PASSPORT_FORMS = sorted(WRITERS)
REGISTRY_FORMS = sorted(STREAMS)
SITE = "http://opendata.example.ru"

REAL_PASSPORTS = {
    "rosstat-okved2/meta.csv": "meta.csv",
    "predgor/2618017120-politicaldivisions/meta.json": "meta.json",
    "meteorf-terorg/meta.csv": "mr23.csv",
    "predgor/2618017120-politicaldivisions/index.php": "rdfa",
}

# --- generated passports --------------------------------------------------------------------------------

# Texts as publishers write them: Cyrillic, markup characters, quotes, commas, semicolons, inner spaces.
# Parsers strip surrounding whitespace, so texts are generated stripped.
_TEXT_ALPHABET = st.sampled_from(list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЯabcXYZ0129 .,;:-\"'<>&/()№«»"))
texts = st.text(_TEXT_ALPHABET, max_size=40).map(str.strip)
keywords = st.text(st.sampled_from(list("абвгдежзклмн xyz-")), min_size=1, max_size=15).map(str.strip).filter(bool)
formats = st.sampled_from(["csv", "xml", "json"])
moments = st.datetimes(min_value=dt.datetime(2010, 1, 1), max_value=dt.datetime(2030, 12, 31)).map(
    lambda moment: moment.replace(second=0, microsecond=0)
)
days = st.dates(min_value=dt.date(2010, 1, 1), max_value=dt.date(2030, 12, 31))
optional_dates = st.none() | (days | moments).map(lambda value: parse_date(format_basic(value)))


@st.composite
def passports(draw) -> Passport:
    """A passport as MR 3.0 names things: versions newest first, files named ``data-<v>-structure-<s>``.

    The passport's current provenance and validity live on its newest version only, the one place that
    every form has for them (see the provenance tests below for the passport-level fields).
    """
    identifier = f"{draw(st.integers(1_000_000_000, 9_999_999_999))}-{draw(st.sampled_from(['showrooms', 'parks', 'okvedva']))}"
    folder = f"{SITE}/{identifier}"
    structure_moments = sorted(draw(st.sets(moments, max_size=2)), reverse=True)
    structures = [
        StructureVersion(
            source=f"{folder}/structure-{format_basic(moment)}.{fmt}",
            version=format_basic(moment),
            created=parse_date(format_basic(moment)),
            format=fmt,
        )
        for moment, fmt in ((moment, draw(formats)) for moment in structure_moments)
    ]
    structure_names = [s.version for s in structures] or [format_basic(draw(moments))]
    data_moments = sorted(draw(st.sets(moments, max_size=3)), reverse=True)
    versions = []
    for moment in data_moments:
        fmt, structure = draw(formats), draw(st.sampled_from(structure_names))
        name = format_basic(moment)
        versions.append(DataVersion(
            source=f"{folder}/data-{name}-structure-{structure}.{fmt}",
            version=name,
            structure_version=structure,
            created=parse_date(name),
            provenance=draw(texts),
            valid=draw(optional_dates),
            format=fmt,
        ))
    return Passport(
        standard_version=STANDARD_3_0,
        identifier=identifier,
        title=draw(texts),
        description=draw(texts),
        creator=draw(texts),
        publisher=Publisher(name=draw(texts), phone=draw(st.from_regex(r"\+7\d{10}", fullmatch=True)),
                            mbox=draw(st.sampled_from(["", "ivanov@example.com", "opendata@gov.ru"]))),
        created=draw(optional_dates),
        modified=draw(optional_dates),
        subject=draw(st.lists(keywords, max_size=4)),
        format=draw(formats),
        data_versions=versions,
        structure_versions=structures,
    )


def as_carried_by(passport: Passport, form: str) -> Passport:
    """The passport a form can hold: every form reads the passport's provenance and validity as the newest
    version's (MR 3.0 defines them so); ``meta.csv`` puts them at the top and has no place for those of older
    versions."""
    if not passport.data_versions:
        return passport
    carried = copy.deepcopy(passport)
    newest, *older = carried.data_versions
    carried.provenance, carried.valid = newest.provenance, newest.valid
    if form == "meta.csv":
        for version in older:
            version.provenance, version.valid = "", None
    return carried


ROUND_TRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("form", PASSPORT_FORMS)
@ROUND_TRIP
@given(passport=passports())
def test_generated_passports_read_back_equal(form, passport):
    expected = as_carried_by(passport, form)

    result = parse_passport(write_passport(expected, form), form=form)

    assert result.value == expected
    assert result.form == form


@pytest.mark.parametrize("form", PASSPORT_FORMS)
@ROUND_TRIP
@given(passport=passports())
def test_generated_passports_are_written_identically_after_a_round_trip(form, passport):
    written = write_passport(passport, form)

    assert write_passport(parse_passport(written, form=form).value, form) == written


@ROUND_TRIP
@given(passport=passports().filter(lambda p: p.data_versions and p.structure_versions))
def test_written_meta_xml_is_valid_against_the_mr30_schema(passport):
    schema = xml_schema()

    assert schema.validate(etree.fromstring(write_passport(passport, "meta.xml"))), schema.error_log


@ROUND_TRIP
@given(passport=passports().filter(lambda p: p.data_versions and p.structure_versions))
def test_written_meta_json_is_valid_against_the_mr30_schema(passport):
    document = json.loads(write_passport(passport, "meta.json"))

    assert [error.message for error in json_schema_validator().iter_errors(document)] == []


@pytest.mark.parametrize("form", PASSPORT_FORMS)
def test_a_complete_written_passport_reads_without_problems(form):
    passport = replace(the_passport(), provenance="", valid=None) if form != "meta.csv" else the_passport()

    result = parse_passport(write_passport(passport, form), form=form)

    assert [p.code for p in result.problems] == []


def the_passport() -> Passport:
    """One complete MR 3.0 passport whose current provenance is both on the passport and its newest version."""
    return Passport(
        standard_version=STANDARD_3_0,
        identifier="7712345678-showrooms",
        title="Список выставочных залов",
        description='Залы «Москвы», "цены" & <часы>; с 2013 года',
        creator="Министерство культуры",
        publisher=Publisher("Иванов Иван Иванович", "+74951234567", "ivanov@example.com"),
        created=parse_date("20130401"),
        modified=parse_date("20130601T1030"),
        valid=parse_date("20130701"),
        subject=["выставка", "зал"],
        format="xml",
        provenance="Добавлены новые залы",
        data_versions=[
            DataVersion(
                source=f"{SITE}/7712345678-showrooms/data-20130601T0000-structure-20130401T0000.xml",
                version="20130601T0000", structure_version="20130401T0000", created=parse_date("20130601T0000"),
                provenance="Добавлены новые залы", valid=parse_date("20130701"), format="xml",
            ),
        ],
        structure_versions=[
            StructureVersion(
                source=f"{SITE}/7712345678-showrooms/structure-20130401T0000.xsd", version="20130401T0000",
                created=parse_date("20130401T0000"), format="xsd",
            ),
        ],
    )


def test_meta_csv_keeps_the_passport_provenance_and_validity():
    passport = the_passport()

    read = parse_passport(write_passport(passport, "meta.csv"), form="meta.csv").value

    assert (read.provenance, read.valid) == ("Добавлены новые залы", parse_date("20130701"))


@pytest.mark.parametrize("form", ["meta.xml", "meta.json"])
def test_xml_and_json_keep_the_passport_provenance_and_validity(form):
    read = parse_passport(write_passport(the_passport(), form), form=form).value

    assert (read.provenance, read.valid) == ("Добавлены новые залы", parse_date("20130701"))


@pytest.mark.parametrize("form", PASSPORT_FORMS)
@pytest.mark.parametrize("text", [
    'кавычки "внутри" и ""двойные""',
    "запятая, точка с запятой; и табуляция\tвнутри",
    "разметка <b>&amp;</b> и ]]>",
    "строка 1\nстрока 2",
    "строка 1\r\nстрока 2",
])
def test_awkward_texts_survive_every_form(form, text):
    passport = replace(the_passport(), title=text, description=text, creator=text)

    read = parse_passport(write_passport(passport, form), form=form).value

    assert (read.title, read.description, read.creator) == (text, text, text)


# --- real publications ----------------------------------------------------------------------------------

def parse_real(read_real, path: str) -> Passport:
    result = parse_passport(read_real(path), url=f"{SITE}/{path}")
    assert result.form == REAL_PASSPORTS[path]
    return result.value


@pytest.mark.parametrize("path", ["rosstat-okved2/meta.csv", "predgor/2618017120-politicaldivisions/meta.json"])
def test_a_real_mr30_passport_written_in_its_own_form_reads_back_equal(read_real, path):
    passport = parse_real(read_real, path)
    form = REAL_PASSPORTS[path]

    assert parse_passport(write_passport(passport, form), form=form).value == passport


@pytest.mark.parametrize("form", PASSPORT_FORMS)
@pytest.mark.parametrize("path", sorted(REAL_PASSPORTS))
def test_a_real_passport_written_in_any_form_is_stable_after_one_pass(read_real, path, form):
    """Writing normalises (dates to MR 3.0 form); from then on, parse and write change nothing."""
    once = parse_passport(write_passport(parse_real(read_real, path), form), form=form).value
    written = write_passport(once, form)

    assert parse_passport(written, form=form).value == once
    assert write_passport(parse_passport(written, form=form).value, form) == written


@pytest.mark.parametrize("form", PASSPORT_FORMS)
@pytest.mark.parametrize("path", sorted(REAL_PASSPORTS))
def test_a_real_passport_keeps_its_facts_in_every_form(read_real, path, form):
    passport = parse_real(read_real, path)

    read = parse_passport(write_passport(passport, form), form=form).value

    assert (read.identifier, read.title, read.description, read.creator) == (
        passport.identifier, passport.title, passport.description, passport.creator)
    assert read.publisher == passport.publisher
    assert read.subject == passport.subject
    assert [d.value if d else None for d in (read.created, read.modified)] == [
        d.value if d else None for d in (passport.created, passport.modified)]
    assert [v.source for v in read.data_versions] == [v.source for v in passport.data_versions]
    assert [v.source for v in read.structure_versions] == [v.source for v in passport.structure_versions]


def test_the_rosstat_passport_reads_back_with_its_mixed_encoding_phone_repaired(read_real):
    passport = parse_real(read_real, "rosstat-okved2/meta.csv")

    written = write_passport(passport, "meta.csv")

    assert "publisherphone,+7 (495) 568-00-42 доб. 99732\r\n".encode("utf-8") in written
    assert parse_passport(written, form="meta.csv").encoding == "utf-8"
    assert len(parse_passport(written, form="meta.csv").value.data_versions) == 42


def test_the_mr23_passport_dates_are_written_in_mr30_form(read_real):
    passport = parse_real(read_real, "meteorf-terorg/meta.csv")

    rows = dict(csv.reader(io.StringIO(write_passport(passport, "meta.csv").decode("utf-8"), newline="")))

    assert (rows["created"], rows["modified"]) == ("20130715", "20130715")
    assert rows["data-1-structure-1"].endswith("/7703092752-terorg/data-1-structure-1.csv")


@pytest.mark.parametrize("path", sorted(REAL_PASSPORTS))
def test_real_passports_written_as_xml_and_json_are_valid_against_the_schemas(read_real, path):
    passport = parse_real(read_real, path)
    schema = xml_schema()

    assert schema.validate(etree.fromstring(write_passport(passport, "meta.xml"))), schema.error_log
    document = json.loads(write_passport(passport, "meta.json"))
    assert [error.message for error in json_schema_validator().iter_errors(document)] == []


# --- registries -----------------------------------------------------------------------------------------

entries = st.builds(
    RegistryEntry,
    identifier=st.builds(lambda inn, name: f"{inn}-{name}", st.integers(1_000_000_000, 9_999_999_999),
                         st.sampled_from(["showrooms", "parks", "okvedva", "terorg"])),
    # An MR 2.3 title must not itself look like a number, a link or a format name.
    title=texts.filter(lambda t: t and t.strip(".").isdigit() is False and t.casefold() not in {"csv", "xml", "json"}
                       and not t.startswith(("/", "www."))),
    format=formats,
).map(lambda entry: replace(entry, link=f"{SITE}/{entry.identifier}/meta.{entry.format}"))


def unique(entries_list: list[RegistryEntry]) -> list[RegistryEntry]:
    return list({entry.identifier: entry for entry in entries_list}.values())


registries = st.builds(Registry, standard_version=st.just(STANDARD_3_0),
                       entries=st.lists(entries, min_size=1, max_size=6).map(unique))


def as_registry_form(registry: Registry, form: str) -> Registry:
    """``opendatalist.csv`` is MR 2.3's form, which names no standard, and forbids ``;`` and line breaks."""
    if form != "opendatalist.csv":
        return registry
    return Registry(STANDARD_2_3, [replace(e, title=e.title.replace(";", ",")) for e in registry.entries])


@pytest.mark.parametrize("form", REGISTRY_FORMS)
@ROUND_TRIP
@given(registry=registries)
def test_generated_registries_read_back_equal(form, registry):
    result = parse_registry(write_registry(registry, form), form=form)

    assert result.value == as_registry_form(registry, form)
    assert [p.code for p in result.problems] == []


@pytest.mark.parametrize("form", ["list.xml", "list.json"])
def test_the_real_predgor_registry_reads_back_equal(read_real, form):
    registry = parse_registry(read_real("predgor/list.json"), url=f"{SITE}/list.json").value

    assert parse_registry(write_registry(registry, form), form=form).value == registry


def test_the_real_fedstat_registry_reads_back_equal_through_list_xml(read_real):
    registry = parse_registry(read_real("fedstat/list.xml"), url="https://fedstat.ru/opendata/list.xml").value

    written = write_registry(registry, "list.xml")

    assert len(registry.entries) == 6692
    assert parse_registry(written, form="list.xml").value == registry


def test_the_real_fedstat_registry_written_as_list_csv_is_rfc4180_with_the_mr_header(read_real):
    registry = parse_registry(read_real("fedstat/list.xml"), url="https://fedstat.ru/opendata/list.xml").value

    rows = list(csv.reader(io.StringIO(write_registry(registry, "list.csv").decode("utf-8"), newline="")))

    assert rows[0] == ["property", "title", "value", "format"]
    assert rows[1][0] == "standardversion" and rows[1][2] == STANDARD_3_0
    assert len(rows) == 2 + 6692
    assert {len(row) for row in rows} == {4}
    assert rows[2] == [registry.entries[0].identifier, registry.entries[0].title, registry.entries[0].link, "xml"]
    assert parse_registry(write_registry(registry, "list.csv"), form="list.csv").value == registry
