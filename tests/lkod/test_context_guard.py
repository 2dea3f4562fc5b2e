"""No JSON-LD context is ever fetched or read from a file: every shape a JSON-LD processor would follow (a string,
an array, ``@import``, a term- or type-scoped ``@context``, nested arrays, a nested node's ``@context``) resolves
to the local DCAT-AP-CZ context or is refused, with one text whatever it points at (no port scanner).

Each test points the reference at a real local server recording every request, at a ``file:`` path whose terms
would change the triples, at a closed port, or at a URL redirecting to that file.
"""
from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any, Callable

import pytest
import rdflib

from ckanext.passport.lkod import context, documents
from tests.support.http_site import Fault

# Terms that would change the document's triples were the context read.
HOSTILE_TERMS = {"@context": {"title": "https://attacker.example/title", "@vocab": "https://attacker.example/"}}
DOCUMENT_URL = "https://lkod.example.cz/catalog"

Shape = Callable[[str], Any]

# Every place a context reference may sit, as a document referring to ``target``.
SHAPES: dict[str, Shape] = {
    "plain string": lambda target: {"@context": target, "@id": "https://x.cz/a", "title": "T"},
    "array": lambda target: {"@context": [context.CONTEXT_URL, target], "@id": "https://x.cz/a", "title": "T"},
    "nested arrays": lambda target: {"@context": [[context.CONTEXT_URL, [target]]], "@id": "https://x.cz/a"},
    "@import": lambda target: {"@context": {"@import": target}, "@id": "https://x.cz/a", "title": "T"},
    "@import in an array": lambda target: {"@context": [context.CONTEXT_URL, {"@import": target, "x": "@id"}]},
    "property-scoped": lambda target: {
        "@context": [context.CONTEXT_URL, {"part": {"@id": "https://x.cz/part", "@context": target}}],
        "@id": "https://x.cz/a", "part": {"title": "T"},
    },
    "type-scoped": lambda target: {
        "@context": [context.CONTEXT_URL, {"Kind": {"@id": "https://x.cz/Kind", "@context": target}}],
        "@id": "https://x.cz/a", "@type": "Kind", "title": "T",
    },
    "scoped @import": lambda target: {
        "@context": {"part": {"@id": "https://x.cz/part", "@context": {"@import": target}}},
        "@id": "https://x.cz/a", "part": {"title": "T"},
    },
    "a nested node's @context": lambda target: {
        "@context": context.CONTEXT_URL, "@id": "https://x.cz/a",
        "datová_sada": [{"@id": "https://x.cz/b", "@context": target, "title": "T"}],
    },
    "a @graph node's @context": lambda target: {"@graph": [{"@context": [target], "@id": "https://x.cz/a"}]},
    "a context wrapping @context": lambda target: {"@context": {"@context": target}, "@id": "https://x.cz/a"},
    "a document that is an array": lambda target: [{"@context": target, "@id": "https://x.cz/a"}],
}


@pytest.fixture(scope="module")
def recorder(tmp_path_factory, serve_site):
    """A local server recording every request, serving the hostile context and a redirect to its file."""
    root = tmp_path_factory.mktemp("contexts")
    (root / "context.jsonld").write_text(json.dumps(HOSTILE_TERMS), "utf-8")
    site = serve_site(root)
    site.fault("/redirect.jsonld", Fault(status=302, location=(root / "context.jsonld").as_uri()))
    return site


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("local") / "context.jsonld"
    path.write_text(json.dumps(HOSTILE_TERMS), "utf-8")
    return path.as_uri()


@pytest.fixture(scope="module")
def closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/context.jsonld"


def refusal(document: Any) -> dict:
    with pytest.raises(documents.DocumentRefused) as refused:
        documents.read_graph(json.dumps(document).encode(), DOCUMENT_URL, "application/ld+json")
    return refused.value.problem.as_dict()


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_context_reference_to_a_server_is_refused_without_a_request(shape: Shape, recorder) -> None:
    recorder.hits.clear()
    found = refusal(shape(f"{recorder.url}/context.jsonld"))
    assert found["code"] == "harvest.lkod_remote_context"
    assert recorder.hits == []


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_context_reference_to_a_local_file_reads_as_a_closed_port_does(shape: Shape, hostile_file,
                                                                         closed_port) -> None:
    assert refusal(shape(hostile_file)) == refusal(shape(closed_port))


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_context_url_redirecting_to_a_file_is_refused_without_a_request(shape: Shape, recorder) -> None:
    recorder.hits.clear()
    assert refusal(shape(f"{recorder.url}/redirect.jsonld"))["code"] == "harvest.lkod_remote_context"
    assert recorder.hits == []


@pytest.mark.parametrize("target", ["server", "file"])
def test_rdflib_itself_cannot_load_a_context(target: str, recorder, hostile_file) -> None:
    """The second line: a document handed to rdflib past the walk still fetches nothing, reads no file."""
    recorder.hits.clear()
    url = f"{recorder.url}/context.jsonld" if target == "server" else hostile_file
    document = {"@context": {"@import": url}, "@id": "https://x.cz/a", "title": "T"}
    with pytest.raises(context.RemoteContextRefused):
        rdflib.Graph().parse(data=json.dumps(document), format="json-ld")
    assert recorder.hits == []


def test_rdflib_still_resolves_the_official_context_to_the_local_copy() -> None:
    document = {"@context": context.CONTEXT_URL, "@id": "https://x.cz/a", "název": "Jízdní řády"}
    graph = rdflib.Graph().parse(data=json.dumps(document), format="json-ld")
    assert (rdflib.URIRef("https://x.cz/a"), rdflib.URIRef("http://purl.org/dc/terms/title"),
            rdflib.Literal("Jízdní řády", lang="cs")) in graph


def test_importing_the_official_context_reads_it_locally_with_the_documents_own_terms() -> None:
    document = {"@context": {"@import": context.CONTEXT_URL, "extra": "https://x.cz/extra"},
                "@id": "https://x.cz/a", "název": "T", "extra": "E"}
    graph = context.parse_jsonld(json.dumps(document))
    subject = rdflib.URIRef("https://x.cz/a")
    assert set(graph.predicate_objects(subject)) == {
        (rdflib.URIRef("http://purl.org/dc/terms/title"), rdflib.Literal("T", lang="cs")),
        (rdflib.URIRef("https://x.cz/extra"), rdflib.Literal("E", lang="cs")),
    }


def test_a_scoped_official_context_is_resolved_locally() -> None:
    document = {"@context": {"part": {"@id": "https://x.cz/part", "@context": context.CONTEXT_URL}},
                "@id": "https://x.cz/a", "part": {"@id": "https://x.cz/b", "název": "T"}}
    graph = context.parse_jsonld(json.dumps(document))
    assert (rdflib.URIRef("https://x.cz/b"), rdflib.URIRef("http://purl.org/dc/terms/title"),
            rdflib.Literal("T", lang="cs")) in graph


def test_reading_a_document_leaves_the_local_context_as_shipped() -> None:
    shipped = json.loads((Path(context.__file__).parent / "context" /
                          "rozhraní-katalogů-otevřených-dat.jsonld").read_text("utf-8"))["@context"]
    document = {"@context": {"@import": context.CONTEXT_URL, "název": "https://x.cz/changed"}, "název": "T"}
    context.parse_jsonld(json.dumps(document))
    rdflib.Graph().parse(data=json.dumps(document), format="json-ld")
    assert context.local_context() == shipped


def test_rdflibs_rdf_xml_parser_requests_no_dtd_nor_entity_and_reads_no_file(recorder, hostile_file) -> None:
    """No reader hands RDF/XML to rdflib; were one to, its parser (expat) loads no DTD and expands no external
    entity, from a server or a file."""
    recorder.hits.clear()
    document = (f'<?xml version="1.0"?><!DOCTYPE rdf:RDF SYSTEM "{recorder.url}/dtd" ['
                f'<!ENTITY remote SYSTEM "{recorder.url}/entity"><!ENTITY local SYSTEM "{hostile_file}">]>'
                '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="https://x.cz/">'
                '<rdf:Description rdf:about="https://x.cz/a"><ex:p>&remote;&local;</ex:p></rdf:Description>'
                '</rdf:RDF>')
    graph = rdflib.Graph().parse(data=document, format="xml")
    assert "attacker" not in " ".join(str(value) for value in graph.objects())
    assert recorder.hits == []
