"""``?norm=`` on the /lkod/ documents, and the site's default norm (``ckanext.passport.lkod.norm``).

One eligible record, made once for the module; no test changes it.
"""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from tests.support.schema_registry_2026 import errors
from tests.support.lkod_view_records import CONTEXT_URL, LKOD_CONFIG_READ_ONLY, SITE, create

from ckanext.passport.lkod import norms
from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.norms import NORM_2026, Kind

pytestmark = list(LKOD_CONFIG_READ_ONLY)

ELI_106 = "https://www.e-sbirka.cz/eli/cz/sb/1999/106/2025-08-19"


@pytest.fixture
def record(built_once) -> dict:
    return built_once("record", lambda: create(factories.Organization(), factories.Sysadmin(), "eligible"))


def test_a_dataset_asked_in_2026_names_its_context_and_zakon_106_and_validates(web, record):
    document = json.loads(web.get(f"/lkod/dataset/{record['id']}?norm={NORM_2026}").data)

    assert document["@context"] == norms.context_url(NORM_2026, Kind.DATASET)
    assert document["právní_předpis"] == [ELI_106]
    assert errors(Kind.DATASET, document) == []


def test_without_norm_the_dataset_is_2024s(web, record):
    document = json.loads(web.get(f"/lkod/dataset/{record['id']}").data)

    assert document["@context"] == CONTEXT_URL
    assert "právní_předpis" not in document


def test_the_catalog_asked_in_2026_names_the_catalog_interface_context_and_validates(web, record):
    response = web.get(f"/lkod/catalog?norm={NORM_2026}")

    document = json.loads(response.data)
    assert document["@context"] == norms.context_url(NORM_2026, Kind.CATALOG)
    assert document["datová_sada"] == [f"{SITE}/lkod/dataset/{record['id']}"]
    assert errors(Kind.CATALOG, document) == []
    assert len(parse_jsonld(response.data)) > 0


def test_the_two_norms_of_the_catalog_have_different_etags(web, record):
    old = web.get("/lkod/catalog").headers["ETag"]
    new = web.get(f"/lkod/catalog?norm={NORM_2026}").headers["ETag"]

    assert old != new


def test_the_2026_turtle_carries_the_legislation(web, record):
    response = web.get(f"/lkod/dataset/{record['id']}?format=ttl&norm={NORM_2026}")

    assert ELI_106 in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/lkod/catalog", "/lkod/dataset/{id}"])
def test_an_unknown_norm_is_400_naming_the_known_ones(web, record, path):
    response = web.get(path.format(id=record["id"]) + "?norm=2025-01-01")

    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "2025-01-01" in text and "norm=2024-05-28" in text and "norm=2026-09-23" in text


def test_a_distribution_iri_redirects_keeping_the_norm(web, record):
    resource = record["resources"][0]["id"]
    response = web.get(f"/lkod/dataset/{record['id']}/distribution/{resource}?norm={NORM_2026}", follow_redirects=False)

    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/lkod/dataset/{record['id']}?norm={NORM_2026}")


def test_the_page_for_people_links_the_catalog_in_each_norm_naming_the_default(web, record):
    page = web.get("/lkod/").get_data(as_text=True)

    for norm in norms.NORMS:
        assert f'href="{SITE}/lkod/catalog?norm={norm}"' in page
    assert f"{norms.DEFAULT}</a> (default)" in page


@pytest.mark.ckan_config("ckanext.passport.lkod.norm", NORM_2026)
def test_the_site_setting_makes_2026_the_default_and_2024_can_still_be_asked(web, record):
    default = json.loads(web.get(f"/lkod/dataset/{record['id']}").data)
    asked = json.loads(web.get(f"/lkod/dataset/{record['id']}?norm=2024-05-28").data)

    assert default["@context"] == norms.context_url(NORM_2026, Kind.DATASET)
    assert asked["@context"] == CONTEXT_URL
