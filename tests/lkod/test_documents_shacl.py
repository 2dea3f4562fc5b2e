"""Every LKOD document the portal writes validates against its norm's SHACL shapes (pySHACL), but for the
violations shacl_support.KNOWN lists with their reasons; that list holds only violations still seen.

The documents are read back as their consumer reads them (JSON-LD through the local context, or Turtle) and
validated against DCAT-AP 3.0 (and DCAT-AP HVD 3.0 for an HVD record): the 2024-05-28 norm is a DCAT-AP profile
without shapes of its own.
"""
from __future__ import annotations

import json
from typing import Callable

import ckan.plugins.toolkit as tk
import pytest
from lkod_records import HVD_CATEGORY, SITE_URL, lkod_record
from rdflib import Graph, URIRef
from shacl_support import DCAT_AP_3, HVD_3, KNOWN, SHAPE_SETS, Violation, known_keys, shapes, unexpected, violations

from ckanext.passport.lkod import graph_out, iris, jsonld
from ckanext.passport.lkod.context import parse_jsonld

CATALOG = {
    "title": "Katalog otevřených dat portálu",
    "description": "Lokální katalog otevřených dat.",
    "publisher_ico": "00025593",
    "contact_email": "opendata@example.cz",
    "homepage": "https://data.example.cz/",
}


def _dataset_jsonld(**overrides) -> Graph:
    return parse_jsonld(json.dumps(jsonld.dataset_document(lkod_record(**overrides))))


def _dataset_turtle(**overrides) -> Graph:
    return Graph().parse(data=jsonld.dataset_turtle(lkod_record(**overrides)), format="turtle")


def _catalog_jsonld() -> Graph:
    document = {**jsonld.catalog_header(CATALOG), "datová_sada": [iris.dataset_iri(lkod_record()["id"])]}
    return parse_jsonld(json.dumps(document))


def _catalog_turtle() -> Graph:
    graph = Graph().parse(data=jsonld.catalog_header_turtle(CATALOG), format="turtle")
    graph.add((URIRef(iris.catalog_iri()), graph_out.DCAT.dataset, URIRef(iris.dataset_iri(lkod_record()["id"]))))
    return graph


# document -> (how it is built, the shape sets it is validated against)
DOCUMENTS: dict[str, tuple[Callable[[], Graph], tuple[str, ...]]] = {
    "2024 dataset, JSON-LD": (_dataset_jsonld, (DCAT_AP_3,)),
    "2024 dataset, Turtle": (_dataset_turtle, (DCAT_AP_3,)),
    "2024 HVD dataset, JSON-LD": (lambda: _dataset_jsonld(hvd_category=HVD_CATEGORY), (DCAT_AP_3, HVD_3)),
    "2024 HVD dataset, Turtle": (lambda: _dataset_turtle(hvd_category=HVD_CATEGORY), (DCAT_AP_3, HVD_3)),
    "2024 catalog, JSON-LD": (_catalog_jsonld, (DCAT_AP_3,)),
    "2024 catalog, Turtle": (_catalog_turtle, (DCAT_AP_3,)),
}


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, str], list[Violation]]:
    """Every document's violations against each of its shape sets, validated once for the module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(tk.config, "ckan.site_url", SITE_URL)
        found = {}
        for name, (build, shape_sets) in DOCUMENTS.items():
            graph = build()
            for shape_set in shape_sets:
                found[(name, shape_set)] = violations(graph, shape_set)
    return found


@pytest.mark.parametrize("document, shape_set", [
    (name, shape_set) for name, (_, shape_sets) in DOCUMENTS.items() for shape_set in shape_sets
])
def test_the_document_has_no_violation_but_the_known_ones(reports, document, shape_set):
    assert [str(violation) for violation in unexpected(reports[(document, shape_set)])] == []


def test_every_known_violation_is_still_seen_in_some_document(reports):
    seen = {violation.key for found in reports.values() for violation in found}
    assert sorted(set(known_keys()) - seen) == []


def test_every_known_violation_has_a_reason_of_one_line():
    assert all(known.reason and "\n" not in known.reason for known in KNOWN)


@pytest.mark.parametrize("shape_set", sorted(SHAPE_SETS))
def test_each_shapes_graph_is_read_from_the_copies_in_the_repository(shape_set):
    assert len(shapes(shape_set)) > 100


def test_a_violation_outside_the_known_list_is_reported_with_its_shape_path_and_focus():
    """The check is not vacuous: a dataset without its title breaks DCAT-AP's sh:minCount, which no reason excuses."""
    graph = _dataset_turtle()
    dataset = URIRef(iris.dataset_iri(lkod_record()["id"]))
    graph.remove((dataset, graph_out.DCT.title, None))

    [violation] = unexpected(violations(graph, DCAT_AP_3))

    assert (violation.key, violation.focus) == ("dcat:DatasetShape dct:title sh:minCount", dataset.n3())
