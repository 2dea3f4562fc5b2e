"""``/lkod/catalog``: the DCAT-AP-CZ catalog document NKOD harvests, listing exactly the eligible records.

The tests read one set of records, made once for the module; test_views_catalog_growth.py starts from an empty
catalog and adds or changes records.
"""
from __future__ import annotations

import json

import pytest
import rdflib
from ckan.tests.helpers import call_action
from tests.support.schema_registry import errors
from tests.support.lkod_view_records import CATALOG_URL, CONTEXT_URL, LKOD_CONFIG_READ_ONLY, SITE, every_kind

from ckanext.passport.lkod import catalog_stream
from ckanext.passport.lkod.context import parse_jsonld

pytestmark = list(LKOD_CONFIG_READ_ONLY)

DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
CATALOG = rdflib.URIRef(CATALOG_URL)


@pytest.fixture
def records(built_once) -> dict[str, dict]:
    """One record of every kind, made by the module's first test that reads them; no test here changes them."""
    return built_once("records", every_kind)


def dataset_iri(record: dict) -> str:
    return f"{SITE}/lkod/dataset/{record['id']}"


def listed(graph: rdflib.Graph) -> set[str]:
    return {str(iri) for iri in graph.objects(CATALOG, DCAT.dataset)}


def test_without_an_accept_header_the_catalog_is_json_ld_naming_the_official_context(web, records):
    response = web.get("/lkod/catalog")

    assert response.status_code == 200
    assert response.headers["Content-Type"].split(";")[0] == "application/ld+json"
    document = json.loads(response.data)
    assert document["@context"] == CONTEXT_URL
    assert document["iri"] == CATALOG_URL


def test_the_catalog_lists_exactly_the_eligible_records(web, records):
    document = json.loads(web.get("/lkod/catalog").data)

    assert document["datová_sada"] == [dataset_iri(records["eligible"])]


def test_the_catalog_graph_is_read_from_the_subject_equal_to_its_url(web, records):
    graph = parse_jsonld(web.get("/lkod/catalog").data)

    assert (CATALOG, rdflib.RDF.type, DCAT.Catalog) in graph
    assert listed(graph) == {dataset_iri(records["eligible"])}


@pytest.mark.parametrize("accept", ["application/ld+json", "*/*", "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_json_ld_is_also_what_these_accept_headers_get(web, records, accept):
    response = web.get("/lkod/catalog", headers={"Accept": accept})

    assert response.headers["Content-Type"].split(";")[0] == "application/ld+json"
    assert json.loads(response.data)["iri"] == CATALOG_URL


@pytest.mark.parametrize("query, headers", [("?format=ttl", {}), ("", {"Accept": "text/turtle"})],
                         ids=["format parameter", "accept header"])
def test_turtle_lists_the_same_records(web, records, query, headers):
    response = web.get(f"/lkod/catalog{query}", headers=headers)

    assert response.headers["Content-Type"].split(";")[0] == "text/turtle"
    graph = rdflib.Graph().parse(data=response.data, format="turtle")
    assert (CATALOG, rdflib.RDF.type, DCAT.Catalog) in graph
    assert listed(graph) == {dataset_iri(records["eligible"])}


def test_an_unknown_format_is_refused(web):
    assert web.get("/lkod/catalog?format=rdf").status_code == 400


def test_the_same_catalog_is_not_sent_twice(web, records):
    first = web.get("/lkod/catalog")

    assert first.headers["ETag"] and first.headers["Last-Modified"]
    assert web.get("/lkod/catalog", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert web.get("/lkod/catalog", headers={"If-Modified-Since": first.headers["Last-Modified"]}).status_code == 304


def test_the_turtle_and_json_ld_documents_have_different_etags(web, records):
    assert web.get("/lkod/catalog").headers["ETag"] != web.get("/lkod/catalog?format=ttl").headers["ETag"]


def test_caches_must_ask_before_reusing_the_catalog(web, records):
    response = web.get("/lkod/catalog")

    assert "no-cache" in response.headers["Cache-Control"]
    assert "Accept" in response.headers["Vary"]


@pytest.mark.ckan_config("ckanext.passport.lkod.publisher_ico", "")
def test_without_a_publisher_the_catalog_is_unavailable_and_says_what_to_set(web):
    response = web.get("/lkod/catalog")

    assert response.status_code == 503
    assert "ckanext.passport.lkod.publisher_ico" in response.get_data(as_text=True)


def test_a_record_is_indexed_with_whether_it_is_eligible(records):
    found = call_action("package_search", fq=f"+{catalog_stream.ELIGIBLE_INDEX_FIELD}:true",
                        include_private=True, fl=["name"])
    assert [record["name"] for record in found["results"]] == ["eligible"]


# The norm's schema accepts only https:// dataset IRIs: the portal's public address must be one.
@pytest.mark.ckan_config("ckan.site_url", "https://data.example.cz")
def test_the_catalog_document_validates_against_the_official_schema(web, records):
    document = json.loads(web.get("/lkod/catalog").data)

    assert document["datová_sada"] == [f"https://data.example.cz/lkod/dataset/{records['eligible']['id']}"]
    assert document["iri"] == "https://data.example.cz/lkod/catalog"
    assert errors("katalog.json", document) == []
