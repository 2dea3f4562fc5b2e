"""``/lkod/organization/<name>/catalog``: one organization's catalog, its own to register in NKOD.

The tests read one set of organizations and records, made once for the module: a town and a region with an IČO
(the town with a draft too), an organization without one, one whose stored IČO is invalid, and one with an IČO but
no records.
"""
from __future__ import annotations

import json

import pytest
import rdflib
from ckan import model
from ckan.tests import factories
from tests.support.schema_registry import errors
from tests.support.schema_registry_2026 import errors as errors_2026
from tests.support.lkod_view_records import CONTEXT_URL, LKOD_CONFIG_READ_ONLY, SITE, create

from ckanext.passport.cli import lkod_group
from ckanext.passport.lkod import norms
from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.norms import NORM_2026, Kind

pytestmark = list(LKOD_CONFIG_READ_ONLY)

DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
DCT = rdflib.Namespace("http://purl.org/dc/terms/")
RPP = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/"
TOWN_ICO = "00064581"
REGION_ICO = "70889546"
EMPTY_ICO = "00006947"
SITE_DESCRIPTION = "Otevřená data testovacího portálu ckanext-passport."  # test.ini's


def url(name: str) -> str:
    return f"{SITE}/lkod/organization/{name}/catalog"


def dataset_iri(record: dict) -> str:
    return f"{SITE}/lkod/dataset/{record['id']}"


def build() -> dict:
    sysadmin = factories.Sysadmin()
    orgs = {
        "town": factories.Organization(name="mesto", title="Město Testov", ico=TOWN_ICO,
                                       description="Otevřená data města Testova."),
        "region": factories.Organization(name="kraj", title="Testovací kraj", ico=REGION_ICO, description=""),
        "no-ico": factories.Organization(name="bez-ico", title="Bez IČO"),
        "bad-ico": factories.Organization(name="spatne-ico", title="Špatné IČO"),
        "empty": factories.Organization(name="prazdna", title="Prázdná", ico=EMPTY_ICO),
    }
    # An IČO stored before the field was validated (or written past the actions): the catalog must not trust it.
    # Assigned whole: CKAN 2.12's JSONB extras of a group still in the session do not see a change made in place.
    group = model.Group.get(orgs["bad-ico"]["id"])
    group.extras = {**group.extras, "ico": "12345678"}
    model.repo.commit()
    records = {
        "town-1": create(orgs["town"], sysadmin, "mesto-doprava"),
        "town-2": create(orgs["town"], sysadmin, "mesto-rozpocet"),
        "town-draft": create(orgs["town"], sysadmin, "mesto-koncept", editorial_state="draft"),
        "region-1": create(orgs["region"], sysadmin, "kraj-skoly"),
        "no-ico-1": create(orgs["no-ico"], sysadmin, "bez-ico-zaznam"),
        "bad-ico-1": create(orgs["bad-ico"], sysadmin, "spatne-ico-zaznam"),
    }
    return {"orgs": orgs, "records": records}


@pytest.fixture
def made(built_once) -> dict:
    return built_once("organizations", build)


def test_the_organization_catalog_lists_only_its_listed_records(web, made):
    document = json.loads(web.get("/lkod/organization/mesto/catalog").data)

    records = made["records"]
    assert sorted(document["datová_sada"]) == sorted([dataset_iri(records["town-1"]), dataset_iri(records["town-2"])])


def test_its_iri_is_its_url_and_its_publisher_the_organizations_ico(web, made):
    graph = parse_jsonld(web.get("/lkod/organization/kraj/catalog").data)

    catalog = rdflib.URIRef(url("kraj"))
    assert (catalog, rdflib.RDF.type, DCAT.Catalog) in graph
    assert list(graph.objects(catalog, DCT.publisher)) == [rdflib.URIRef(RPP + REGION_ICO)]
    assert set(graph.objects(catalog, DCAT.dataset)) == {rdflib.URIRef(dataset_iri(made["records"]["region-1"]))}


def test_its_title_and_description_are_the_organizations_in_czech(web, made):
    graph = parse_jsonld(web.get("/lkod/organization/mesto/catalog").data)

    catalog = rdflib.URIRef(url("mesto"))
    assert graph.value(catalog, DCT.title) == rdflib.Literal("Město Testov", lang="cs")
    assert graph.value(catalog, DCT.description) == rdflib.Literal("Otevřená data města Testova.", lang="cs")


def test_an_organization_without_a_description_has_the_sites(web, made):
    graph = parse_jsonld(web.get("/lkod/organization/kraj/catalog").data)

    assert graph.value(rdflib.URIRef(url("kraj")), DCT.description) == rdflib.Literal(SITE_DESCRIPTION, lang="cs")


def test_turtle_lists_the_same_records_from_the_same_subject(web, made):
    response = web.get("/lkod/organization/mesto/catalog", headers={"Accept": "text/turtle"})

    assert response.headers["Content-Type"].split(";")[0] == "text/turtle"
    graph = rdflib.Graph().parse(data=response.data, format="turtle")
    listed = {str(iri) for iri in graph.objects(rdflib.URIRef(url("mesto")), DCAT.dataset)}
    assert listed == {dataset_iri(made["records"]["town-1"]), dataset_iri(made["records"]["town-2"])}


def test_it_is_sent_once_allows_any_origin_and_differs_from_the_portal_catalogs_etag(web, made):
    first = web.get("/lkod/organization/mesto/catalog", headers={"Origin": "https://data.gov.cz"})

    assert first.headers["Access-Control-Allow-Origin"] == "*"
    assert "no-cache" in first.headers["Cache-Control"]
    again = web.get("/lkod/organization/mesto/catalog", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert first.headers["ETag"] != web.get("/lkod/catalog").headers["ETag"]
    assert first.headers["ETag"] != web.get("/lkod/organization/kraj/catalog").headers["ETag"]


# The norm's schema accepts only https:// IRIs: the portal's public address must be one.
@pytest.mark.ckan_config("ckan.site_url", "https://data.example.cz")
@pytest.mark.parametrize("name", ["mesto", "kraj"])
def test_each_organization_catalog_validates_against_the_official_schema(web, made, name):
    document = json.loads(web.get(f"/lkod/organization/{name}/catalog").data)

    assert document["iri"] == f"https://data.example.cz/lkod/organization/{name}/catalog"
    assert errors("katalog.json", document) == []


def test_in_the_2026_norm_it_lists_the_same_records_and_validates_against_its_schema(web, made):
    response = web.get(f"/lkod/organization/mesto/catalog?norm={NORM_2026}")
    document = json.loads(response.data)

    assert document["@context"] == norms.context_url(NORM_2026, Kind.CATALOG)
    records = made["records"]
    assert sorted(document["datová_sada"]) == sorted([dataset_iri(records["town-1"]), dataset_iri(records["town-2"])])
    assert errors_2026(Kind.CATALOG, document) == []
    catalog = rdflib.URIRef(url("mesto"))
    assert list(parse_jsonld(response.data).objects(catalog, DCT.publisher)) == [rdflib.URIRef(RPP + TOWN_ICO)]


@pytest.mark.parametrize("name, ico", [("mesto", TOWN_ICO), ("kraj", REGION_ICO)])
def test_each_organization_catalog_keeps_the_lkod_validators_rules(web, made, name, ico):
    """What the public LKOD validator checks beyond the schema: the official context, the catalog's IRI equal to
    the URL it was fetched from, exactly one publisher by its RPP IRI, title and description tagged Czech."""
    response = web.get(f"/lkod/organization/{name}/catalog")
    document = json.loads(response.data)
    graph = parse_jsonld(response.data)

    assert document["@context"] == CONTEXT_URL
    assert document["iri"] == url(name)
    (catalog,) = graph.subjects(rdflib.RDF.type, DCAT.Catalog)
    assert catalog == rdflib.URIRef(url(name))
    assert [str(publisher) for publisher in graph.objects(catalog, DCT.publisher)] == [RPP + ico]
    for predicate in (DCT.title, DCT.description):
        assert [text.language for text in graph.objects(catalog, predicate)] == ["cs"]


@pytest.mark.parametrize("path", ["/lkod/organization/no-such-organization/catalog",
                                  "/lkod/organization/bez-ico/catalog"])
def test_an_unknown_organization_or_one_without_an_ico_has_no_catalog(web, made, path):
    assert web.get(path).status_code == 404


def test_the_404_of_an_organization_without_an_ico_says_why(web, made):
    assert "has no IČO" in web.get("/lkod/organization/bez-ico/catalog").get_data(as_text=True)


def test_an_organization_with_an_invalid_stored_ico_has_no_catalog(web, made):
    assert web.get("/lkod/organization/spatne-ico/catalog").status_code == 404


def test_the_catalog_is_found_by_the_organizations_name_only(web, made):
    """Its URL is its IRI: an id would give the catalog a second one."""
    assert web.get(f"/lkod/organization/{made['orgs']['town']['id']}/catalog").status_code == 404


def test_the_portal_catalog_still_lists_every_organizations_records(web, made):
    listed = set(json.loads(web.get("/lkod/catalog").data)["datová_sada"])

    records = made["records"]
    assert listed == {dataset_iri(records[key]) for key in ("town-1", "town-2", "region-1", "no-ico-1", "bad-ico-1")}


# --- the page for people -------------------------------------------------------------------------------------


def organization_rows(app) -> dict[str, str]:
    from bs4 import BeautifulSoup

    page = BeautifulSoup(app.get("/lkod/").get_data(as_text=True), "html.parser")
    return {row["data-organization"]: row for row in page.select("tr.lkod-organization")}


def test_the_page_lists_each_organization_catalog_to_register_with_its_count(web, made):
    rows = organization_rows(web)

    assert rows["mesto"].select_one(".lkod-organization-catalog-url").get_text() == url("mesto")
    assert rows["mesto"].select_one(".lkod-organization-count").get_text() == "2"
    assert rows["kraj"].select_one(".lkod-organization-catalog-url").get_text() == url("kraj")
    assert rows["kraj"].select_one(".lkod-organization-count").get_text() == "1"


def test_the_page_says_why_an_organization_with_records_has_no_catalog(web, made):
    rows = organization_rows(web)

    assert rows["bez-ico"]["data-code"] == "lkod.organization_no_ico"
    assert rows["spatne-ico"]["data-code"] == "lkod.organization_bad_ico"
    assert "12345678" in rows["spatne-ico"].select_one(".lkod-organization-reason").get_text()
    assert rows["bez-ico"].select_one(".lkod-organization-catalog-url") is None


def test_an_organization_without_listed_records_is_not_on_the_page(web, made):
    assert "prazdna" not in organization_rows(web)


# --- its registration in NKOD --------------------------------------------------------------------------------


def test_the_registration_of_an_organization_catalog_names_its_url_and_title(cli, made):
    result = cli.invoke(lkod_group, ["registration", "--organization", "mesto"])

    assert result.exit_code == 0, result.output
    graph = rdflib.Graph().parse(data=result.output, format="json-ld")
    (catalog,) = graph.subjects(rdflib.RDF.type, DCAT.Catalog)
    assert graph.value(catalog, DCAT.endpointURL) == rdflib.Literal(url("mesto"), datatype=rdflib.XSD.anyURI)
    assert graph.value(catalog, DCT.title) == rdflib.Literal("Město Testov", lang="cs")


@pytest.mark.parametrize("name, said", [("bez-ico", "has no IČO"), ("no-such-organization", "No organization")])
def test_no_registration_for_an_organization_without_a_catalog(cli, made, name, said):
    result = cli.invoke(lkod_group, ["registration", "--organization", name])

    assert result.exit_code == 1
    assert said in result.output
