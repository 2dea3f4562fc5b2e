"""Dataset series (dcat:DatasetSeries, the norm's "datová série" / "série datových sad", e.g. an HVD series):
which records are series, and how a series and its members are written.

A series is a catalog record like any other (same workflow, same organization, same document URL under
/lkod/dataset/<id>), whose ``record_kind`` is ``series``; it describes the series and has no distributions. A
member names it in ``in_series`` (the series record's id, the validator's rule: catalog.record.validators), written as
``dcat:inSeries`` to the series' LKOD IRI.
"""
from __future__ import annotations

from typing import Any, Mapping

from rdflib import RDF, Graph, URIRef

from ckanext.passport.catalog.record.series import IN_SERIES_FIELD, KIND_FIELD, SERIES, is_iri
from ckanext.passport.lkod import iris

DCAT = "http://www.w3.org/ns/dcat#"
DATASET = URIRef(DCAT + "Dataset")
DATASET_SERIES = URIRef(DCAT + "DatasetSeries")
DISTRIBUTION = URIRef(DCAT + "distribution")
IN_SERIES = URIRef(DCAT + "inSeries")


def is_series(dataset: Mapping[str, Any]) -> bool:
    return dataset.get(KIND_FIELD) == SERIES


def read(graph: Graph, dataset_ref: Any) -> dict[str, str]:
    """``record_kind`` and ``in_series`` of the dataset or series at ``dataset_ref`` (graph_in's part)."""
    parent = next((str(value) for value in graph.objects(dataset_ref, IN_SERIES) if isinstance(value, URIRef)), "")
    kind = SERIES if (dataset_ref, RDF.type, DATASET_SERIES) in graph else "dataset"
    return {KIND_FIELD: kind, IN_SERIES_FIELD: "" if kind == SERIES else parent}


def add(graph: Graph, dataset: Mapping[str, Any], dataset_ref: URIRef) -> None:
    """What graph_out wrote of ``dataset`` at ``dataset_ref``, made a series or a series' member."""
    if is_series(dataset):
        graph.remove((dataset_ref, RDF.type, DATASET))
        graph.add((dataset_ref, RDF.type, DATASET_SERIES))
        # The norm's series has no distributions: its members carry them.
        for distribution in list(graph.objects(dataset_ref, DISTRIBUTION)):
            _remove_tree(graph, distribution)
        graph.remove((dataset_ref, DISTRIBUTION, None))
        return
    parent = str(dataset.get(IN_SERIES_FIELD) or "").strip()
    target = (iris.web_iri(parent) if is_iri(parent) else iris.dataset_iri(parent)) if parent else None
    if target:
        graph.add((dataset_ref, IN_SERIES, URIRef(target)))


def _remove_tree(graph: Graph, node: Any) -> None:
    pending = [node]
    while pending:
        subject = pending.pop()
        for _, value in graph.predicate_objects(subject):
            if (value, None, None) in graph and value != subject:
                pending.append(value)
        graph.remove((subject, None, None))
