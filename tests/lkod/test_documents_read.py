"""Reading an LKOD document never raises: whatever a third party serves, the reader gives a graph or one coded
refusal; nesting past the depth budget is refused before rdflib recurses, a document past its size cap before it is
parsed, and a failure nobody foresaw is named by its class, never by its text."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import rdflib
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ckanext.passport.lkod import context, documents, norms

EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz" / "příklady"
URL = "https://lkod.example.cz/datové-sady/vld"
VLD = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
# Replaced by the URL of a local server recording requests: no mutation may make the reader call it.
RECORDER = "http://recorder.invalid/context.jsonld"
CODES = {"harvest.lkod_not_rdf", "harvest.lkod_remote_context", "harvest.lkod_too_deep", "harvest.lkod_unreadable",
         "harvest.lkod_no_dataset", "harvest.lkod_series", "harvest.lkod_unreadable_dataset", "fetch.too_large"}


def refused(data: bytes, content_type: str = "application/ld+json", **options: Any) -> dict:
    with pytest.raises(documents.DocumentRefused) as refusal:
        documents.read_graph(data, URL, content_type, **options)
    return refusal.value.problem.as_dict()


def nested(depth: int) -> dict:
    """A node object nesting ``depth`` objects (each its own level) under the official context."""
    node: dict = {"@id": "https://x.cz/leaf"}
    for level in range(depth - 1):
        node = {"@id": f"https://x.cz/{level}", "https://x.cz/p": node}
    return {"@context": context.CONTEXT_URL, **node}


def test_nesting_within_the_depth_budget_is_read() -> None:
    graph = documents.read_graph(json.dumps(nested(context.MAX_DEPTH)).encode(), URL, "application/ld+json")
    assert len(graph) == context.MAX_DEPTH - 1


def test_nesting_past_the_depth_budget_is_refused_before_rdflib_reads_it() -> None:
    found = refused(json.dumps(nested(context.MAX_DEPTH + 1)).encode())
    assert (found["code"], found["params"]) == ("harvest.lkod_too_deep", {"limit": context.MAX_DEPTH})


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_json_nested_a_hundred_thousand_deep_is_refused_as_too_deep(opening: str, closing: str) -> None:
    data = (opening * 100_000 + "1" + closing * 100_000).encode()
    assert refused(data)["code"] == "harvest.lkod_too_deep"


def test_turtle_nested_thousands_deep_is_refused_as_too_deep() -> None:
    data = b"@prefix : <https://x.cz/> . :a :p " + b"[ :p " * 5000 + b"1" + b" ]" * 5000 + b" ."
    assert refused(data, "text/turtle")["code"] == "harvest.lkod_too_deep"


def test_a_document_past_its_size_cap_is_refused_before_parsing() -> None:
    data = (EXAMPLES / "datová-sada.jsonld").read_bytes()
    found = refused(data, limit=len(data) - 1)
    assert (found["code"], found["params"]) == ("fetch.too_large", {"limit": len(data) - 1})


def test_a_document_at_its_size_cap_is_read() -> None:
    data = (EXAMPLES / "datová-sada.jsonld").read_bytes()
    graph = documents.read_graph(data, URL, "application/ld+json", limit=len(data))
    assert (rdflib.URIRef(VLD), rdflib.RDF.type, rdflib.URIRef("http://www.w3.org/ns/dcat#Dataset")) in graph


@pytest.mark.parametrize("document", [5, "x", None, True], ids=repr)
def test_json_that_is_no_object_nor_array_is_not_rdf(document: Any) -> None:
    found = refused(json.dumps(document).encode())
    assert found["code"] == "harvest.lkod_not_rdf"
    assert found["params"]["detail"].startswith("ContextInvalid")


@pytest.mark.parametrize("value", [5, True, {"@import": 5}], ids=repr)
def test_a_context_of_a_type_json_ld_does_not_allow_is_not_rdf(value: Any) -> None:
    found = refused(json.dumps({"@context": value, "@id": "https://x.cz/a"}).encode())
    assert found["code"] == "harvest.lkod_not_rdf"
    assert found["params"]["detail"].startswith("ContextInvalid")


def test_a_failure_nobody_foresaw_is_named_by_its_class_not_its_text() -> None:
    # rdflib raises a TypeError on a @vocab that is not text.
    found = refused(json.dumps({"@context": {"@vocab": 5}, "@id": "https://x.cz/a", "t": "x"}).encode())
    assert (found["code"], found["params"]) == ("harvest.lkod_unreadable", {"error": "TypeError"})


@pytest.mark.parametrize("document", [
    {"@context": context.CONTEXT_URL, "@graph": "x"},
    {"@context": context.CONTEXT_URL, "@graph": 5},
    {"@context": context.CONTEXT_URL, "@id": 5, "název": "T"},
    {"@context": context.CONTEXT_URL, "@id": "http://[x/", "název": "T"},
    {"@context": context.CONTEXT_URL, "@id": "https://x.cz/a", "@reverse": 5},
    {"@context": context.CONTEXT_URL, "@id": "https://x.cz/a", "název": {"@value": "x", "@language": 5}},
], ids=["@graph text", "@graph number", "@id number", "invalid IRI", "@reverse number", "@language number"])
def test_wrong_types_give_a_graph_or_a_coded_refusal(document: dict) -> None:
    try:
        documents.read_graph(json.dumps(document).encode(), URL, "application/ld+json")
    except documents.DocumentRefused as refusal:
        assert refusal.problem.code in CODES


def test_a_huge_literal_is_read() -> None:
    document = json.loads((EXAMPLES / "datová-sada.jsonld").read_bytes())
    document["popis"] = {"cs": "x" * 1_500_000}
    dataset = documents.parse_dataset(json.dumps(document).encode(), URL, "application/ld+json", VLD)
    assert len(dataset["notes"]) == 1_500_000


# --- property: any mutation of a real document reads, or is refused with a code -----------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(["@context", "@import", "@graph", "@id", "@type", context.CONTEXT_URL, "http://[x/",
                       RECORDER, "file:///etc/passwd"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["@context", "@import", "@graph", "@id", "@type", "@value", "@language",
                                       "@list", "@reverse", "@vocab", "název", "klíčové_slovo", "x"]),
                      children, max_size=4),
    max_leaves=20,
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


def _replaced(document: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    copied = dict(document) if isinstance(document, dict) else list(document)
    copied[head] = _replaced(document[head], rest, value)
    return copied


EXAMPLE = json.loads((EXAMPLES / "datová-sada.jsonld").read_bytes())


@pytest.fixture(scope="module")
def recorder(tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("recorder")
    (root / "context.jsonld").write_text(json.dumps({"@context": {"název": "https://attacker.example/"}}), "utf-8")
    return serve_site(root)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(_paths(EXAMPLE)), value=JSON)
def test_a_mutated_real_dataset_document_reads_or_is_refused_with_a_code_and_fetches_nothing(
    recorder, path: tuple, value: Any
) -> None:
    data = json.dumps(_replaced(EXAMPLE, path, value)).replace(RECORDER, f"{recorder.url}/context.jsonld").encode()
    started = time.monotonic()
    try:
        documents.parse_dataset(data, URL, "application/ld+json", VLD)
    except documents.DocumentRefused as refusal:
        assert refusal.problem.code in CODES
    assert time.monotonic() - started < 10
    assert recorder.hits == []


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_garbage_reads_or_is_refused_with_a_code(data: bytes) -> None:
    for content_type in ("application/ld+json", "text/turtle"):
        try:
            documents.read_graph(data, URL, content_type)
        except documents.DocumentRefused as refusal:
            assert refusal.problem.code in CODES


# --- a catalog document: the plain shape is read without rdflib, to the same IRIs -------------------------------

CATALOG = "https://lkod.example.cz/katalog"


def plain_catalog(iris: list) -> dict:
    return {"@context": context.CONTEXT_URL, "iri": CATALOG, "typ": "Katalog", "název": {"cs": "Katalog"},
            "poskytovatel": "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/66003008",
            "datová_sada": iris}


def through_rdflib(document: Any) -> tuple[list[str], list[str]]:
    graph = documents.read_graph(json.dumps(document).encode(), CATALOG, "application/ld+json")
    subject = documents.catalog_subject(graph, CATALOG, CATALOG)
    iris, problems = documents.listed_datasets(graph, subject, CATALOG) if subject is not None else ([], [])
    return iris, [found.code for found in problems]


def test_an_nkod_size_plain_catalog_is_read_within_seconds() -> None:
    iris = [f"https://data.example.cz/lkod/datové-sady/{number:08d}-datová-sada" for number in range(280_000)]
    data = json.dumps(plain_catalog(iris), ensure_ascii=False).encode()
    started = time.monotonic()
    listed, problems = documents.read_catalog(data, CATALOG, "application/ld+json", CATALOG, limit=len(data))
    assert (len(listed), problems) == (280_000, [])
    assert time.monotonic() - started < 30  # rdflib: about 50 s and 600 MB on the development machine


def mostly(plain: Any, *others: Any) -> st.SearchStrategy:
    """``plain`` most of the time, else one of ``others``."""
    return st.sampled_from([plain] * (2 * len(others)) + list(others))


CATALOG_2026 = norms.context_url(norms.NORM_2026, norms.Kind.CATALOG)
NEAR_PLAIN = st.fixed_dictionaries({
    "@context": mostly(context.CONTEXT_URL, [context.CONTEXT_URL], {"@vocab": "http://www.w3.org/ns/dcat#"},
                       CATALOG_2026, [CATALOG_2026]),
    "iri": mostly(CATALOG, "https://elsewhere.example/", 5),
    "typ": mostly("Katalog", "Datová sada", ["Katalog"]),
    "datová_sada": st.lists(mostly("https://x.cz/a", "https://x.cz/b ", "http://x.cz/c", "x.cz/rel", "dcat:thing",
                                   "_:b0", "", {"iri": "https://x.cz/d"}, 5), max_size=4)
    | st.sampled_from(["https://x.cz/a", 5]),
}, optional={
    "dataset": st.just("https://x.cz/vocab"),
    "dcat:dataset": st.just(["https://x.cz/e"]),
    "kontaktní_bod": st.sampled_from([{"typ": "Organizace", "e-mail": "a@x.cz"}, {"e-mail": "a@x.cz"},
                                      {"datová_sada": "https://x.cz/f"}, {"@context": {"x": "@id"}}]),
    "@graph": st.just([{"iri": "https://x.cz/g", "typ": "Katalog"}]),
})


@settings(max_examples=300, deadline=None)
@given(NEAR_PLAIN)
@example({"@context": context.CONTEXT_URL, "iri": CATALOG, "typ": "Katalog", "datová_sada": ["https://x.cz/b "]})
def test_a_catalog_document_lists_the_iris_rdflib_finds_in_it(document: dict) -> None:
    try:
        expected = through_rdflib(document)
    except documents.DocumentRefused as refusal:
        expected = refusal.problem.code
    try:
        listed, problems = documents.read_catalog(json.dumps(document).encode(), CATALOG, "application/ld+json",
                                                  CATALOG)
        found: Any = (listed, [problem.code for problem in problems])
    except documents.DocumentRefused as refusal:
        found = refusal.problem.code
    if expected == ([], []) and found == "harvest.lkod_no_catalog":
        return  # no catalog subject: read_catalog says so, the comparison above found none either
    assert found == expected
