"""The record's national-catalog (DCAT-AP-CZ) fields and conditions of use: saved, read back, checked."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckan.logic import ValidationError

from tests.support.catalog_records import complete_record, complete_resource

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

LKOD_FIELDS = {
    "data_themes": ["TRAN", "REGI"],
    "accrual_periodicity": "ANNUAL",
    "temporal_start": "2020-01-01",
    "temporal_end": "2024-12-31",
    "documentation_url": "https://data.example.cz/dokumentace",
    "hvd_category": "http://data.europa.eu/bna/c_1e787364",
    "use_author_work": "cc-by-4.0",
    "use_author": "Český statistický úřad",
    "use_database_work": "not-copyright-database",
    "use_database_right": "cc0",
    "use_personal_data": "no-personal-data",
}
RESOURCE_CONDITIONS = {"use_personal_data": "contains-personal-data", "use_database_work": "cc-by-4.0",
                       "use_database_author": "Odbor statistiky"}


@pytest.fixture
def curator() -> dict:
    return factories.User()


@pytest.fixture
def org(curator) -> dict:
    return factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])


def create(curator: dict, org: dict, **fields) -> dict:
    record = complete_record(owner_org=org["id"], **fields)
    call_action("package_create", {"user": curator["name"]}, **record)
    return call_action("package_show", id=record["name"])


def errors_of(curator: dict, org: dict, **fields) -> dict:
    with pytest.raises(ValidationError) as raised:
        create(curator, org, **fields)
    return raised.value.error_dict


def test_national_catalog_fields_round_trip(curator, org):
    created = create(curator, org, **LKOD_FIELDS)
    assert {name: created[name] for name in LKOD_FIELDS} == LKOD_FIELDS


def test_a_resource_keeps_its_own_conditions_of_use(curator, org):
    created = create(curator, org, resources=[complete_resource(**RESOURCE_CONDITIONS)])
    resource = created["resources"][0]
    assert {name: resource.get(name) for name in RESOURCE_CONDITIONS} == RESOURCE_CONDITIONS
    assert "use_author_work" not in resource  # blank on a resource: the dataset's value holds


def test_the_data_themes_are_stored_as_a_list_of_codes(curator, org):
    assert create(curator, org, data_themes="SOCI")["data_themes"] == ["SOCI"]


def test_blank_national_catalog_fields_are_not_stored(curator, org):
    created = create(curator, org, accrual_periodicity="", temporal_start="", hvd_category="", use_author_work="")
    assert not {"accrual_periodicity", "temporal_start", "hvd_category", "use_author_work"} & set(created)


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("data_themes", ["TRAN", "CARS"], "Unknown EU data theme: CARS"),
        ("accrual_periodicity", "YEARLY", "Unknown EU frequency: YEARLY"),
        ("temporal_start", "2024-02-30", "A date is expected as YYYY-MM-DD, e.g. 2024-01-31"),
        ("temporal_end", "31.12.2024", "A date is expected as YYYY-MM-DD, e.g. 2024-01-31"),
        ("hvd_category", "http://data.europa.eu/bna/geospatial", "An HVD category is an IRI like"),
        ("hvd_category", "http://data.europa.eu/bna/c_b79e35eb", "This is a top-level HVD category"),  # mobility
        ("documentation_url", "ftp://data.example.cz/doc", "The address must start with http:// or https://"),
    ],
)
def test_an_unknown_or_malformed_value_is_refused_on_its_field(curator, org, field, value, message):
    errors = errors_of(curator, org, **{field: value})
    assert list(errors) == [field]
    assert errors[field][0].startswith(message)


@pytest.mark.parametrize("field", ["use_author_work", "use_database_work", "use_database_right", "use_personal_data"])
def test_a_condition_of_use_outside_its_choices_is_refused(curator, org, field):
    assert list(errors_of(curator, org, **{field: "public-domain"})) == [field]


def test_a_resource_condition_outside_its_choices_is_refused(curator, org):
    errors = errors_of(curator, org, resources=[complete_resource(use_personal_data="maybe")])
    assert "use_personal_data" in errors["resources"][0]


def test_a_time_coverage_ending_before_it_starts_is_refused_on_its_end(curator, org):
    errors = errors_of(curator, org, temporal_start="2024-06-01", temporal_end="2024-05-31")
    assert errors == {"temporal_end": ["The time coverage ends before it starts"]}


def test_a_time_coverage_of_one_day_is_accepted(curator, org):
    created = create(curator, org, temporal_start="2024-06-01", temporal_end="2024-06-01")
    assert (created["temporal_start"], created["temporal_end"]) == ("2024-06-01", "2024-06-01")


def test_the_lkod_iri_survives_a_curators_edit(curator, org):
    iri = "https://lkod.example.cz/lkod/dataset/42"
    record = complete_record(owner_org=org["id"], lkod_iri=iri)
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **record)
    call_action("package_patch", {"user": curator["name"]}, id=record["name"], lkod_iri="https://elsewhere.example/1")
    assert call_action("package_show", id=record["name"])["lkod_iri"] == iri
