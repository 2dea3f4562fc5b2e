"""``ckan passport lkod registration``: the document an operator submits to NKOD, from the site's options."""
from __future__ import annotations


import pytest
import rdflib

from ckanext.passport.cli import lkod_group
from ckanext.passport.lkod.registration import registration_document

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
DCT = rdflib.Namespace("http://purl.org/dc/terms/")
VCARD = rdflib.Namespace("http://www.w3.org/2006/vcard/ns#")
FOAF = rdflib.Namespace("http://xmlns.com/foaf/0.1/")
NKOD_LKOD = rdflib.URIRef("https://data.gov.cz/slovník/nkod/DcatApLkod")
# test.ini's options.
CATALOG_URL = "http://test.ckan.net/lkod/catalog"
TITLE = "Katalog otevřených dat testovacího portálu"


def printed(cli) -> rdflib.Graph:
    result = cli.invoke(lkod_group, ["registration"])
    assert result.exit_code == 0, result.output
    return rdflib.Graph().parse(data=result.output, format="json-ld")


def test_the_registration_is_a_catalog_typed_for_nkod_with_the_catalog_url_as_endpoint(cli):
    graph = printed(cli)

    (catalog,) = graph.subjects(rdflib.RDF.type, DCAT.Catalog)
    assert (catalog, rdflib.RDF.type, NKOD_LKOD) in graph
    assert graph.value(catalog, DCAT.endpointURL) == rdflib.Literal(CATALOG_URL, datatype=rdflib.XSD.anyURI)
    assert graph.value(catalog, DCT.title) == rdflib.Literal(TITLE, lang="cs")
    assert graph.value(catalog, FOAF.homepage) == rdflib.URIRef("https://test.ckan.net/")


def test_the_registration_names_an_organization_to_contact(cli):
    graph = printed(cli)

    contact = graph.value(next(graph.subjects(rdflib.RDF.type, DCAT.Catalog)), DCAT.contactPoint)
    assert (contact, rdflib.RDF.type, VCARD.Organization) in graph
    assert graph.value(contact, VCARD.fn) == rdflib.Literal(TITLE, lang="cs")
    assert str(graph.value(contact, VCARD.hasEmail)) == "opendata@test.ckan.net"


@pytest.mark.ckan_config("ckanext.passport.lkod.contact_email", "")
@pytest.mark.ckan_config("ckanext.passport.lkod.publisher_ico", "12345678")
def test_without_the_options_it_needs_it_prints_which_to_set_and_fails(cli):
    result = cli.invoke(lkod_group, ["registration"])

    assert result.exit_code == 1
    assert "ckanext.passport.lkod.contact_email" in result.output
    assert "ckanext.passport.lkod.publisher_ico" in result.output  # not a valid IČO


def test_the_document_is_in_the_shape_nkods_form_produces():
    document = registration_document(
        {"title": "Katalog", "contact_email": "a@example.cz", "homepage": "https://example.cz/"},
        "https://example.cz/lkod/catalog",
    )

    assert document == {
        "@type": ["http://www.w3.org/ns/dcat#Catalog", "https://data.gov.cz/slovník/nkod/DcatApLkod"],
        "http://www.w3.org/ns/dcat#endpointURL": {
            "@value": "https://example.cz/lkod/catalog", "@type": "http://www.w3.org/2001/XMLSchema#anyURI"},
        "http://purl.org/dc/terms/title": {"@language": "cs", "@value": "Katalog"},
        "http://www.w3.org/ns/dcat#contactPoint": {
            "@type": ["http://www.w3.org/2006/vcard/ns#Organization"],
            "http://www.w3.org/2006/vcard/ns#fn": {"@language": "cs", "@value": "Katalog"},
            "http://www.w3.org/2006/vcard/ns#hasEmail": "a@example.cz",
        },
        "http://xmlns.com/foaf/0.1/homepage": {"@id": "https://example.cz/"},
    }
