"""The MR passport page URL and the permanent data and structure version links."""
from __future__ import annotations

import io

import pytest
from tests.support.publish_shapes import INN, PUBLISH_CONFIG
from pyRdfa import pyRdfa
from rdflib import Literal, Namespace, URIRef

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

BASE = "/opendata/7712345678-showrooms"
DC = Namespace("http://purl.org/dc/terms/")
SITE = "http://test.ckan.net"


@pytest.mark.parametrize("path", [BASE, f"{BASE}/"])
def test_passport_url_renders_the_dataset_page(web, publish, path):
    publish("harvested")
    response = web.get(path)
    assert response.status_code == 200
    graph = pyRdfa(base=f"{SITE}{path}", media_type="text/html").graph_from_source(io.BytesIO(response.data))
    # A plain literal: an identifier is in no language (Literal equality includes the language tag).
    assert set(graph.objects(URIRef(f"{SITE}{BASE}"), DC.identifier)) == {Literal("7712345678-showrooms")}


def test_data_version_link_redirects_to_its_file(web, publish):
    publish("harvested")
    response = web.get(f"{BASE}/data-20130401T0000-structure-20130401T0000.csv", follow_redirects=False)
    assert response.status_code == 302
    assert response.headers["Location"] == "http://files.example.com/showrooms/1.csv"


def test_structure_version_link_redirects_to_its_file(web, publish):
    publish("harvested")
    response = web.get(f"{BASE}/structure-20130401T0000.csv", follow_redirects=False)
    assert response.status_code == 302
    assert response.headers["Location"] == "http://files.example.com/showrooms/structure.csv"


def test_unknown_version_answers_404(web, publish):
    publish("harvested")
    assert web.get(f"{BASE}/data-19990101-structure-20130401T0000.csv").status_code == 404


def test_version_link_with_another_extension_answers_404(web, publish):
    publish("harvested")
    assert web.get(f"{BASE}/data-20130401T0000-structure-20130401T0000.xml").status_code == 404


def test_every_link_of_a_passport_resolves(web, publish):
    import json

    publish("structures")
    document = json.loads(web.get("/opendata/7712345678-budget/meta.json").data)
    targets = {
        web.get(item["source"].replace("http://test.ckan.net", ""), follow_redirects=False).headers["Location"]
        for item in document["data"] + document["structure"]
    }
    assert targets == {f"http://files.example.com/budget/{name}" for name in
                       ("2016.xml", "2015b.xml", "2015.xml", "s2.xsd", "s1.xsd")}


def test_dataset_is_found_by_its_name_too(web, publish):
    publish("portal")
    assert web.get("/opendata/bus-stops/meta.json").json["identifier"] == f"{INN}-busstops"


@pytest.mark.ckan_config("ckanext.passport.identifier_field", "publisher_name")
def test_identifier_field_is_configurable(web, publish):
    publish("structures", publisher_name="7712345678-finance")
    assert web.get("/opendata/7712345678-finance/meta.json").json["identifier"] == "7712345678-finance"


def test_dataset_page_links_its_passport_files(web, publish):
    publish("harvested")
    page = web.get("/dataset/7712345678-showrooms").data.decode("utf-8")
    for form, kind in (("meta.csv", "text/csv"), ("meta.xml", "application/xml"), ("meta.json", "application/json")):
        assert f'<link rel="alternate" type="{kind}" href="http://test.ckan.net{BASE}/{form}"' in page
        assert f'href="http://test.ckan.net{BASE}/{form}"' in page
