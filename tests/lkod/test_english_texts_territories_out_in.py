"""The record's English texts, several territorial units and HVD category in the 2024-05-28 LKOD documents: written
(@en beside @cs, one RÚIAN IRI per unit), valid against the norm's schemas, and read back by graph_in (the ``lkod``
harvester's path). Pure: no database."""
from __future__ import annotations

import json

import ckan.plugins.toolkit as tk
import pytest
import rdflib
from ckanext.dcat.processors import RDFParser
from tests.support.lkod_records import HVD_CATEGORY, SITE_URL, lkod_fields, lkod_record
from rdflib import Literal, URIRef
from tests.support.schema_registry import errors

from ckanext.passport.lkod import eligibility, graph_out, iris, jsonld
from ckanext.passport.lkod.context import parse_jsonld

ENGLISH = {
    "title_en": "Population of municipalities",
    "notes_en": "Population of every Czech municipality.",
    "keywords_en": ["population", "municipalities"],
}
PRAGUE, BRNO, OSTRAVA_REGION = "CZ010", "CZ0642", "CZ080"
MOBILITY = "http://data.europa.eu/bna/c_b79e35eb"


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)


def read_back(graph: rdflib.Graph) -> dict:
    parser = RDFParser(profiles=["dcat_ap_cz"])
    parser.g = graph
    (dataset,) = parser.datasets()
    return dataset


def from_jsonld(document: dict) -> dict:
    return read_back(parse_jsonld(json.dumps(document)))


def from_turtle(record: dict) -> dict:
    return read_back(rdflib.Graph().parse(data=jsonld.dataset_turtle(record), format="turtle"))


# --- English texts -------------------------------------------------------------------------------------


def test_the_english_texts_are_written_as_en_beside_the_czech_ones_in_json_ld():
    document = jsonld.dataset_document(lkod_record(**ENGLISH))
    assert document["název"] == {"cs": lkod_record()["title"], "en": ENGLISH["title_en"]}
    assert document["popis"] == {"cs": lkod_record()["notes"], "en": ENGLISH["notes_en"]}
    assert document["klíčové_slovo"]["en"] == ENGLISH["keywords_en"]
    assert sorted(document["klíčové_slovo"]["cs"]) == ["obce", "obyvatelstvo"]


def test_the_english_texts_are_written_as_en_literals_in_turtle():
    record = lkod_record(**ENGLISH)
    graph = rdflib.Graph().parse(data=jsonld.dataset_turtle(record), format="turtle")
    dataset = URIRef(iris.dataset_iri(record["id"]))
    assert (dataset, graph_out.DCT.title, Literal(ENGLISH["title_en"], lang="en")) in graph
    assert (dataset, graph_out.DCT.description, Literal(ENGLISH["notes_en"], lang="en")) in graph
    assert {str(k) for k in graph.objects(dataset, graph_out.DCAT.keyword) if k.language == "en"} == {
        "population", "municipalities"
    }


def test_a_record_without_english_texts_writes_czech_ones_only():
    document = jsonld.dataset_document(lkod_record())
    assert set(document["název"]) == set(document["popis"]) == set(document["klíčové_slovo"]) == {"cs"}


def test_an_english_record_does_not_write_its_english_fields_beside_its_own_english_texts():
    document = jsonld.dataset_document(lkod_record(record_language="en", title="Population", **ENGLISH))
    assert document["název"] == {"en": "Population"}


def test_the_document_with_english_texts_validates_against_the_dataset_schema():
    assert errors("datová-sada.json", jsonld.dataset_document(lkod_record(**ENGLISH))) == []


@pytest.mark.parametrize("read", [from_jsonld, lambda record: from_turtle(record)], ids=["json-ld", "turtle"])
def test_the_english_texts_are_read_back_in_both_serializations(read):
    record = lkod_record(**ENGLISH)
    dataset = read(jsonld.dataset_document(record) if read is from_jsonld else record)
    assert {field: dataset[field] for field in ENGLISH} | {"keywords_en": sorted(dataset["keywords_en"])} == {
        **ENGLISH, "keywords_en": sorted(ENGLISH["keywords_en"])
    }
    assert dataset["title"] == record["title"]  # the Czech text stays the title


def test_the_whole_record_with_english_texts_and_several_units_comes_back_equal():
    record = lkod_record(spatial_area=[PRAGUE, OSTRAVA_REGION], **ENGLISH)
    dataset = from_jsonld(jsonld.dataset_document(record))
    assert dataset == lkod_fields(record)


def test_a_document_without_english_texts_clears_them_on_the_record():
    dataset = from_jsonld(jsonld.dataset_document(lkod_record()))
    assert (dataset["title_en"], dataset["notes_en"], dataset["keywords_en"]) == ("", "", [])


# --- several territorial units ---------------------------------------------------------------------------


def test_each_territorial_unit_is_written_as_its_ruian_iri():
    document = jsonld.dataset_document(lkod_record(spatial_area=[PRAGUE, OSTRAVA_REGION]))
    assert sorted(document["prvek_rúian"]) == sorted([iris.territory_iri(PRAGUE), iris.territory_iri(OSTRAVA_REGION)])


def test_two_districts_of_one_region_are_written_as_that_region_once():
    document = jsonld.dataset_document(lkod_record(spatial_area=[BRNO, "CZ0643"]))
    assert document["prvek_rúian"] == [iris.territory_iri("CZ064")]


def test_a_record_stored_with_one_code_is_written_as_that_unit():
    document = jsonld.dataset_document(lkod_record(spatial_area=PRAGUE))
    assert document["prvek_rúian"] == [iris.territory_iri(PRAGUE)]


def test_several_units_are_read_back_each_once():
    document = jsonld.dataset_document(lkod_record(spatial_area=[PRAGUE, OSTRAVA_REGION]))
    document["prvek_rúian"].append(iris.territory_iri(PRAGUE))
    assert sorted(from_jsonld(document)["spatial_area"]) == sorted([PRAGUE, OSTRAVA_REGION])


def test_the_document_with_several_units_validates_against_the_dataset_schema():
    document = jsonld.dataset_document(lkod_record(spatial_area=[PRAGUE, OSTRAVA_REGION], **ENGLISH))
    assert errors("datová-sada.json", document) == []


def test_a_record_with_one_known_unit_among_several_is_listed():
    assert eligibility.reasons(lkod_record(spatial_area=["CZ9999", PRAGUE])) == []


def test_a_record_whose_units_have_no_ruian_iri_is_left_out_for_its_territory():
    found = eligibility.reasons(lkod_record(spatial_area=["CZ9999"]))
    assert [(item.code, item.params.get("field")) for item in found] == [("lkod.missing_field", "spatial_area")]


# --- HVD category ----------------------------------------------------------------------------------------


def test_the_hvd_document_with_english_texts_validates_against_the_hvd_schema():
    document = jsonld.dataset_document(lkod_record(hvd_category=HVD_CATEGORY, **ENGLISH))
    assert document["kategorie_hvd"] == [HVD_CATEGORY]
    assert errors("datová-sada-hvd.json", document) == []


def test_a_top_category_named_beside_a_sub_category_is_not_the_one_read():
    document = jsonld.dataset_document(lkod_record(hvd_category=HVD_CATEGORY))
    document["kategorie_hvd"] = [MOBILITY, HVD_CATEGORY]
    assert from_jsonld(document)["hvd_category"] == HVD_CATEGORY
