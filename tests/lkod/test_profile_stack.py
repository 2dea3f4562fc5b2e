"""A record created through the catalog schema (the real stack) gives a valid LKOD document that reads back."""
from __future__ import annotations

import json

import ckan.plugins.toolkit as tk
import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.dcat.processors import RDFParser
from tests.support.lkod_records import HVD_CATEGORY, SITE_URL, lkod_fields, lkod_record
from tests.support.schema_registry import errors

from ckanext.passport.lkod import jsonld
from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.eligibility import reasons

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


@pytest.fixture
def shown(monkeypatch) -> dict:
    """package_show of an HVD record created by a curator of its organization (a draft, as created)."""
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)
    curator = factories.User()
    organization = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = lkod_record(owner_org=organization["id"], hvd_category=HVD_CATEGORY)
    for key in ("id", "editorial_state", "private"):
        record.pop(key)
    for resource in record["resources"]:
        resource.pop("id")
    created = call_action("package_create", {"user": curator["name"]}, **record)
    return call_action("package_show", {"user": curator["name"]}, id=created["id"])


def test_the_document_of_a_stored_record_validates_against_the_hvd_schema(shown):
    assert errors("datová-sada-hvd.json", jsonld.dataset_document(shown)) == []


def test_the_document_of_a_stored_record_reads_back_as_its_lkod_fields(shown):
    parser = RDFParser(profiles=["dcat_ap_cz"])
    parser.g = parse_jsonld(json.dumps(jsonld.dataset_document(shown)))
    (dataset,) = parser.datasets()
    assert dataset == lkod_fields(shown)


def test_a_stored_draft_is_left_out_only_for_being_unpublished(shown):
    assert [(problem.code, problem.params) for problem in reasons(shown)] == [("lkod.unpublished", {"state": "draft"})]
