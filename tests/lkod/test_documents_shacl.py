"""Every LKOD document the portal writes validates against its norm's SHACL shapes (pySHACL), but for the
violations shacl_support.KNOWN lists with their reasons; that list holds only violations still seen.

Each document (dataset, HVD dataset, series, HVD series, a series' member, the portal's catalog, an
organization's catalog) is written in both norms and both forms, then read back as its consumer reads it
(JSON-LD through the local contexts, or Turtle) and validated against DCAT-AP 3.0, DCAT-AP HVD 3.0 for an HVD
record, and in the 2026-09-23 norm the 2026 Czech shapes too (the 2024-05-28 norm has no shapes of its own).
The catalogs are the documents /lkod/ streams (catalog_stream), not rebuilt here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import ckan.plugins.toolkit as tk
import pytest
from tests.support.lkod_records import CATALOG, HVD_CATEGORY, SERIES_ID, SITE_URL, lkod_record
from rdflib import Graph, URIRef
from tests.support.shacl import (
    CZ_2026_DATASET,
    DCAT_AP_3,
    HVD_3,
    KNOWN,
    SHAPE_SETS,
    Violation,
    known_keys,
    shape_sets_for,
    shapes,
    unexpected,
    violations,
)

from ckanext.passport.lkod import catalog_stream, graph_out, iris, jsonld
from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.norms import NORM_2024, NORM_2026

DRAFT_EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz-2026" / "příklady"
HVD_CATEGORY_PROPERTY = URIRef("http://data.europa.eu/r5r/hvdCategory")


def _series(**overrides: Any) -> dict[str, Any]:
    record = lkod_record(id=SERIES_ID, name="obyvatelstvo-serie", record_kind="series", **overrides)
    record["resources"] = []
    return record


# A dataset and a series in Czech and English (title_en, notes_en, keywords_en), the others in Czech alone.
ENGLISH = {
    "title_en": "Population of municipalities",
    "notes_en": "The population of every Czech municipality.",
    "keywords_en": ["population", "municipalities"],
}
RECORDS: dict[str, Callable[[], dict[str, Any]]] = {
    "dataset (cs, en)": lambda: lkod_record(**ENGLISH),
    "HVD dataset": lambda: lkod_record(hvd_category=HVD_CATEGORY),
    "series (cs, en)": lambda: _series(**ENGLISH),
    "HVD series": lambda: _series(hvd_category=HVD_CATEGORY),
    "series member": lambda: lkod_record(in_series=SERIES_ID),
}
CATALOGS: dict[str, Callable[[], dict[str, Any]]] = {
    "portal catalog": lambda: CATALOG,
    "organization catalog": lambda: {**CATALOG, "iri": iris.organization_catalog_iri("csu"), "title": "ČSÚ"},
}
LISTED = [lkod_record()["id"], SERIES_ID]


@dataclass(frozen=True)
class Document:
    """One document as the portal writes it: what it holds, its norm and its form, read back as a graph."""

    build: Callable[[], Graph]
    shape_sets: tuple[str, ...]


def _record_document(record: Callable[[], dict[str, Any]], norm: str, form: str) -> Callable[[], Graph]:
    def build() -> Graph:
        if form == "JSON-LD":
            return parse_jsonld(json.dumps(jsonld.dataset_document(record(), norm)))
        return Graph().parse(data=jsonld.dataset_turtle(record(), norm), format="turtle")
    return build


def _streamed_catalog(catalog: Callable[[], dict[str, Any]], norm: str, form: str) -> Callable[[], Graph]:
    """The catalog as /lkod/ streams it."""
    def build() -> Graph:
        if form == "JSON-LD":
            return parse_jsonld("".join(catalog_stream.jsonld_chunks(catalog(), iter(LISTED), norm)))
        turtle = "".join(catalog_stream.turtle_chunks(catalog(), iter(LISTED), norm))
        return Graph().parse(data=turtle, format="turtle")
    return build


FORMS = ("JSON-LD", "Turtle")
NORMS = (NORM_2024, NORM_2026)
DOCUMENTS: dict[str, Document] = {
    **{
        f"{norm} {name}, {form}": Document(_record_document(record, norm, form), shape_sets_for(norm, "HVD" in name))
        for norm in NORMS for name, record in RECORDS.items() for form in FORMS
    },
    **{
        f"{norm} {name}, {form}": Document(_streamed_catalog(catalog, norm, form), shape_sets_for(norm, False, True))
        for norm in NORMS for name, catalog in CATALOGS.items() for form in FORMS
    },
}


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, str], list[Violation]]:
    """Every document's violations against each of its shape sets, validated once for the module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(tk.config, "ckan.site_url", SITE_URL)
        found = {}
        for name, document in DOCUMENTS.items():
            graph = document.build()
            for shape_set in document.shape_sets:
                found[(name, shape_set)] = violations(graph, shape_set)
    return found


@pytest.mark.parametrize("document, shape_set", [
    (name, shape_set) for name, document in DOCUMENTS.items() for shape_set in document.shape_sets
])
def test_the_document_has_no_violation_but_the_known_ones(reports, document, shape_set):
    assert [str(violation) for violation in unexpected(reports[(document, shape_set)])] == []


def test_every_known_violation_is_still_seen_in_some_document(reports):
    seen = {violation.key for found in reports.values() for violation in found}
    assert sorted(set(known_keys()) - seen) == []


def test_every_known_violation_has_a_reason_of_one_line():
    assert all(known.reason and "\n" not in known.reason for known in KNOWN)


def test_an_hvd_category_outside_the_eu_list_is_a_violation(monkeypatch):
    """The code lists the portal ships describe the concepts a document names: one outside them is not excused."""
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)
    graph = _record_document(RECORDS["HVD dataset"], NORM_2024, "Turtle")()
    dataset = URIRef(iris.dataset_iri(lkod_record()["id"]))
    graph.remove((dataset, HVD_CATEGORY_PROPERTY, None))
    graph.add((dataset, HVD_CATEGORY_PROPERTY, URIRef("http://data.europa.eu/bna/c_00000000")))

    found = {(violation.key, violation.focus) for violation in unexpected(violations(graph, HVD_3))}

    assert found == {
        ("dcat:DatasetShape dcatap:hvdCategory sh:class", dataset.n3()),
        ("dcat:DatasetShape dcatap:hvdCategory sh:node", dataset.n3()),
    }


def test_the_violations_known_as_the_drafts_own_are_in_the_drafts_own_examples():
    """What we list as the 2026 shapes' fault, their own open-data examples (a dataset, a series) break too."""
    in_examples = {
        violation.key
        for example in ("datová-sada.jsonld", "série-datových-sad.jsonld")
        for violation in violations(
            parse_jsonld((DRAFT_EXAMPLES / example).read_text(encoding="utf-8")), CZ_2026_DATASET
        )
    }
    theirs = {known_key for known in KNOWN if known.drafts_too for known_key in known.keys()}

    assert theirs and sorted(theirs - in_examples) == []


@pytest.mark.parametrize("shape_set", sorted(SHAPE_SETS))
def test_each_shapes_graph_is_read_from_the_copies_in_the_repository(shape_set):
    assert len(shapes(shape_set)) > 100


def test_a_violation_outside_the_known_list_is_reported_with_its_shape_path_and_focus(monkeypatch):
    """The check is not vacuous: a dataset without its title breaks DCAT-AP's sh:minCount, which no reason excuses."""
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)
    graph = _record_document(lkod_record, NORM_2024, "Turtle")()
    dataset = URIRef(iris.dataset_iri(lkod_record()["id"]))
    graph.remove((dataset, graph_out.DCT.title, None))

    [violation] = unexpected(violations(graph, DCAT_AP_3))

    assert (violation.key, violation.focus) == ("dcat:DatasetShape dct:title sh:minCount", dataset.n3())
