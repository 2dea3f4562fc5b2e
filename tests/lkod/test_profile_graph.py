"""The dcat_ap_cz profile's graph meets the NKOD harvester's rules (spec README, "Facts an implementation needs")."""
from __future__ import annotations

from importlib.metadata import entry_points

import ckan.plugins.toolkit as tk
import pytest
import rdflib
from tests.support.lkod_records import HVD_CATEGORY, SITE_URL, lkod_record
from rdflib import RDF, BNode, Literal, URIRef

from ckanext.passport.lkod import iris, jsonld
from ckanext.passport.lkod.graph_out import DCAT, DCATAP, DCT, FOAF, VCARD
from ckanext.passport.lkod.profile import DcatApCzProfile

PU = iris.PU


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)


def graph_of(record: dict) -> tuple[rdflib.Graph, URIRef]:
    graph = rdflib.Graph()
    dataset = URIRef(iris.dataset_iri(record["id"]))
    DcatApCzProfile(graph).graph_from_dataset(record, dataset)
    return graph, dataset


def distributions(graph: rdflib.Graph, dataset: URIRef) -> list:
    return list(graph.objects(dataset, DCAT.distribution))


def test_datasets_distributions_and_services_are_iris_never_blank_nodes():
    graph, dataset = graph_of(lkod_record())
    for kind in (DCAT.Dataset, DCAT.Distribution, DCAT.DataService):
        nodes = list(graph.subjects(RDF.type, kind))
        assert nodes and all(isinstance(node, URIRef) for node in nodes)
    assert [str(node) for node in distributions(graph, dataset)] == [
        iris.distribution_iri(lkod_record()["id"], resource["id"]) for resource in lkod_record()["resources"]
    ]


def test_themes_periodicity_and_spatial_are_iris_of_their_vocabularies():
    graph, dataset = graph_of(lkod_record())
    themes = {str(theme) for theme in graph.objects(dataset, DCAT.theme)}
    assert {str(iris.DATA_THEME["SOCI"]), str(iris.DATA_THEME["GOVE"])} <= themes
    assert all(isinstance(theme, URIRef) for theme in graph.objects(dataset, DCAT.theme))
    assert list(graph.objects(dataset, DCT.accrualPeriodicity)) == [iris.FREQUENCY["ANNUAL"]]
    # CZ0642 (Brno-město) has no reliable RÚIAN okres code here: the district's region, Jihomoravský kraj.
    assert list(graph.objects(dataset, DCT.spatial)) == [URIRef(iris.RUIAN + "vusc/116")]


def test_title_description_and_keywords_are_tagged_czech():
    graph, dataset = graph_of(lkod_record())
    for predicate in (DCT.title, DCT.description, DCAT.keyword):
        values = list(graph.objects(dataset, predicate))
        assert values and all(isinstance(value, Literal) and value.language == "cs" for value in values)
    assert {str(keyword) for keyword in graph.objects(dataset, DCAT.keyword)} == {"obyvatelstvo", "obce"}


def test_the_publisher_is_its_rpp_iri():
    graph, dataset = graph_of(lkod_record())
    assert list(graph.objects(dataset, DCT.publisher)) == [URIRef(iris.RPP_PUBLISHER + "00025593")]


def test_every_distribution_has_an_access_url_and_a_complete_specification_of_iris():
    graph, dataset = graph_of(lkod_record())
    for distribution in distributions(graph, dataset):
        assert isinstance(graph.value(distribution, DCAT.accessURL), URIRef)
        specification = graph.value(distribution, PU.specifikace)
        assert (specification, RDF.type, PU.Specifikace) in graph
        for part in iris.CONDITION_PARTS.values():
            assert isinstance(graph.value(specification, URIRef(part)), URIRef), part


def test_a_cc_by_part_names_its_author_the_provider_by_default():
    graph, dataset = graph_of(lkod_record())
    specification = graph.value(distributions(graph, dataset)[0], PU.specifikace)
    assert graph.value(specification, PU["autorské-dílo"]) == URIRef(iris.CC_BY_4)
    assert graph.value(specification, PU.autor) == Literal("Český statistický úřad", lang="cs")


def test_a_file_distribution_downloads_its_access_url_with_format_and_media_type_iris():
    graph, dataset = graph_of(lkod_record())
    file = distributions(graph, dataset)[0]
    assert graph.value(file, DCAT.downloadURL) == graph.value(file, DCAT.accessURL)
    assert graph.value(file, DCT["format"]) == iris.FILE_TYPE["CSV"]
    # The record's file is gzip-compressed CSV: the data's media type, and the compression's.
    assert graph.value(file, DCAT.mediaType) == URIRef(iris.IANA_MEDIA_TYPES + "text/csv")
    assert graph.value(file, DCAT.compressFormat) == URIRef(iris.IANA_MEDIA_TYPES + "application/gzip")
    assert graph.value(file, DCT.conformsTo) == URIRef("https://data.example.cz/obyvatelstvo.schema.json")


def test_a_service_resource_is_a_data_service_whose_endpoint_is_the_access_url():
    graph, dataset = graph_of(lkod_record())
    distribution = distributions(graph, dataset)[1]
    service = graph.value(distribution, DCAT.accessService)
    assert (service, RDF.type, DCAT.DataService) in graph
    assert graph.value(service, DCAT.endpointURL) == URIRef("https://data.example.cz/sparql")
    assert graph.value(distribution, DCAT.accessURL) == graph.value(service, DCAT.endpointURL)
    assert graph.value(service, DCT.title) == Literal("SPARQL endpoint obyvatelstva", lang="cs")
    assert graph.value(distribution, DCAT.downloadURL) is None


def test_temporal_coverage_dates_are_xsd_dates():
    graph, dataset = graph_of(lkod_record())
    period = graph.value(dataset, DCT.temporal)
    assert graph.value(period, DCAT.startDate) == Literal("2024-01-01", datatype=rdflib.XSD.date)
    assert graph.value(period, DCAT.endDate) == Literal("2024-12-31", datatype=rdflib.XSD.date)


def test_the_contact_point_is_a_vcard_with_a_mailto_iri():
    graph, dataset = graph_of(lkod_record())
    contact = graph.value(dataset, DCAT.contactPoint)
    assert (contact, RDF.type, VCARD.Organization) in graph
    assert graph.value(contact, VCARD.hasEmail) == URIRef("mailto:infoservis@czso.cz")


def test_documentation_is_a_foaf_page_iri():
    graph, dataset = graph_of(lkod_record())
    assert graph.value(dataset, FOAF.page) == URIRef("https://data.example.cz/obyvatelstvo/dokumentace")


def test_an_hvd_record_names_the_hvd_regulation_on_dataset_distributions_and_service():
    graph, dataset = graph_of(lkod_record(hvd_category=HVD_CATEGORY))
    service = graph.value(distributions(graph, dataset)[1], DCAT.accessService)
    for subject in [dataset, service, *distributions(graph, dataset)]:
        assert graph.value(subject, DCATAP.applicableLegislation) == URIRef(iris.HVD_LEGISLATION)
    assert graph.value(dataset, DCATAP.hvdCategory) == URIRef(HVD_CATEGORY)
    assert graph.value(service, DCATAP.hvdCategory) == URIRef(HVD_CATEGORY)


def test_a_record_without_hvd_category_names_no_hvd_regulation():
    graph, _ = graph_of(lkod_record())
    assert list(graph.triples((None, DCATAP.applicableLegislation, None))) == []


def test_harvested_text_stays_a_literal_and_the_turtle_parses_back():
    tricky = 'Data "v uvozovkách" > <script>alert(1)</script>\n a další řádek \\ konec'
    record = lkod_record(title=tricky, notes="@prefix x: <http://evil/> .")
    turtle = jsonld.dataset_turtle(record)
    graph = rdflib.Graph().parse(data=turtle, format="turtle")
    dataset = URIRef(iris.dataset_iri(record["id"]))
    assert graph.value(dataset, DCT.title) == Literal(tricky, lang="cs")
    assert graph.value(dataset, DCT.description) == Literal("@prefix x: <http://evil/> .", lang="cs")


def test_a_url_with_characters_an_iri_cannot_hold_is_percent_encoded():
    record = lkod_record()
    record["resources"][0]["url"] = 'https://data.example.cz/a file"<x>.csv'
    graph = rdflib.Graph().parse(data=jsonld.dataset_turtle(record), format="turtle")
    urls = {str(url) for url in graph.objects(None, DCAT.downloadURL)}
    assert urls == {"https://data.example.cz/a%20file%22%3Cx%3E.csv"}


def test_text_that_is_no_web_address_is_never_written_as_an_iri():
    record = lkod_record(documentation_url="javascript:alert(1)")
    record["resources"][0]["url"] = "ftp://data.example.cz/x.csv"
    graph, dataset = graph_of(record)
    assert graph.value(dataset, FOAF.page) is None
    assert len(distributions(graph, dataset)) == 1


def test_an_inn_publisher_has_no_publisher_iri():
    graph, dataset = graph_of(lkod_record(publisher_id_scheme="inn", publisher_id="7708234640"))
    assert graph.value(dataset, DCT.publisher) is None


def test_contact_and_temporal_nodes_are_blank_like_the_norm_s_examples():
    graph, dataset = graph_of(lkod_record())
    assert isinstance(graph.value(dataset, DCAT.contactPoint), BNode)
    assert isinstance(graph.value(dataset, DCT.temporal), BNode)


def test_the_catalog_graph_has_its_publisher_title_and_homepage():
    graph = rdflib.Graph()
    catalog = URIRef(iris.catalog_iri())
    DcatApCzProfile(graph).graph_from_catalog(
        {"title": "Katalog", "description": "Popis", "publisher_ico": "00025593", "homepage": "https://x.example.cz/"},
        catalog,
    )
    assert (catalog, RDF.type, DCAT.Catalog) in graph
    assert graph.value(catalog, DCT.title) == Literal("Katalog", lang="cs")
    assert graph.value(catalog, DCT.publisher) == URIRef(iris.RPP_PUBLISHER + "00025593")
    assert graph.value(catalog, FOAF.homepage) == URIRef("https://x.example.cz/")


def test_the_profile_is_registered_for_ckanext_dcat_as_dcat_ap_cz():
    (entry_point,) = entry_points(group="ckan.rdf.profiles", name="dcat_ap_cz")
    assert entry_point.load() is DcatApCzProfile
