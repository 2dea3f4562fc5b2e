"""Passport ⇄ dataset mapping: what a harvested passport becomes, and what a dataset publishes."""
from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from ckanext.passport.catalog.record.mapping import (
    PublishOptions,
    dataset_name,
    dataset_to_passport,
    identifier_for,
    passport_to_dataset,
    periodicity_code,
    tag_names,
)
from ckanext.passport.catalog.ownership import FIRST_HARVEST, MR
from ckanext.passport.mr.passport import parse_passport

ROSSTAT_URL = "https://rosstat.gov.ru/opendata/7708234640-okvedva/meta.csv"
TERORG_URL = "https://meteorf.gov.ru/opendata/7703092752-terorg/meta.csv"


@pytest.fixture
def rosstat(read_real):
    return parse_passport(read_real("rosstat-okved2/meta.csv"), ROSSTAT_URL).value


def test_dataset_name_is_the_lowercased_identifier():
    assert dataset_name("7708234640-OKVEDva") == "7708234640-okvedva"


def test_dataset_name_of_a_cyrillic_identifier_is_a_stable_digest():
    assert dataset_name("Реестр") == dataset_name("Реестр")
    assert dataset_name("Реестр").startswith("mr-")


def test_dataset_name_is_cut_to_ckans_limit_without_collisions():
    long_a, long_b = "7708234640-" + "a" * 200, "7708234640-" + "a" * 199 + "b"
    assert len(dataset_name(long_a)) <= 100
    assert dataset_name(long_a) != dataset_name(long_b)


def test_tag_names_drop_forbidden_characters_and_duplicates():
    assert tag_names(["ОКВЭД; классификатор", "классификатор", "a", "Классификатор"]) == [
        "ОКВЭД классификатор",
        "классификатор",
    ]


def test_harvested_passport_fills_catalog_and_mr_fields(rosstat):
    dataset = passport_to_dataset(rosstat, conformance=85)
    assert dataset["name"] == "7708234640-okvedva"
    assert dataset["mr_identifier"] == "7708234640-okvedva"
    assert dataset["publisher_id"] == "7708234640"
    assert dataset["publisher_id_scheme"] == "inn"
    assert dataset["publisher_name"] == "Федеральная служба государственной статистики"
    assert dataset["maintainer_email"] == "apatovaip@rosstat.gov.ru"
    assert dataset["mr_publisher_phone"] == "+7 (495) 568-00-42 доб. 99732"
    assert dataset["mr_created"] == "2018-09-05"
    assert dataset["mr_conformance"] == 85
    assert [t["name"] for t in dataset["tags"]] == ["Классификатор", "вид экономической деятельности"]


def test_each_data_and_structure_version_becomes_a_typed_resource(rosstat):
    resources = passport_to_dataset(rosstat)["resources"]
    data = [r for r in resources if r["resource_type"] == "data"]
    structures = [r for r in resources if r["resource_type"] == "structure"]
    assert len(data) == len(rosstat.data_versions) and len(structures) == len(rosstat.structure_versions)
    assert data[0]["mr_version"] == "20251101T1411"
    assert data[0]["mr_structure_version"] == "20180402T1704"
    assert data[0]["mr_created"] == "2025-11-01T14:11:00"
    assert structures[0]["mr_version"] == "20180402T1704"


def test_identifier_without_valid_inn_leaves_provider_identifier_empty(rosstat):
    rosstat.identifier = "1234567890-bad"
    assert "publisher_id" not in passport_to_dataset(rosstat)


def test_dataset_maps_back_to_the_same_passport_facts(rosstat):
    back = dataset_to_passport(passport_to_dataset(rosstat))
    assert back.identifier == rosstat.identifier
    assert back.title == rosstat.title
    assert back.creator == rosstat.creator
    assert back.publisher == rosstat.publisher
    assert back.created.value == rosstat.created.value
    assert [(v.version, v.structure_version, v.source) for v in back.data_versions] == [
        (v.version, v.structure_version, v.source) for v in rosstat.data_versions
    ]
    assert [s.version for s in back.structure_versions] == [s.version for s in rosstat.structure_versions]


def test_portal_dataset_gets_identifier_from_publisher_id_and_name():
    assert identifier_for({"name": "school-list_2024", "publisher_id": "7708234640"}) == "7708234640-schoollist2024"


def test_dataset_without_publisher_name_is_created_by_its_organization():
    dataset = {"name": "x", "organization": {"title": "Департамент транспорта"}}
    assert dataset_to_passport(dataset).creator == "Департамент транспорта"
    assert dataset_to_passport({**dataset, "publisher_name": "Finance department"}).creator == "Finance department"


PORTAL_SAVED = {
    "name": "skoly",
    "author": "jnovak",
    "author_email": "jan.novak@example.cz",
    "organization": {"title": "Ministerstvo školství"},
}


def test_a_portal_records_publisher_is_never_the_login_of_whoever_saved_it():
    publisher = dataset_to_passport(PORTAL_SAVED).publisher
    assert publisher.name == "Ministerstvo školství"
    assert publisher.mbox == ""


def test_the_publisher_is_the_records_contact_else_its_provider():
    provider = {**PORTAL_SAVED, "publisher_name": "MŠMT", "publisher_email": "posta@msmt.cz"}
    assert (dataset_to_passport(provider).publisher.name, dataset_to_passport(provider).publisher.mbox) == (
        "MŠMT", "posta@msmt.cz"
    )
    contact = {**provider, "maintainer": "Jana Dvořáková", "maintainer_email": "dvorakova@msmt.cz"}
    assert (dataset_to_passport(contact).publisher.name, dataset_to_passport(contact).publisher.mbox) == (
        "Jana Dvořáková", "dvorakova@msmt.cz"
    )


def test_portal_dataset_version_comes_from_resource_date():
    passport = dataset_to_passport(
        {"name": "x", "resources": [{"url": "http://e/x.csv", "format": "CSV", "last_modified": "2024-03-05T10:20:00"}]}
    )
    assert passport.data_versions[0].version == "20240305T1020"
    assert passport.data_versions[0].format == "csv"


def test_publish_options_rewrite_version_links_to_permanent_ones(rosstat):
    options = PublishOptions(data_link=lambda ident, v: f"/opendata/{ident}/data-{v.version}.csv")
    passport = dataset_to_passport(passport_to_dataset(rosstat), options)
    assert passport.data_versions[0].source == "/opendata/7708234640-okvedva/data-20251101T1411.csv"


def test_reharvest_keeps_curator_fields_and_fields_the_source_left_empty(rosstat):
    existing = passport_to_dataset(rosstat) | {"eurovoc": ["http://eurovoc.europa.eu/100142"], "mr_periodicity": "ежегодно"}
    merged = MR.merge_harvested(existing, passport_to_dataset(rosstat))
    assert merged["eurovoc"] == ["http://eurovoc.europa.eu/100142"]
    assert merged["mr_periodicity"] == "ежегодно"


def test_unchanged_passport_is_not_a_difference(rosstat):
    stored = passport_to_dataset(rosstat)
    assert not MR.harvested_differs(stored, passport_to_dataset(rosstat))


def test_resource_formats_stored_in_ckans_spelling_are_not_a_difference(rosstat):
    stored = passport_to_dataset(rosstat)
    for resource in stored["resources"]:
        resource["format"] = resource["format"].upper()
    assert not MR.harvested_differs(stored, passport_to_dataset(rosstat))


def test_changed_title_is_a_difference(rosstat):
    stored = passport_to_dataset(rosstat)
    rosstat.title = "Новое название"
    assert MR.harvested_differs(stored, passport_to_dataset(rosstat))


def test_comparable_ignores_tag_order():
    assert MR.comparable({"tags": [{"name": "b"}, {"name": "a"}]}) == MR.comparable({"tags": ["a", "b"]})


def test_dates_not_understood_are_kept_as_published(rosstat):
    rosstat.created = rosstat.created.__class__(text="весна 2015", value=None)
    assert passport_to_dataset(rosstat)["mr_created"] == "весна 2015"
    assert isinstance(rosstat.modified.value, dt.date)


def test_the_registry_entrys_identifier_names_the_record_when_the_passport_disagrees(rosstat):
    dataset = passport_to_dataset(rosstat, registry_identifier="7708234640-okved2")
    assert (dataset["name"], dataset["mr_identifier"]) == ("7708234640-okved2", "7708234640-okved2")


def test_without_a_registry_identifier_the_passports_own_names_the_record(rosstat):
    assert passport_to_dataset(rosstat)["mr_identifier"] == rosstat.identifier


def _curated(rosstat) -> dict:
    """A stored record as a curator left it: resources with ids and curator fields, a Czech record language."""
    czech = {
        "record_language": "cs", "publisher_id": "00025593", "publisher_id_scheme": "ico", "publisher_name": "ČSÚ",
        "accrual_periodicity": "MONTHLY",
    }
    stored = passport_to_dataset(rosstat) | czech
    for number, resource in enumerate(stored["resources"]):
        resource.update(id=f"resource-{number}", description=f"popis {number}", mimetype="text/csv")
    return stored


def test_reharvest_never_writes_the_first_harvests_fields(rosstat):
    stored = _curated(rosstat)
    merged = MR.merge_harvested(stored, passport_to_dataset(rosstat))
    assert {k: merged[k] for k in MR.fields(MR.dataset_owners, FIRST_HARVEST)} == {
        k: stored[k] for k in MR.fields(MR.dataset_owners, FIRST_HARVEST)
    }


def test_a_first_harvest_field_the_curator_changed_is_not_a_difference(rosstat):
    assert not MR.harvested_differs(_curated(rosstat), passport_to_dataset(rosstat))


def test_reharvested_versions_keep_their_ids_and_curator_fields(rosstat):
    stored = _curated(rosstat)
    rosstat.data_versions[0].source = "https://rosstat.gov.ru/opendata/7708234640-okvedva/data-new.csv"
    merged = MR.merge_harvested(stored, passport_to_dataset(rosstat))
    assert [(r["id"], r["description"], r["mimetype"]) for r in merged["resources"]] == [
        (r["id"], r["description"], r["mimetype"]) for r in stored["resources"]
    ]
    assert merged["resources"][0]["url"].endswith("data-new.csv")


def test_a_version_no_longer_listed_is_removed_and_a_new_one_added(rosstat):
    stored = _curated(rosstat)
    dropped = rosstat.data_versions.pop()
    rosstat.data_versions.insert(0, replace(dropped, version="20260101T0000"))
    merged = MR.merge_harvested(stored, passport_to_dataset(rosstat))
    versions = [(r["resource_type"], r["mr_version"]) for r in merged["resources"]]
    assert ("data", dropped.version) not in versions
    assert versions[0] == ("data", "20260101T0000") and "id" not in merged["resources"][0]
    assert len(merged["resources"]) == len(stored["resources"])


def test_a_resource_the_curator_added_is_kept(rosstat):
    stored = _curated(rosstat)
    stored["resources"].append({"id": "methodology", "url": "https://example.cz/metodika.pdf", "format": "PDF"})
    merged = MR.merge_harvested(stored, passport_to_dataset(rosstat))
    assert merged["resources"][-1] == stored["resources"][-1]
    assert not MR.harvested_differs(stored, passport_to_dataset(rosstat))


# --- the MR periodicity text as an EU frequency -------------------------------------------------------------


@pytest.mark.parametrize(
    "text, code",
    [
        ("по мере изменений", "IRREG"),  # meteorf-terorg/meta.csv, the only periodicity the real fixtures carry
        ("По мере изменений.", "IRREG"),
        ("по мере необходимости", "IRREG"),
        ("по мере поступления данных", "IRREG"),
        ("Ежегодно", "ANNUAL"),
        ("раз в год", "ANNUAL"),
        ("1 раз в год", "ANNUAL"),
        ("ежегодно, до 1 апреля", "ANNUAL"),
        ("ЕЖЕКВАРТАЛЬНО", "QUARTERLY"),
        ("ежемесячно", "MONTHLY"),
        ("еженедельно", "WEEKLY"),
        ("ежедневно", "DAILY"),
        ("раз в полгода", "ANNUAL_2"),
        ("Раз в полугодие", "ANNUAL_2"),
        ("раз в 2 года", "BIENNIAL"),
        ("не обновляется", "NEVER"),
        ("Не актуализируется!", "NEVER"),
        ("в режиме реального времени", "UPDATE_CONT"),
        ("  Ежедневно. ", "DAILY"),
    ],
)
def test_a_recognisable_periodicity_text_is_an_eu_frequency(text, code):
    assert periodicity_code(text) == code


@pytest.mark.parametrize("text", ["", "по запросу", "раз в годовой отчёт", "annual", "ежегодновато"])
def test_an_unrecognised_periodicity_text_has_no_frequency(text):
    assert periodicity_code(text) == ""


def test_the_real_passports_periodicity_becomes_the_records_frequency(read_real):
    passport = parse_passport(read_real("meteorf-terorg/meta.csv"), TERORG_URL).value
    dataset = passport_to_dataset(passport)
    assert (dataset["mr_periodicity"], dataset["accrual_periodicity"]) == ("по мере изменений", "IRREG")


def test_a_passport_without_a_recognisable_periodicity_writes_no_frequency(rosstat):
    assert "accrual_periodicity" not in passport_to_dataset(rosstat)
    assert "accrual_periodicity" not in passport_to_dataset(replace(rosstat, periodicity="по запросу"))


def test_a_reharvest_keeps_the_curators_frequency(read_real):
    passport = parse_passport(read_real("meteorf-terorg/meta.csv"), TERORG_URL).value
    stored = passport_to_dataset(passport) | {"accrual_periodicity": "ANNUAL"}
    changed = passport_to_dataset(replace(passport, periodicity="ежемесячно"))
    merged = MR.merge_harvested(stored, changed)
    assert (merged["mr_periodicity"], merged["accrual_periodicity"]) == ("ежемесячно", "ANNUAL")
