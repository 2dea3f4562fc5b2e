"""``/lkod/catalog`` as records join it: from an empty catalog, through pages of the index, to a changed ETag.

Each test starts from an empty catalog (a clean database and index) and adds or changes records;
test_views_catalog.py reads one set of records made once.
"""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.lkod_view_records import KINDS, LKOD_CONFIG, SITE, create, every_kind

from ckanext.passport.publish import search

pytestmark = list(LKOD_CONFIG)


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


@pytest.fixture
def org():
    return factories.Organization()


@pytest.fixture
def records() -> dict[str, dict]:
    return every_kind()


def dataset_iri(record: dict) -> str:
    return f"{SITE}/lkod/dataset/{record['id']}"


def test_an_empty_catalog_still_lists_its_datasets_as_an_empty_list(web):
    assert json.loads(web.get("/lkod/catalog").data)["datová_sada"] == []


def test_the_catalog_is_paged_through_the_index_whole(web, org, sysadmin, monkeypatch):
    made = [create(org, sysadmin, f"eligible-{number}", **KINDS["eligible"]) for number in range(5)]
    monkeypatch.setattr(search, "PAGE_ROWS", 2)

    document = json.loads(web.get("/lkod/catalog").data)

    assert document["datová_sada"] == [dataset_iri(record) for record in made]


def test_a_record_joining_the_catalog_changes_its_etag(web, records, sysadmin):
    before = web.get("/lkod/catalog").headers["ETag"]

    call_action("package_patch", {"user": sysadmin["name"]}, id=records["no-themes"]["id"], data_themes=["SOCI"])

    after = web.get("/lkod/catalog", headers={"If-None-Match": before})
    assert after.status_code == 200
    assert dataset_iri(records["no-themes"]) in json.loads(after.data)["datová_sada"]
