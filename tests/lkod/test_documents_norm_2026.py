"""The LKOD documents in the 2026-09-23 norm beside 2024-05-28: the same records, the 2026 contexts and
legislation (lkod.norms), each document valid against the 2026 drafts' JSON Schemas; series and their members
in both norms."""
from __future__ import annotations

import json

import ckan.plugins.toolkit as tk
import pytest
from tests.support.lkod_records import CATALOG, HVD_CATEGORY, SERIES_ID, SITE_URL, lkod_record
from tests.support.schema_registry import errors as errors_2024
from rdflib import RDF, URIRef
from rdflib.compare import isomorphic
from tests.support.schema_registry_2026 import EXAMPLES, errors

from ckanext.passport.lkod import iris, jsonld, norms, series
from ckanext.passport.lkod.graph_out import DCAT
from ckanext.passport.lkod.context import CONTEXT_URL, parse_jsonld
from ckanext.passport.lkod.norms import NORM_2024, NORM_2026, Kind

ELI_106 = "https://www.e-sbirka.cz/eli/cz/sb/1999/106/2025-08-19"
ELI_5B = ELI_106 + "/dokument/norma/cast_1/par_5b"
ELI_HVD = "http://data.europa.eu/eli/reg_impl/2023/138/oj"


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)


def series_record(**overrides):
    record = lkod_record(id=SERIES_ID, name="obyvatelstvo-serie", record_kind="series", **overrides)
    record["resources"] = []
    return record


def member_record(**overrides):
    return lkod_record(in_series=SERIES_ID, **overrides)


@pytest.mark.parametrize(
    "example, kind",
    [("datová-sada.jsonld", Kind.DATASET), ("datová-sada-hvd.jsonld", Kind.HVD_DATASET),
     ("série-datových-sad.jsonld", Kind.SERIES), ("datová-sada-v-sérii.jsonld", Kind.DATASET),
     ("katalog.jsonld", Kind.CATALOG)],
)
def test_the_drafts_examples_validate_against_the_local_2026_schemas(example, kind):
    assert errors(kind, json.loads((EXAMPLES / example).read_text(encoding="utf-8"))) == []


def test_a_dataset_in_2026_validates_and_names_the_dated_open_data_context():
    document = jsonld.dataset_document(lkod_record(), NORM_2026)
    assert document["@context"] == "https://ofn.gov.cz/dcat-ap-cz-otevřená-data/2026-09-23/datová-sada/kontext.jsonld"
    assert errors(Kind.DATASET, document) == []


def test_a_dataset_in_2026_names_zakon_106_on_itself_each_distribution_and_service():
    document = jsonld.dataset_document(lkod_record(), NORM_2026)
    file, service = document["distribuce"]
    assert document["právní_předpis"] == [ELI_106]
    assert file["právní_předpis"] == [ELI_106]
    assert service["právní_předpis"] == [ELI_106]
    assert service["přístupová_služba"]["právní_předpis"] == [ELI_106]


def test_an_hvd_dataset_in_2026_adds_paragraph_5b_and_the_eu_regulation_and_validates_as_hvd():
    document = jsonld.dataset_document(lkod_record(hvd_category=HVD_CATEGORY), NORM_2026)
    assert document["@context"] == "https://ofn.gov.cz/dcat-ap-cz-hvd/2026-09-23/datová-sada/kontext.jsonld"
    assert sorted(document["právní_předpis"]) == sorted([ELI_106, ELI_5B, ELI_HVD])
    assert all(sorted(part["právní_předpis"]) == sorted([ELI_106, ELI_5B, ELI_HVD]) for part in document["distribuce"])
    assert errors(Kind.HVD_DATASET, document) == []


def test_the_2024_document_stays_as_it_was_without_zakon_106():
    document = jsonld.dataset_document(lkod_record())
    assert document["@context"] == CONTEXT_URL
    assert "právní_předpis" not in document
    assert errors_2024("datová-sada.json", document) == []


def test_a_2026_document_reads_back_to_the_same_graph_as_the_2024_one_but_the_legislation():
    record = lkod_record(hvd_category=HVD_CATEGORY)
    old = parse_jsonld(json.dumps(jsonld.dataset_document(record)))
    new = parse_jsonld(json.dumps(jsonld.dataset_document(record, NORM_2026)))
    for graph in (old, new):
        graph.remove((None, norms.APPLICABLE_LEGISLATION, None))
        graph.remove((None, DCAT.endpointDescription, None))
    assert isomorphic(old, new)


def test_the_catalog_header_in_2026_validates_against_the_catalog_interface_schema():
    header = jsonld.catalog_header(CATALOG, NORM_2026)
    document = {**header, "datová_sada": [iris.dataset_iri(lkod_record()["id"])]}
    assert header["@context"] == "https://ofn.gov.cz/dcat-ap-cz-rozhraní-katalogů-dat/2026-09-23/katalog/kontext.jsonld"
    assert errors(Kind.CATALOG, document) == []


def test_turtle_in_2026_carries_the_legislation_too():
    assert ELI_106 in jsonld.dataset_turtle(lkod_record(), NORM_2026)
    assert ELI_106 not in jsonld.dataset_turtle(lkod_record(), NORM_2024)


def test_an_unknown_norm_is_refused_naming_itself():
    with pytest.raises(norms.UnknownNorm):
        norms.checked("2025-01-01")
    assert norms.checked("") == norms.DEFAULT == NORM_2024


# --- series ----------------------------------------------------------------------------------------------------


def test_a_series_in_2024_is_a_datova_serie_without_distributions_and_validates():
    document = jsonld.dataset_document(series_record())
    assert document["typ"] == "Datová série"
    assert "distribuce" not in document
    assert errors_2024("datová-série.json", document) == []


def test_a_series_in_2026_is_a_serie_datovych_sad_in_its_context_and_validates():
    document = jsonld.dataset_document(series_record(), NORM_2026)
    assert document["typ"] == "Série datových sad"
    assert document["@context"] == norms.context_url(NORM_2026, Kind.SERIES)
    assert errors(Kind.SERIES, document) == []


def test_an_hvd_series_in_2026_validates_against_the_hvd_series_schema():
    document = jsonld.dataset_document(series_record(hvd_category=HVD_CATEGORY), NORM_2026)
    assert document["@context"] == norms.context_url(NORM_2026, Kind.HVD_SERIES)
    assert errors(Kind.HVD_SERIES, document) == []


@pytest.mark.parametrize("norm", norms.NORMS)
def test_a_member_points_to_its_series_iri_in_both_norms(norm):
    document = jsonld.dataset_document(member_record(), norm)
    assert document["je_součástí"] == iris.dataset_iri(SERIES_ID)


def test_a_member_validates_in_both_norms():
    assert errors_2024("datová-sada.json", jsonld.dataset_document(member_record())) == []
    assert errors(Kind.DATASET, jsonld.dataset_document(member_record(), NORM_2026)) == []


@pytest.mark.parametrize("norm", norms.NORMS)
def test_a_series_document_reads_back_as_a_dcat_dataset_series(norm):
    graph = parse_jsonld(json.dumps(jsonld.dataset_document(series_record(), norm)))
    assert set(graph.objects(URIRef(iris.dataset_iri(SERIES_ID)), RDF.type)) == {series.DATASET_SERIES}


@pytest.mark.parametrize("example", ["datová-sada-hvd.jsonld", "série-datových-sad.jsonld", "katalog.jsonld"])
def test_the_drafts_examples_are_read_through_the_local_contexts_by_their_draft_url(example):
    document = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    assert "/draft/" in document["@context"]
    assert len(parse_jsonld(json.dumps(document))) > 10


def test_a_2026_document_under_its_dated_url_reads_as_under_the_draft_url():
    document = json.loads((EXAMPLES / "datová-sada-hvd.jsonld").read_text(encoding="utf-8"))
    dated = dict(document, **{"@context": norms.context_url(NORM_2026, Kind.HVD_DATASET)})
    assert isomorphic(parse_jsonld(json.dumps(document)), parse_jsonld(json.dumps(dated)))
