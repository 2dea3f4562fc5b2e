"""The ownership engine on its own: each rule of catalog/ownership.py, for the MR and the LKOD instance."""
from __future__ import annotations

import pytest

from ckanext.passport.catalog.ownership import FIRST_HARVEST, MR, MR_IDENTITY, Ownership, fact
from ckanext.passport.lkod.ownership import LKOD

VERSION = {"resource_type": "data", "mr_version": "20250101", "url": "https://a.example/old.csv", "format": "csv"}
DISTRIBUTION = {"lkod_iri": "https://lkod.example/d/1", "url": "https://lkod.example/old.csv", "format": "CSV"}


def test_mr_keeps_the_curators_text_where_the_passport_is_empty():
    merged = MR.merge_harvested({"notes": "popis kurátora"}, {"notes": ""})
    assert merged["notes"] == "popis kurátora"


def test_mr_writes_an_empty_value_over_an_empty_one():
    assert MR.merge_harvested({"notes": None}, {"notes": ""})["notes"] == ""


def test_lkod_clears_what_the_source_no_longer_states():
    assert LKOD.merge_harvested({"notes": "popis kurátora"}, {"notes": ""})["notes"] == ""


def test_the_empty_value_rule_is_a_parameter_of_each_kind():
    assert (MR.empty_harvested_value_keeps_curator_text, LKOD.empty_harvested_value_keeps_curator_text) == (True, False)


@pytest.mark.parametrize("ownership", [MR, LKOD], ids=["MR", "LKOD"])
def test_a_field_no_table_names_stays_the_curators(ownership: Ownership):
    merged = ownership.merge_harvested({"openness_conditions": {"free": "yes"}}, {"openness_conditions": {}})
    assert merged["openness_conditions"] == {"free": "yes"}


def test_mr_never_rewrites_a_first_harvest_field():
    assert MR.merge_harvested({"publisher_id": "00025593"}, {"publisher_id": "7708234640"})["publisher_id"] == "00025593"


def test_lkod_has_no_first_harvest_fields():
    assert LKOD.fields(LKOD.dataset_owners, FIRST_HARVEST) == ()


def test_a_first_harvest_field_changed_is_no_difference():
    stored = {"title": "Název", "publisher_name": "ČSÚ", "resources": []}
    assert not MR.harvested_differs(stored, dict(stored, publisher_name="Росстат"))


def test_a_reharvested_field_changed_is_a_difference():
    stored = {"title": "Název", "resources": []}
    assert LKOD.harvested_differs(stored, dict(stored, title="Nový název"))


def test_mr_matches_a_version_by_type_and_trimmed_version_keeping_its_id_and_curator_fields():
    stored = dict(VERSION, id="r1", description="popis")
    merged = MR.merge_resources([stored], [dict(VERSION, mr_version=" 20250101 ", url="https://a.example/new.csv")])
    assert [(r["id"], r["description"], r["url"]) for r in merged] == [("r1", "popis", "https://a.example/new.csv")]


def test_lkod_matches_a_distribution_by_its_iri_keeping_its_id_and_curator_fields():
    stored = dict(DISTRIBUTION, id="r1", description="popis")
    merged = LKOD.merge_resources([stored], [dict(DISTRIBUTION, url="https://lkod.example/new.csv")])
    assert [(r["id"], r["description"], r["url"]) for r in merged] == [("r1", "popis", "https://lkod.example/new.csv")]


@pytest.mark.parametrize("ownership, harvested", [(MR, VERSION), (LKOD, DISTRIBUTION)], ids=["MR", "LKOD"])
def test_a_resource_without_a_key_is_the_curators_and_kept_after_the_harvested_ones(ownership, harvested):
    added = {"id": "metodika", "url": "https://example.cz/metodika.pdf"}
    assert ownership.merge_resources([added], [harvested]) == [harvested, added]


@pytest.mark.parametrize("ownership, stored", [(MR, VERSION), (LKOD, DISTRIBUTION)], ids=["MR", "LKOD"])
def test_a_harvested_resource_no_longer_listed_is_dropped(ownership, stored):
    assert ownership.merge_resources([dict(stored, id="r1")], []) == []


def test_a_distribution_without_an_iri_is_added_as_new():
    stored = dict(DISTRIBUTION, lkod_iri="", id="r1")
    merged = LKOD.merge_resources([stored], [dict(DISTRIBUTION, lkod_iri="")])
    assert "id" not in merged[0] and merged[1] == stored


def test_each_stored_version_takes_at_most_one_harvested_version():
    merged = MR.merge_resources([dict(VERSION, id="r1")], [VERSION, VERSION])
    assert [r.get("id") for r in merged] == ["r1", None]


def test_harvested_part_keeps_only_owned_fields():
    parsed = {"title": "Název", "name": "nazev", "resources": [dict(DISTRIBUTION, id="x", size=3)]}
    assert LKOD.harvested_part(parsed) == {"title": "Název", "resources": [DISTRIBUTION]}


@pytest.mark.parametrize("values", [("", None, []), (87, "87"), ("csv", "CSV"), ({"b": 1, "a": 2}, {"a": 2, "b": 1})])
def test_values_compare_by_one_rule(values):
    assert len({fact("format", value) for value in values}) == 1


def test_text_other_than_a_format_compares_with_its_case():
    assert fact("title", "Obce") != fact("title", "obce")


def test_tags_compare_as_a_set_of_names():
    assert MR.comparable({"tags": [{"name": "b"}, {"name": "a"}]}) == MR.comparable({"tags": ["a", "b"]})


def test_the_edit_guard_keeps_the_mr_identity_of_an_mr_record():
    assert MR.fields(MR.dataset_owners, MR_IDENTITY)[0] == "mr_identifier"
    assert "mr_version" in MR.fields(MR.resource_owners, MR_IDENTITY)


def test_the_edit_guard_keeps_the_iris_of_an_lkod_record():
    assert LKOD.fields(LKOD.dataset_owners, MR_IDENTITY) == LKOD.fields(LKOD.resource_owners, MR_IDENTITY) == (
        "lkod_iri",
    )


@pytest.mark.parametrize(
    "harvesting, sent_by_sysadmin, writes", [(True, False, True), (False, True, True), (False, False, False)]
)
def test_only_a_harvest_or_a_sysadmins_value_writes_an_identity_field(harvesting, sent_by_sysadmin, writes):
    assert Ownership.edit_writes_identity(harvesting=harvesting, sent_by_sysadmin=sent_by_sysadmin) is writes
