"""parse_dataset reads a DCAT-AP-CZ dataset back into the Czech record: the norm's examples, and our own graph."""
from __future__ import annotations

import json
from pathlib import Path

import ckan.plugins.toolkit as tk
import pytest
import rdflib
from ckanext.dcat.processors import RDFParser
from tests.support.lkod_records import HVD_CATEGORY, SITE_URL, lkod_fields, lkod_record
from rdflib import URIRef

from ckanext.passport.lkod import graph_in, iris, jsonld
from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.profile import DcatApCzProfile

EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz" / "příklady"
EXAMPLE_IRI = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
MDCR_NAME = "Ministerstvo dopravy, Odbor veřejné dopravy"


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)


def parsed(graph: rdflib.Graph) -> list[dict]:
    """What ckanext-dcat's parser makes of ``graph`` with the dcat_ap_cz profile (the lkod harvester's path)."""
    parser = RDFParser(profiles=["dcat_ap_cz"])
    parser.g = graph
    return list(parser.datasets())


def example(name: str) -> dict:
    (dataset,) = parsed(parse_jsonld((EXAMPLES / name).read_bytes()))
    return dataset


def test_the_official_example_gives_the_record_fields():
    dataset = example("datová-sada.jsonld")
    assert {key: dataset[key] for key in graph_in.DATASET_FIELDS if key != "resources"} == {
        "lkod_iri": EXAMPLE_IRI,
        "record_language": "cs",
        "title": "Jízdní řády veřejné linkové dopravy",
        "notes": dataset["notes"],
        "tags": [{"name": "jízdní řády"}, {"name": "veřejná linková doprava"}, {"name": "autobus"}],
        "title_en": "Public transport timetables",
        "notes_en": dataset["notes_en"],
        "keywords_en": ["timetable", "public transport", "bus"],
        "publisher_id_scheme": "ico",
        "publisher_id": "66003008",
        "publisher_name": MDCR_NAME,
        "publisher_email": "sekretariat.190@mdcr.cz",
        "data_themes": ["TRAN"],
        "accrual_periodicity": "WEEKLY_3",
        "spatial_area": ["CZ0"],
        # EuroVoc 4512 is not in the portal's vocabulary: the record's field cannot hold it.
        "eurovoc": [],
        "temporal_start": "2009-01-01",
        "temporal_end": "2017-12-31",
        "documentation_url": (
            "https://www.mdcr.cz/Dokumenty/Verejna-doprava/Jizdni-rady,-kalendare-pro-jizdni-rady,-metodi-(1)/"
            "Jizdni-rady-verejne-dopravy"
        ),
        "hvd_category": "",
        "record_kind": "dataset",
        "in_series": "",
    }
    assert dataset["notes"].startswith("Obsahem datové sady jsou schválené")
    assert dataset["notes_en"].startswith("This dataset contains approved timetables")


def test_the_official_example_s_file_distribution_gives_the_resource_fields():
    file = example("datová-sada.jsonld")["resources"][0]
    assert file == {
        "lkod_iri": EXAMPLE_IRI + "/distribuce/csv",
        "name": "JSON distribuce v ZIP soubrou",
        "url": "https://portal.cisjr.cz/pub/draha/mestske/JDF.zip",
        "source_type": "file",
        "format": "ZIP",
        "mimetype": "application/zip",
        "mimetype_inner": "application/json",
        "schema_urls": ["https://portal.cisjr.cz/schemata/json-schema.json"],
        "format_docs": [],
        "use_author_work": "cc-by-4.0",
        "use_author": MDCR_NAME,
        "use_database_work": "cc-by-4.0",
        "use_database_author": MDCR_NAME,
        "use_database_right": "not-protected",
        "use_personal_data": "no-personal-data",
    }


def test_the_official_example_s_service_distribution_is_a_sparql_endpoint_resource():
    service = example("datová-sada.jsonld")["resources"][1]
    assert service["lkod_iri"] == EXAMPLE_IRI + "/distribuce/sparql"
    assert (service["source_type"], service["url"]) == ("sparql_endpoint", "https://portal.cisjr.cz/sparql")
    assert service["use_author_work"] == "no-copyright-work"
    assert service["use_author"] == ""


def test_the_hvd_example_gives_its_category_and_the_service_documentation():
    dataset = example("datová-sada-hvd.jsonld")
    assert dataset["hvd_category"] == "http://data.europa.eu/bna/c_1e787364"
    assert dataset["resources"][1]["format_docs"] == ["https://www.data.cz/služba/dokumentace"]


def test_the_turtle_example_reads_as_the_json_ld_one():
    parser = RDFParser(profiles=["dcat_ap_cz"])
    parser.parse((EXAMPLES / "datová-sada.ttl").read_text(encoding="utf-8"), _format="turtle")
    (from_turtle,) = parser.datasets()
    from_json = example("datová-sada.jsonld")
    # The two official files differ in one keyword ("autobusy" / "autobus"); every other field agrees (the keywords
    # of a language in either order: a graph keeps no order).
    assert sorted(from_turtle["keywords_en"]) == sorted(from_json["keywords_en"])
    listed = ("tags", "keywords_en")
    assert {k: v for k, v in from_turtle.items() if k not in listed} == {
        k: v for k, v in from_json.items() if k not in listed
    }


@pytest.mark.parametrize("hvd_category", ["", HVD_CATEGORY])
def test_graph_from_dataset_then_parse_dataset_gives_the_same_record_fields(hvd_category):
    record = lkod_record(hvd_category=hvd_category)
    graph = rdflib.Graph()
    dataset_ref = URIRef(iris.dataset_iri(record["id"]))
    profile = DcatApCzProfile(graph)
    profile.graph_from_dataset(record, dataset_ref)
    assert profile.parse_dataset({}, dataset_ref) == lkod_fields(record)


def test_the_json_ld_document_read_back_gives_the_same_record_fields():
    record = lkod_record()
    (dataset,) = parsed(parse_jsonld(json.dumps(jsonld.dataset_document(record))))
    assert dataset == lkod_fields(record)


def test_a_region_comes_back_as_itself():
    record = lkod_record(spatial_area="CZ064")
    (dataset,) = parsed(parse_jsonld(json.dumps(jsonld.dataset_document(record))))
    assert dataset["spatial_area"] == ["CZ064"]


def test_values_the_record_cannot_hold_are_dropped_not_guessed():
    document = jsonld.dataset_document(lkod_record())
    document["téma"].append("http://publications.europa.eu/resource/authority/data-theme/UNKNOWN")
    document["prvek_rúian"] = ["https://linked.cuzk.cz/resource/ruian/obec/582786"]
    document["periodicita_aktualizace"] = "https://example.org/every-blue-moon"
    document["distribuce"][0]["podmínky_užití"]["autorské_dílo"] = "https://example.org/own-licence"
    (dataset,) = parsed(parse_jsonld(json.dumps(document)))
    assert dataset["data_themes"] == ["SOCI", "GOVE"]
    assert dataset["spatial_area"] == []
    assert dataset["accrual_periodicity"] == ""
    assert dataset["resources"][0]["use_author_work"] == ""


def test_an_rpp_publisher_iri_written_percent_encoded_gives_the_ico():
    document = jsonld.dataset_document(lkod_record())
    document["poskytovatel"] = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/org%C3%A1n-ve%C5%99ejn%C3%A9-moci/00025593"
    (dataset,) = parsed(parse_jsonld(json.dumps(document)))
    assert (dataset["publisher_id_scheme"], dataset["publisher_id"]) == ("ico", "00025593")


def test_a_publisher_outside_rpp_fills_no_publisher_identifier():
    document = jsonld.dataset_document(lkod_record())
    document["poskytovatel"] = "https://example.org/agency"
    (dataset,) = parsed(parse_jsonld(json.dumps(document)))
    assert (dataset["publisher_id_scheme"], dataset["publisher_id"]) == ("", "")


def test_a_date_time_gives_its_date_and_text_that_is_no_date_nothing():
    document = jsonld.dataset_document(lkod_record())
    document["časové_pokrytí"] = {"typ": "Časový interval", "začátek": "2019-01-01+01:00", "konec": "konec roku"}
    (dataset,) = parsed(parse_jsonld(json.dumps(document)))
    assert (dataset["temporal_start"], dataset["temporal_end"]) == ("2019-01-01", "")


def test_a_graph_of_the_wrong_shapes_reads_as_empty_fields_without_an_error():
    dataset = URIRef("https://lkod.example.cz/ds/1")
    graph = rdflib.Graph().parse(format="turtle", data=f"""
        @prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .
        <{dataset}> a dcat:Dataset ; dct:title <https://not.a.text/> ; dct:publisher "00025593" ;
            dcat:contactPoint "nobody" ; dct:temporal "2020" ; dcat:distribution "a file", <https://lkod.example.cz/d/1> .
        <https://lkod.example.cz/d/1> dcat:accessURL "https://as.text/only" ; dct:format "CSV" .
    """)
    (parsed_dataset,) = parsed(graph)
    assert (parsed_dataset["title"], parsed_dataset["publisher_id"], parsed_dataset["temporal_start"]) == ("", "", "")
    assert [resource["url"] for resource in parsed_dataset["resources"]] == ["", ""]
    assert parsed_dataset["resources"][1]["format"] == "CSV"
