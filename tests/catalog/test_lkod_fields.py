"""The record's national-catalog (DCAT-AP-CZ) fields and conditions of use: saved, read back, checked."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckan.logic import ValidationError

from catalog_records import complete_record, complete_resource

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("with_plugins", "clean_db", "clean_index")]

LKOD_FIELDS = {
    "data_themes": ["TRAN", "REGI"],
    "accrual_periodicity": "ANNUAL",
    "temporal_start": "2020-01-01",
    "temporal_end": "2024-12-31",
    "documentation_url": "https://data.example.cz/dokumentace",
    "hvd_category": "http://data.europa.eu/bna/c_dd313021",
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
