"""A harvested record's MR identity survives every edit path but a harvest's and a sysadmin's explicit value.

The record is stored as a harvest stores it (tests/support/harvested_records.py); a curator (editor of its organization)
then edits it through the API and through the dataset and resource forms.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.browser_forms import DATASET_FORM, RESOURCE_FORM, browser_post
from tests.support.harvested_records import IDENTIFIER, LATEST_DATA_VERSION, STRUCTURE_VERSION, resource_of
from tests.support.factories import HarvestedRecord

from tests.support.catalog_records import ALL_CONDITIONS_MET, EUROVOC_ECONOMICS
from ckanext.passport.catalog.ownership import MR, MR_IDENTITY
from ckanext.passport.catalog.record.harvested_fields import VALIDATOR
from ckanext.passport.lkod.ownership import LKOD

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    # Exports are read as an anonymous visitor: without review every record is public.
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

DATASET_IDENTITY = MR.fields(MR.dataset_owners, MR_IDENTITY)
RESOURCE_IDENTITY = MR.fields(MR.resource_owners, MR_IDENTITY)
# What a passport cannot carry and the curator adds to a harvested record.
CURATOR_PART = {
    "record_validity": "valid",
    "publisher_email": "info@rosstat.gov.ru",
    "openness_conditions": ALL_CONDITIONS_MET,
    "eurovoc": [{"uri": EUROVOC_ECONOMICS}],
}


def identity(dataset: dict[str, Any]) -> dict[str, Any]:
    """The MR identity of a dataset and of each of its resources (by id), as package_show gives it."""
    return {
        "dataset": {name: dataset.get(name) for name in DATASET_IDENTITY},
        "resources": {r["id"]: {name: r.get(name) for name in RESOURCE_IDENTITY} for r in dataset["resources"]},
    }


def as_user(user: dict, action: str, **data: Any) -> Any:
    """An action as ``user`` with authorization checked, as the API runs it."""
    return call_action(action, {"user": user["name"], "ignore_auth": False}, **data)


def shown(dataset_id: str) -> dict[str, Any]:
    return call_action("package_show", id=dataset_id)


@pytest.fixture
def curator() -> dict:
    return factories.User()


@pytest.fixture
def harvested(curator) -> dict:
    """The harvested record, completed by its curator (the API refuses an incomplete record's resource edits)."""
    org = factories.Organization(name="rosstat", users=[{"name": curator["name"], "capacity": "editor"}])
    record = HarvestedRecord(owner_org=org["id"])
    as_user(curator, "package_patch", id=record["id"], **CURATOR_PART)
    return shown(record["id"])


def test_every_mr_identity_field_and_the_lkod_iri_are_guarded_first():
    schema = call_action("scheming_dataset_schema_show", type="dataset")
    for fields, names, lkod_table in (
        (schema["dataset_fields"], DATASET_IDENTITY, LKOD.dataset_owners),
        (schema["resource_fields"], RESOURCE_IDENTITY, LKOD.resource_owners),
    ):
        guarded = {f["field_name"] for f in fields if f.get("validators", "").split()[:1] == [VALIDATOR]}
        assert guarded == set(names) | set(LKOD.fields(lkod_table, MR_IDENTITY))


def test_completing_a_harvested_record_keeps_its_mr_identity(curator):
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = HarvestedRecord(owner_org=org["id"])
    as_user(curator, "package_patch", id=record["id"], **CURATOR_PART)
    assert identity(shown(record["id"])) == identity(record)


def test_package_update_by_a_curator_keeps_the_mr_identity_it_omits(curator, harvested):
    sent = {k: v for k, v in harvested.items() if k not in DATASET_IDENTITY}
    sent["resources"] = [{k: v for k, v in r.items() if k not in RESOURCE_IDENTITY} for r in harvested["resources"]]
    as_user(curator, "package_update", **sent)
    assert identity(shown(harvested["id"])) == identity(harvested)


def test_package_update_by_a_curator_keeps_the_mr_identity_it_changes(curator, harvested):
    sent = {**harvested, **{name: "changed" for name in DATASET_IDENTITY}}
    sent["resources"] = [{**r, **{name: "changed" for name in RESOURCE_IDENTITY}} for r in harvested["resources"]]
    as_user(curator, "package_update", **sent)
    assert identity(shown(harvested["id"])) == identity(harvested)


def test_package_patch_by_a_curator_keeps_the_mr_identity(curator, harvested):
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    resources = [dict(r, resource_type="data", mr_version="1") if r["id"] == structure["id"] else r
                 for r in harvested["resources"]]
    as_user(curator, "package_patch", id=harvested["id"], mr_identifier="other-identifier", mr_created="",
            resources=resources)
    assert identity(shown(harvested["id"])) == identity(harvested)


def test_resource_update_by_a_curator_keeps_the_resource_mr_identity(curator, harvested):
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    as_user(curator, "resource_update", id=structure["id"], url=structure["url"], description="Struktura OKVED2")
    after = shown(harvested["id"])
    assert identity(after) == identity(harvested)
    assert resource_of(after, "structure", STRUCTURE_VERSION)["description"] == "Struktura OKVED2"


def test_resource_patch_by_a_curator_keeps_the_resource_mr_identity(curator, harvested):
    data = resource_of(harvested, "data", LATEST_DATA_VERSION)
    as_user(curator, "resource_patch", id=data["id"], resource_type="structure", mr_structure_version="",
            description="Data OKVED2")
    assert identity(shown(harvested["id"])) == identity(harvested)


def test_a_curators_new_resource_has_no_mr_identity(curator, harvested):
    created = as_user(curator, "resource_create", package_id=harvested["id"], url="https://example.ru/okved2.pdf",
                      name="Příručka")
    assert not any(created.get(name) for name in RESOURCE_IDENTITY)
    assert identity(shown(harvested["id"]))["resources"].items() >= identity(harvested)["resources"].items()


def test_a_sysadmin_sets_the_mr_identity_explicitly(harvested):
    sysadmin = factories.Sysadmin()
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    as_user(sysadmin, "package_patch", id=harvested["id"], mr_created="2019-01-01")
    as_user(sysadmin, "resource_patch", id=structure["id"], mr_version="20190101T0000")
    after = shown(harvested["id"])
    assert after["mr_created"] == "2019-01-01"
    assert resource_of(after, "structure", "20190101T0000")["id"] == structure["id"]


def test_a_sysadmin_omitting_the_mr_identity_keeps_it(harvested):
    sysadmin = factories.Sysadmin()
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    as_user(sysadmin, "resource_update", id=structure["id"], url=structure["url"], description="Struktura")
    sent = {k: v for k, v in shown(harvested["id"]).items() if k not in DATASET_IDENTITY}
    as_user(sysadmin, "package_update", **sent)
    assert identity(shown(harvested["id"])) == identity(harvested)


def test_an_edit_asks_once_whether_its_user_is_a_sysadmin_however_many_identity_fields_it_sends(
        harvested, monkeypatch):
    import ckan.authz as authz

    asked = []
    is_sysadmin = authz.is_sysadmin
    monkeypatch.setattr(authz, "is_sysadmin", lambda user: asked.append(user) or is_sysadmin(user))
    sysadmin = factories.Sysadmin()
    sent = shown(harvested["id"])
    # Each part changed: CKAN 2.12 validates neither a dataset nor a resource sent as stored.
    sent["notes"] = "Upraveno"
    for resource in sent["resources"]:
        resource["description"] = "Upraveno"
    as_user(sysadmin, "package_update", **sent)
    assert len(DATASET_IDENTITY) + len(RESOURCE_IDENTITY) * len(sent["resources"]) > 10
    assert asked.count(sysadmin["name"]) == 1


def test_a_harvest_writes_the_mr_identity(harvested):
    context = {"user": factories.Sysadmin()["name"], "passport_harvest": True}
    call_action("package_patch", context, id=harvested["id"], mr_modified="2026-01-01")
    assert shown(harvested["id"])["mr_modified"] == "2026-01-01"


def _curator_headers(curator: dict) -> dict[str, str]:
    return {"Authorization": factories.APIToken(user=curator["name"])["token"]}


def save_dataset_form(app, curator: dict, dataset: dict, **changes: str) -> None:
    headers = _curator_headers(curator)
    page = app.get(f"/dataset/edit/{dataset['name']}", headers=headers).body
    response = app.post(f"/dataset/edit/{dataset['name']}", data=browser_post(page, DATASET_FORM, changes.items()),
                        headers=headers, follow_redirects=False)
    assert response.status_code == 302, response.body


def save_resource_form(app, curator: dict, dataset: dict, resource: dict, **changes: str) -> None:
    headers = _curator_headers(curator)
    path = f"/dataset/{dataset['name']}/resource/{resource['id']}/edit"
    page = app.get(path, headers=headers).body
    response = app.post(path, data=browser_post(page, RESOURCE_FORM, changes.items()), headers=headers,
                        follow_redirects=False)
    assert response.status_code == 302, response.body


def test_saving_the_dataset_form_keeps_the_mr_identity(web, curator, harvested):
    save_dataset_form(web, curator, harvested, title="OKVED2 (klasifikace)")
    after = shown(harvested["id"])
    assert after["title"] == "OKVED2 (klasifikace)"
    assert identity(after) == identity(harvested)


def test_saving_a_structure_resource_form_keeps_its_mr_identity(web, curator, harvested):
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    save_resource_form(web, curator, harvested, structure, description="Popis struktury")
    after = shown(harvested["id"])
    assert resource_of(after, "structure", STRUCTURE_VERSION)["description"] == "Popis struktury"
    assert identity(after) == identity(harvested)


def test_the_mr_passport_lists_data_and_structure_after_form_edits(web, curator, harvested):
    save_dataset_form(web, curator, harvested, notes="Klasifikace ekonomických činností")
    save_resource_form(web, curator, harvested, resource_of(harvested, "structure", STRUCTURE_VERSION),
                       description="Popis struktury")
    save_resource_form(web, curator, harvested, resource_of(harvested, "data", LATEST_DATA_VERSION),
                       description="Data")
    document = json.loads(web.get(f"/opendata/{IDENTIFIER}/meta.json").data)
    data_links = [item["source"].rsplit("/", 1)[1] for item in document["data"]]
    structure_links = [item["source"].rsplit("/", 1)[1] for item in document["structure"]]
    assert document["identifier"] == IDENTIFIER
    assert f"data-{LATEST_DATA_VERSION}-structure-{STRUCTURE_VERSION}.csv" in data_links
    assert structure_links == [f"structure-{STRUCTURE_VERSION}.csv"]
    assert len(data_links) == len([r for r in harvested["resources"] if r["resource_type"] == "data"])
