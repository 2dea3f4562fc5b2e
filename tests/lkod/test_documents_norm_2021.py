"""Documents in the norms before 2024-05-28 read as their 2024 counterparts: the 2021-01-11 context (whose
``je_součástí`` is dcterms:isPartOf, the same link as 2024's dcat:inSeries), the earlier draft URL, and expanded
JSON-LD with no context; each document in its own norm, no context ever fetched."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import rdflib
from hypothesis import given, settings
from hypothesis import strategies as st

from ckanext.passport.lkod import documents, norms

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXAMPLES_2021 = FIXTURES / "dcat-ap-cz-2021" / "příklady"
EXAMPLES_2024 = FIXTURES / "dcat-ap-cz" / "příklady"
VLD = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
MEMBER = "https://data.gov.cz/lkod/mdcr/datové-sady/rozpočet/2019"
SERIES = "https://data.gov.cz/lkod/mdcr/datové-série/rozpočet"
JSON_LD = "application/ld+json"
# The 2024-05-28 terms 2021-01-11 has not: a document rewritten to 2021 leaves them out.
ONLY_2024 = ("právní_předpis", "kategorie_hvd")


def read(document: Any, iri: str = VLD) -> tuple[dict, str]:
    data = document if isinstance(document, bytes) else json.dumps(document, ensure_ascii=False).encode()
    return documents.read_dataset(data, iri, JSON_LD, iri)


def example_2024(name: str) -> dict:
    return json.loads((EXAMPLES_2024 / name).read_text("utf-8"))


def in_2021(document: Any) -> Any:
    """``document`` (2024-05-28) as a 2021-01-11 generator writes it: the 2021 context, no 2024-only term."""
    if isinstance(document, list):
        return [in_2021(item) for item in document]
    if not isinstance(document, dict):
        return document
    rewritten = {key: in_2021(value) for key, value in document.items() if key not in ONLY_2024}
    if "@context" in rewritten:
        rewritten["@context"] = norms.CONTEXT_2021
    return rewritten


def test_the_official_2021_example_reads_into_the_record_of_its_2024_counterpart() -> None:
    old, old_norm = read((EXAMPLES_2021 / "datová-sada.jsonld").read_bytes())
    new, new_norm = read((EXAMPLES_2024 / "datová-sada.jsonld").read_bytes())

    assert (old_norm, new_norm) == (norms.NORM_2021, norms.NORM_2024)
    assert old["title"] == new["title"] == "Jízdní řády veřejné linkové dopravy"
    assert old["keywords_en"] == new["keywords_en"] and old["tags"] == new["tags"]
    assert old["resources"] == new["resources"] and len(old["resources"]) == 2
    assert [r["use_author_work"] for r in old["resources"]] == ["cc-by-4.0", "no-copyright-work"]
    assert old == new


def test_2021_je_soucasti_is_the_series_link_2024_calls_in_series() -> None:
    member_2024 = example_2024("datová-sada-v-sérii.jsonld")

    old, norm = read(in_2021(member_2024), MEMBER)

    assert norm == norms.NORM_2021
    assert old["in_series"] == SERIES
    assert old == read(member_2024, MEMBER)[0]


def test_the_draft_url_reads_as_2024() -> None:
    document = dict(example_2024("datová-sada-v-sérii.jsonld"), **{"@context": norms.CONTEXT_DRAFT})

    dataset, norm = read(document, MEMBER)

    assert norm == norms.DRAFT
    assert dataset == read(example_2024("datová-sada-v-sérii.jsonld"), MEMBER)[0]


def test_expanded_json_ld_with_no_context_reads_as_the_2021_document_it_expands() -> None:
    """What NKOD's registration form produced: full IRIs, language-tagged values, its own type beside dcat's."""
    text = (EXAMPLES_2021 / "datová-sada.jsonld").read_text("utf-8")
    graph = documents.read_graph(text.encode(), VLD, JSON_LD)
    graph.add((rdflib.URIRef(VLD), rdflib.RDF.type, rdflib.URIRef("https://data.gov.cz/slovník/nkod/typ-formuláře")))
    expanded = json.loads(graph.serialize(format="json-ld"))

    dataset, norm = read(expanded)

    assert norm == norms.EXPANDED
    assert "@context" not in json.dumps(expanded)
    assert dataset == read(text.encode())[0]


def test_a_2021_catalog_lists_its_datasets_and_says_its_norm() -> None:
    data = (EXAMPLES_2021 / "katalog.jsonld").read_bytes()
    iri = json.loads(data)["iri"]

    read_catalog = documents.catalog_document(data, iri, JSON_LD, iri)

    assert read_catalog.norm == norms.NORM_2021
    assert VLD in read_catalog.iris and read_catalog.problems == read_catalog.warnings == []


def test_a_catalog_whose_iri_is_another_address_is_read_with_a_warning() -> None:
    data = (EXAMPLES_2021 / "katalog.jsonld").read_bytes()
    url = "https://data.kraj.example/lkod/katalog.jsonld"

    read_catalog = documents.catalog_document(data, url, JSON_LD, url)

    assert VLD in read_catalog.iris
    assert [found.code for found in read_catalog.warnings] == ["harvest.lkod_catalog_elsewhere"]
    assert read_catalog.problems == []


def test_a_turtle_document_says_it_names_no_norm() -> None:
    _, norm = documents.read_dataset((EXAMPLES_2021 / "datová-sada.ttl").read_bytes(), VLD, "text/turtle", VLD)

    assert norm == norms.TURTLE


def test_a_document_of_another_countrys_profile_is_a_coded_refusal() -> None:
    slovak = {"@context": "https://data.slovensko.sk/dcat-ap-sk/kontext.jsonld", "iri": VLD, "typ": "Katalóg"}

    try:
        read(slovak)
    except documents.DocumentRefused as refused:
        assert refused.problem.code == "harvest.lkod_remote_context"
    else:
        raise AssertionError("a DCAT-AP-SK document was read")


def test_a_dataset_document_that_is_not_json_is_named_by_line_and_column() -> None:
    text = (EXAMPLES_2021 / "datová-sada.jsonld").read_bytes()[:400]

    try:
        read(text)
    except documents.DocumentRefused as refused:
        assert refused.problem.code == "harvest.lkod_not_rdf"
        assert "line " in refused.problem.params["detail"] and "column " in refused.problem.params["detail"]
    else:
        raise AssertionError("a truncated document was read")


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30).map(
    str.strip
).filter(bool)


@st.composite
def documents_2024(draw: st.DrawFn) -> dict:
    """A 2024-05-28 dataset document in the vocabulary 2021 shares: an official example, its texts, keywords,
    distributions and series link varied."""
    document = copy.deepcopy(example_2024(draw(st.sampled_from(["datová-sada.jsonld", "datová-sada-v-sérii.jsonld"]))))
    document["název"] = {"cs": draw(_TEXT), **({"en": draw(_TEXT)} if draw(st.booleans()) else {})}
    document["klíčové_slovo"] = {"cs": draw(st.lists(_TEXT, min_size=1, max_size=4, unique=True))}
    distributions = document.get("distribuce", [])
    document["distribuce"] = draw(st.lists(st.sampled_from(distributions), max_size=len(distributions), unique_by=id))
    if not document["distribuce"]:
        del document["distribuce"]
    if draw(st.booleans()):
        document["je_součástí"] = SERIES
    else:
        document.pop("je_součástí", None)
    return document


@settings(max_examples=60, deadline=None)
@given(documents_2024())
def test_a_2024_document_rewritten_to_2021_reads_into_the_same_record(document: dict) -> None:
    iri = document["iri"]

    new, _ = read(document, iri)
    old, norm = read(in_2021(document), iri)

    assert norm == norms.NORM_2021
    assert old == new
