"""The DCAT-AP-CZ context is resolved locally: documents naming it parse without the network."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import rdflib

from ckanext.passport.lkod import context

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dcat-ap-cz" / "příklady"
DCAT = rdflib.Namespace("http://www.w3.org/ns/dcat#")
DCT = rdflib.Namespace("http://purl.org/dc/terms/")


def test_the_shipped_context_is_the_official_file_unchanged() -> None:
    official = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dcat-ap-cz" / "kontexty"
    shipped = Path(context.__file__).parent / "context"
    name = "rozhraní-katalogů-otevřených-dat.jsonld"
    assert (shipped / name).read_bytes() == (official / name).read_bytes()


def test_an_official_example_parses_through_the_local_context() -> None:
    data = (EXAMPLES / "datová-sada.jsonld").read_bytes()
    graph = context.parse_jsonld(data)
    dataset = rdflib.URIRef("https://data.gov.cz/lkod/mdcr/datové-sady/vld")
    assert (dataset, rdflib.RDF.type, DCAT.Dataset) in graph
    titles = {(str(t), t.language) for t in graph.objects(dataset, DCT.title)}
    assert ("Jízdní řády veřejné linkové dopravy", "cs") in titles
    assert len(list(graph.objects(dataset, DCAT.distribution))) == 2


def test_a_document_naming_another_remote_context_is_refused_not_fetched() -> None:
    document = {"@context": "https://example.org/other-context.jsonld", "@id": "https://example.org/x"}
    with pytest.raises(context.RemoteContextRefused):
        context.parse_jsonld(json.dumps(document))


def test_text_that_is_not_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        context.parse_jsonld(b"<html>not a catalog</html>")
