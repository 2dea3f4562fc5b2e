"""Records of every kind the LKOD meets, for the /lkod/ view tests: one eligible, one left out per reason.

Built like tests/support/catalog_records.py (the Czech record the catalog schema requires) with the LKOD fields; made
by a sysadmin, whom the site lets give a new record the state ``published`` (``LKOD_CONFIG``).
"""
from __future__ import annotations

from typing import Any

import pytest
from tests.support.catalog_records import ROSSTAT_INN, complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action

# Every /lkod/ view test runs on the real stack with the site's publication options, on a clean database and index.
LKOD_CONFIG = (
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    pytest.mark.ckan_config("ckanext.passport.initial_states", "published"),
)
# The same for a module whose tests only read what it made: one clean database and index for the whole module.
LKOD_CONFIG_READ_ONLY = (
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "stack_once"),
    pytest.mark.ckan_config("ckanext.passport.initial_states", "published"),
)
SITE = "http://test.ckan.net"
CATALOG_URL = f"{SITE}/lkod/catalog"
CONTEXT_URL = (
    "https://ofn.gov.cz/dcat-ap-cz-rozhraní-katalogů-otevřených-dat/2024-05-28/kontexty/"
    "rozhraní-katalogů-otevřených-dat.jsonld"
)

LKOD_FIELDS: dict[str, Any] = {
    "data_themes": ["SOCI", "REGI"],
    "accrual_periodicity": "ANNUAL",
    "temporal_start": "2024-01-01",
    "temporal_end": "2024-12-31",
    "documentation_url": "https://data.example.cz/dokumentace/obyvatelstvo",
    "use_author_work": "cc-by-4.0",
    "use_author": "Český statistický úřad",
    "use_database_work": "not-copyright-database",
    "use_database_right": "not-protected",
    "use_personal_data": "no-personal-data",
}


def lkod_record(name: str, **overrides: Any) -> dict[str, Any]:
    """A published Czech record with every LKOD field: eligible unless ``overrides`` say otherwise."""
    record = complete_record(name=name, title=f"Záznam {name}", editorial_state="published", **LKOD_FIELDS)
    record.update(overrides)
    return record


# name -> what makes the record what it is; only "eligible" is in the catalog.
KINDS: dict[str, dict[str, Any]] = {
    "eligible": {},
    "draft": {"editorial_state": "draft"},
    "private": {"private": True},
    "inn-publisher": {"publisher_id_scheme": "inn", "publisher_id": ROSSTAT_INN,
                      "publisher_name": "Росстат"},
    "no-themes": {"data_themes": []},
}
LEFT_OUT = [name for name in KINDS if name != "eligible"]


def create(org: dict[str, Any], user: dict[str, Any], name: str, **overrides: Any) -> dict[str, Any]:
    record = lkod_record(name, owner_org=org["id"], **{**KINDS.get(name, {}), **overrides})
    call_action("package_create", {"user": user["name"]}, **record)
    return call_action("package_show", {"user": user["name"]}, id=name)


def every_kind() -> dict[str, dict[str, Any]]:
    """One record of every kind (the eligible one and one left out for each reason) in a new organization, by a new
    sysadmin: for a module whose tests only read them (``built_once``)."""
    org, sysadmin = factories.Organization(), factories.Sysadmin()
    return {name: create(org, sysadmin, name) for name in KINDS}


def token(user: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}
