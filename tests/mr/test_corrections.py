"""Corrected passport files: what was read, put right where the passport itself decides, never invented.

Every passport among the real publications and the demo site comes back as ``meta.json``, ``meta.csv`` and
``meta.xml`` valid against the MR 3.0 schemas, with each correction listed as an INFO ``fix.*`` finding.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ckanext.passport.mr.check import check_passport
from ckanext.passport.mr.corrections import FIXED_FILES, correct, fixed_file
from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.fields import described_by_newest
from ckanext.passport.mr.model import (
    STANDARD_2_3, STANDARD_3_0, DataVersion, Passport, Publisher, Severity, StructureVersion,
)
from ckanext.passport.mr.passport import parse_passport
from ckanext.passport.mr.passport.meta_json import json_schema_validator
from ckanext.passport.mr.passport.meta_xml import xml_schema
from ckanext.passport.mr.safexml import parse_xml

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real"
DEMO = ROOT / "dev" / "demo-site" / "opendata"


def passport_files() -> list[Path]:
    """Every passport published among the real fixtures and on the demo site: files and RDFa pages."""
    found = []
    for folder in (REAL, DEMO):
        found += folder.glob("**/meta.*")
        found += [page for page in folder.glob("*/*/index.*") if page.suffix in (".php", ".html")]
        found += [page for page in folder.glob("*/index.html")]
    return sorted(found)


def read(path: Path) -> tuple[Passport, str]:
    # Served as the demo serves it: <site>/opendata/<identifier>/<file>.
    url = f"http://site.example/opendata/{path.parent.name}/{path.name}"
    result = parse_passport(path.read_bytes(), url)
    assert result.value is not None, path
    return result.value, url


PASSPORTS = passport_files()


def test_the_real_fixtures_and_the_demo_site_hold_passports_of_every_form():
    forms = {parse_passport(path.read_bytes(), path.as_uri()).form for path in PASSPORTS}
    assert {"meta.csv", "meta.json", "meta.xml", "mr23.csv", "rdfa"} <= forms
    assert len(PASSPORTS) >= 10


@pytest.mark.parametrize("path", PASSPORTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_corrected_files_of_every_real_passport_are_valid_against_the_mr30_schemas(path):
    corrected, _fixes = correct(*read(path))

    root, problems = parse_xml(fixed_file(corrected, "meta.xml"))
    assert problems == [] and root is not None
    schema = xml_schema()
    assert schema.validate(root), schema.error_log
    document = json.loads(fixed_file(corrected, "meta.json"))
    assert [error.message for error in json_schema_validator().iter_errors(document)] == []
    as_csv = parse_passport(fixed_file(corrected, "meta.csv"), form="meta.csv")
    assert (as_csv.form, as_csv.encoding) == ("meta.csv", "utf-8")
    # meta.csv has no schema: it reads back, missing only what the publisher never stated (not invented).
    current = described_by_newest(corrected)
    assert [(p.code, p.params["name"], getattr(current, p.params["name"])) for p in as_csv.problems] == [
        ("passport.csv_missing_property", p.params["name"], None) for p in as_csv.problems]


@pytest.mark.parametrize("path", PASSPORTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_three_corrected_files_of_a_passport_say_the_same(path):
    corrected, _fixes = correct(*read(path))
    forms = {name: parse_passport(fixed_file(corrected, name), form=name).value for name in FIXED_FILES}

    facts = {name: (p.standard_version, p.identifier, p.title, p.created, p.modified, p.format,
                    [v.source for v in p.data_versions], [s.source for s in p.structure_versions])
             for name, p in forms.items()}
    assert facts["meta.csv"] == facts["meta.json"] == facts["meta.xml"]


@pytest.mark.parametrize("path", PASSPORTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_corrected_passport_has_none_of_the_defects_its_corrections_name(path):
    passport, url = read(path)
    corrected, fixes = correct(passport, url)

    after = {p.code for p in check_passport(corrected, url=url, form="meta.json").problems}
    assert after.isdisjoint({"check.date_form", "check.versions_order", "check.format_case",
                             "check.standard_version_unknown"})
    assert all(fix.code.startswith("fix.") and fix.severity is Severity.INFO for fix in fixes)


def test_an_mr23_passport_becomes_mr30_with_iso_dates_and_its_structure_link_in_the_mr30_template(read_real):
    url = "https://zhabinda.github.io/github_page_example/opendata/7703092752-terorg/meta.csv"
    passport = parse_passport(read_real("meteorf-terorg/meta.csv"), url).value

    corrected, fixes = correct(passport, url)

    assert corrected.standard_version == STANDARD_3_0
    assert (corrected.created.text, corrected.modified.text) == ("20130715", "20130715")
    assert corrected.structure_versions[0].source == (
        "https://zhabinda.github.io/github_page_example/opendata/7703092752-terorg/structure-1.csv")
    assert [(f.code, f.location.element) for f in fixes] == [
        ("fix.standard_version", "standardversion"),
        ("fix.date", "created"),
        ("fix.date", "modified"),
        ("fix.date", "structure[0].created"),
        ("fix.date", "data[0].created"),
        ("fix.structure_link", "structure"),
    ]
    assert fixes[1].message() == "date '15.07.2013' in field 'created' written as 20130715"


def test_a_conformant_passport_needs_no_correction(read_real):
    url = "https://rosstat.gov.ru/opendata/7708234640-okvedva/meta.csv"
    passport = parse_passport(read_real("rosstat-okved2/meta.csv"), url).value

    corrected, fixes = correct(passport, url)

    assert fixes == []
    assert fixed_file(corrected, "meta.json") == fixed_file(passport, "meta.json")


def careless() -> Passport:
    """A passport as careless publishers write one: every defect that the passport itself can settle."""
    return Passport(
        standard_version="http://OpenData.gosmonitor.ru/standard/3.0/",
        identifier="7703092752_terorg",
        title="Территориальные органы",
        description="Перечень",
        creator="Росгидромет",
        publisher=Publisher("Иванов И. И.", "+7 (495) 123-45-67", "ivanov@example.ru"),
        created=parse_date("01.04.2013"),
        modified=parse_date("28 мая 2015 00:00"),
        valid=parse_date("когда-нибудь"),
        subject=["органы"],
        format="CSV",
        data_versions=[
            DataVersion(source="http://meteo.example/files/data_2014-09-30_structure_1.CSV",
                        version="2014-09-30", structure_version="1", created=parse_date("2014-09-30"),
                        provenance="Первичная публикация"),
            DataVersion(source="http://meteo.example/opendata/7703092752-terorg/data-20150528-structure-1.csv",
                        version="20150528", structure_version="1", created=parse_date("20150528")),
        ],
        structure_versions=[StructureVersion(source="structure-1.csv", version="1")],
    )


def test_corrections_settle_what_the_passport_itself_decides():
    url = "http://meteo.example/opendata/7703092752-terorg/meta.csv"

    corrected, fixes = correct(careless(), url)

    assert corrected.standard_version == STANDARD_3_0
    assert corrected.identifier == "7703092752-terorg"
    assert corrected.format == "csv"
    assert (corrected.created.text, corrected.modified.text) == ("20130401", "20150528T0000")
    assert [v.version for v in corrected.data_versions] == ["20150528", "20140930"]
    assert [v.source for v in corrected.data_versions] == [
        "http://meteo.example/opendata/7703092752-terorg/data-20150528-structure-1.csv",
        "http://meteo.example/opendata/7703092752-terorg/data-20140930-structure-1.csv",
    ]
    assert corrected.structure_versions[0].source == "http://meteo.example/opendata/7703092752-terorg/structure-1.csv"
    assert [f.code for f in fixes] == [
        "fix.standard_version", "fix.identifier", "fix.format", "fix.date", "fix.date", "fix.version_name",
        "fix.date", "fix.versions_order", "fix.data_link", "fix.structure_link",
    ]
    assert "publish the file at that address" in fixes[-2].message()


def test_nothing_is_invented_an_unreadable_date_and_a_missing_field_stay_as_they_were():
    passport = careless()
    passport.description = ""

    corrected, fixes = correct(passport, "http://meteo.example/opendata/7703092752-terorg/meta.csv")

    assert corrected.valid == parse_date("когда-нибудь")
    assert corrected.description == ""
    assert corrected.data_versions[0].valid is None
    assert not any(f.location.element in ("valid", "description") for f in fixes)


def test_the_passport_read_is_left_as_it_was():
    passport = careless()

    correct(passport, "http://meteo.example/opendata/7703092752-terorg/meta.csv")

    assert passport == careless()


def test_an_identifier_its_folder_contradicts_is_kept_and_its_files_stay_where_they_are(read_real):
    url = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/meta.json"
    passport = parse_passport(read_real("predgor/2618017120-politicaldivisions/meta.json"), url).value
    passport.data_versions[0].source = passport.data_versions[0].source.replace(".json", ".JSON")

    corrected, fixes = correct(passport, url)

    assert corrected.identifier == "2618017120-subdivisions"
    assert corrected.data_versions[0].source == passport.data_versions[0].source
    assert [(f.code, f.params) for f in fixes] == [("fix.identifier_kept", {
        "identifier": "2618017120-subdivisions", "folder": "2618017120-politicaldivisions"})]


def test_an_empty_identifier_is_taken_from_the_passports_folder():
    passport = careless()
    passport.identifier = ""

    corrected, fixes = correct(passport, "http://meteo.example/opendata/7703092752-terorg/")

    assert corrected.identifier == "7703092752-terorg"
    assert fixes[1].params == {"old": "", "new": "7703092752-terorg"}


def test_an_identifier_without_a_valid_inn_is_not_rewritten():
    passport = careless()
    passport.identifier = "1234567890_terorg"

    corrected, fixes = correct(passport, "")

    assert corrected.identifier == "1234567890_terorg"
    assert "fix.identifier" not in {f.code for f in fixes}
    # Without an identifier of MR form there is no folder to put the files in.
    assert corrected.data_versions[1].source == "http://meteo.example/files/data_2014-09-30_structure_1.CSV"


def test_links_on_an_opendata_host_stay_on_it():
    passport = careless()
    passport.data_versions[0].source = "http://opendata.meteo.example/terorg/data-2014-09-30-structure-1.csv"

    corrected, _fixes = correct(passport, "")

    assert corrected.data_versions[1].source == (
        "http://opendata.meteo.example/7703092752-terorg/data-20140930-structure-1.csv")


def test_only_the_three_mr_files_are_written():
    with pytest.raises(ValueError):
        fixed_file(careless(), "meta.txt")
    assert FIXED_FILES == ("meta.json", "meta.xml", "meta.csv")


def test_an_mr23_standard_is_named_once_as_corrected():
    passport = careless()
    passport.standard_version = STANDARD_2_3

    _corrected, fixes = correct(passport, "")

    assert fixes[0].params == {"old": STANDARD_2_3, "new": STANDARD_3_0}


def test_a_passport_without_versions_is_told_its_files_cannot_be_valid_and_none_is_invented():
    passport = careless()
    passport.data_versions, passport.structure_versions = [], []

    corrected, fixes = correct(passport, "")

    assert (corrected.data_versions, corrected.structure_versions) == ([], [])
    assert [(f.code, f.params) for f in fixes if f.code == "fix.no_version"] == [
        ("fix.no_version", {"kind": "data"}), ("fix.no_version", {"kind": "structure"})]
    document = json.loads(fixed_file(corrected, "meta.json"))
    assert [e.validator for e in json_schema_validator().iter_errors(document)] == ["minItems", "minItems"]
