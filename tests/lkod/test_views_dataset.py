"""``/lkod/dataset/<id>``: a listed record's full document at its IRI; what is not listed does not exist."""
from __future__ import annotations

import json

import pytest
import rdflib
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.schema_registry import errors
from tests.support.lkod_view_records import CONTEXT_URL, LKOD_CONFIG, SITE, create, token

pytestmark = list(LKOD_CONFIG)

DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


@pytest.fixture
def curator():
    return factories.User()


@pytest.fixture
def org(curator):
    return factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])


@pytest.fixture
def eligible(org, sysadmin):
    return create(org, sysadmin, "eligible")


def iri(record: dict) -> str:
    return f"{SITE}/lkod/dataset/{record['id']}"


def test_the_document_is_json_ld_rooted_at_the_dataset_iri(web, eligible):
    response = web.get(f"/lkod/dataset/{eligible['id']}")

    assert response.headers["Content-Type"].split(";")[0] == "application/ld+json"
    document = json.loads(response.data)
    assert document["@context"] == CONTEXT_URL
    assert document["iri"] == iri(eligible)


@pytest.mark.parametrize("query, headers", [("?format=ttl", {}), ("", {"Accept": "text/turtle"})],
                         ids=["format parameter", "accept header"])
def test_the_document_in_turtle(web, eligible, query, headers):
    response = web.get(f"/lkod/dataset/{eligible['id']}{query}", headers=headers)

    assert response.headers["Content-Type"].split(";")[0] == "text/turtle"
    graph = rdflib.Graph().parse(data=response.data, format="turtle")
    assert (rdflib.URIRef(iri(eligible)), rdflib.RDF.type, DCAT.Dataset) in graph


def test_a_renamed_record_keeps_its_iri(web, eligible, sysadmin):
    call_action("package_patch", {"user": sysadmin["name"]}, id=eligible["id"], name="prejmenovany-zaznam")

    response = web.get(f"/lkod/dataset/{eligible['id']}")

    assert response.status_code == 200
    assert json.loads(response.data)["iri"] == iri(eligible)


def test_a_record_is_found_by_its_id_only(web, eligible):
    assert web.get(f"/lkod/dataset/{eligible['name']}").status_code == 404


@pytest.mark.parametrize("kind", ["draft", "private", "inn-publisher", "no-themes"])
def test_a_record_left_out_does_not_exist_for_the_anonymous_reader(web, org, sysadmin, kind):
    record = create(org, sysadmin, kind)

    assert web.get(f"/lkod/dataset/{record['id']}").status_code == 404


def test_its_editors_may_preview_an_unpublished_record_uncached(web, org, sysadmin, curator):
    record = create(org, sysadmin, "draft")

    response = web.get(f"/lkod/dataset/{record['id']}", headers=token(curator))

    assert response.status_code == 200
    assert json.loads(response.data)["iri"] == iri(record)
    assert "no-store" in response.headers["Cache-Control"]


def test_a_signed_in_reader_who_may_not_edit_gets_no_preview(web, org, sysadmin):
    record = create(org, sysadmin, "draft")

    assert web.get(f"/lkod/dataset/{record['id']}", headers=token(factories.User())).status_code == 404


def test_a_distribution_iri_leads_to_its_dataset_document(web, eligible):
    resource = eligible["resources"][0]

    response = web.get(f"/lkod/dataset/{eligible['id']}/distribution/{resource['id']}", follow_redirects=False)

    assert response.status_code == 303
    assert response.headers["Location"] == iri(eligible)


def test_the_format_asked_of_a_distribution_iri_is_kept(web, eligible):
    resource = eligible["resources"][0]

    response = web.get(f"/lkod/dataset/{eligible['id']}/distribution/{resource['id']}?format=ttl",
                       follow_redirects=False)

    assert response.headers["Location"] == iri(eligible) + "?format=ttl"


def test_a_distribution_of_another_dataset_does_not_exist(web, eligible, org, sysadmin):
    other = create(org, sysadmin, "eligible-2")

    url = f"/lkod/dataset/{eligible['id']}/distribution/{other['resources'][0]['id']}"
    assert web.get(url, follow_redirects=False).status_code == 404


def test_the_same_document_is_not_sent_twice(web, eligible):
    first = web.get(f"/lkod/dataset/{eligible['id']}")

    again = web.get(f"/lkod/dataset/{eligible['id']}", headers={"If-None-Match": first.headers["ETag"]})

    assert again.status_code == 304
    assert first.headers["Last-Modified"]


@pytest.mark.ckan_config("ckan.site_url", "https://data.example.cz")
def test_the_served_document_validates_against_the_official_schema(web, eligible):
    document = json.loads(web.get(f"/lkod/dataset/{eligible['id']}").data)

    assert document["iri"] == f"https://data.example.cz/lkod/dataset/{eligible['id']}"
    assert errors("datová-sada.json", document) == []
