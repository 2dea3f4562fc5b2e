"""The DCAT-AP-CZ norms the LKOD writes and reads: 2024-05-28 (what NKOD and the LKOD validator read today) and
2026-09-23 (the norm family the national catalog's form application writes); and, read only, what other local
catalogs still publish: 2021-01-11, the earlier draft URL, and expanded JSON-LD with no ``@context`` (what NKOD's
registration form produced before 2021).

Every difference between the norms lives here, so that a correction of the 2026 texts (still drafts offline:
/work/shared/spec/dcat-ap-cz-2026/README.md) is one edit:

- reading: the norm a document was read in (:func:`read_norm`: its context, else none), and what of an older
  norm means a newer one's link (:func:`to_current`: 2021's ``je_součástí`` is ``dcterms:isPartOf``, the same
  link as 2024's ``dcat:inSeries``; 2021's context is otherwise a subset of 2024's, term for term);

- the JSON-LD contexts: 2024 has one for every document; 2026 one per kind of document (open-data dataset or
  series, HVD dataset or series, the catalog), each shipped under ``context/2026-09-23/`` as the draft's text,
  named by its dated URL (the draft's ``…/draft/…`` URL read as the same text); 2021-01-11's and the older draft
  URL's (``context/2021-01-11/``, ``context/draft/``), read only;
- the applicable legislation (``právní_předpis``): 2024 names the EU HVD regulation on an HVD record and its
  distributions and services only; 2026 names zákon 106/1999 Sb. on every dataset, series, distribution and
  service, and an HVD one adds its § 5b and the EU HVD regulation;
- what the 2026 schemas require beyond 2024's: a data service's endpoint description, a series' temporal
  coverage with an IRI (:func:`adapt`).

The terms (a series is ``Datová série`` in 2024, ``Série datových sad`` in 2026) follow from the contexts. The
records, their fields and graph_out's mapping are the same in both; a document is written in one of them.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping, Optional

from rdflib import Graph, URIRef

from ckanext.passport.lkod import iris

NORM_2024 = "2024-05-28"
NORM_2026 = "2026-09-23"
NORMS = (NORM_2024, NORM_2026)
DEFAULT = NORM_2024
# Read, never written. DRAFT: the draft URL's context, whose last text is 2024-05-28's (byte for byte);
# EXPANDED: JSON-LD with no context; TURTLE: a Turtle document, which names no norm.
NORM_2021 = "2021-01-11"
DRAFT = "draft"
EXPANDED = "expanded"
TURTLE = "turtle"
READ_NORMS = (NORM_2026, NORM_2024, DRAFT, NORM_2021, EXPANDED, TURTLE)

DCAT = "http://www.w3.org/ns/dcat#"
APPLICABLE_LEGISLATION = URIRef("http://data.europa.eu/r5r/applicableLegislation")
_PAGE = URIRef("http://xmlns.com/foaf/0.1/page")


class Kind(str, Enum):
    """The kind of document, which picks its context in 2026."""

    DATASET = "dataset"
    HVD_DATASET = "hvd_dataset"
    SERIES = "series"
    HVD_SERIES = "hvd_series"
    CATALOG = "catalog"


CONTEXT_2024 = (
    "https://ofn.gov.cz/dcat-ap-cz-rozhraní-katalogů-otevřených-dat/2024-05-28/kontexty/"
    "rozhraní-katalogů-otevřených-dat.jsonld"
)
_FILE_2024 = "rozhraní-katalogů-otevřených-dat.jsonld"
CONTEXT_2021 = (
    "https://ofn.gov.cz/rozhraní-katalogů-otevřených-dat/2021-01-11/kontexty/rozhraní-katalogů-otevřených-dat.jsonld"
)
CONTEXT_DRAFT = (
    "https://ofn.gov.cz/rozhraní-katalogů-otevřených-dat/draft/kontexty/rozhraní-katalogů-otevřených-dat.jsonld"
)
# 2026: the norm's folder and the document's folder, as in https://ofn.gov.cz/<norm>/<date>/<document>/kontext.jsonld
_PATHS_2026 = {
    Kind.DATASET: "dcat-ap-cz-otevřená-data/datová-sada",
    Kind.SERIES: "dcat-ap-cz-otevřená-data/série-datových-sad",
    Kind.HVD_DATASET: "dcat-ap-cz-hvd/datová-sada",
    Kind.HVD_SERIES: "dcat-ap-cz-hvd/série-datových-sad",
    Kind.CATALOG: "dcat-ap-cz-rozhraní-katalogů-dat/katalog",
}


def _url_2026(kind: Kind, date: str = NORM_2026) -> str:
    norm, document = _PATHS_2026[kind].split("/")
    return f"https://ofn.gov.cz/{norm}/{date}/{document}/kontext.jsonld"


def _file_2026(kind: Kind) -> str:
    return f"{NORM_2026}/{_PATHS_2026[kind]}/kontext.jsonld"


# Every context URL read locally, by the package file under lkod/context/ holding its text. The drafts' own URLs
# are the same texts (a document written from the drafts is read as one written to the dated norm).
CONTEXT_FILES: dict[str, str] = {
    CONTEXT_2024: _FILE_2024,
    CONTEXT_2021: f"{NORM_2021}/{_FILE_2024}",
    CONTEXT_DRAFT: f"{DRAFT}/{_FILE_2024}",
}
# The norm each context URL is read in.
CONTEXT_NORMS: dict[str, str] = {CONTEXT_2024: NORM_2024, CONTEXT_2021: NORM_2021, CONTEXT_DRAFT: DRAFT}
for _kind in Kind:
    CONTEXT_FILES[_url_2026(_kind)] = _file_2026(_kind)
    CONTEXT_FILES[_url_2026(_kind, "draft")] = _file_2026(_kind)
    CONTEXT_NORMS[_url_2026(_kind)] = CONTEXT_NORMS[_url_2026(_kind, "draft")] = NORM_2026

# The contexts a catalog document names, in which ``datová_sada`` is dcat:dataset (an IRI) under the type
# ``Katalog``: lkod.documents reads such a catalog's plain shape without rdflib.
CATALOG_CONTEXTS = frozenset({
    CONTEXT_2024, CONTEXT_2021, CONTEXT_DRAFT, _url_2026(Kind.CATALOG), _url_2026(Kind.CATALOG, "draft"),
})
# Norms whose ``dcterms:isPartOf`` on a dataset is its series (2024: ``dcat:inSeries``). A Turtle or expanded
# document names no norm: it is read as the 2021 one was written, an ``isPartOf`` there being no other link in
# any DCAT-AP-CZ norm.
_PART_OF_IS_SERIES = frozenset({NORM_2021, EXPANDED, TURTLE})
_PART_OF = URIRef("http://purl.org/dc/terms/isPartOf")
_IN_SERIES = URIRef(DCAT + "inSeries")

# The e-Sbírka ELI of zákon 106/1999 Sb. in force (the form application's), and its § 5b (high-value datasets).
ELI_106 = "https://www.e-sbirka.cz/eli/cz/sb/1999/106/2025-08-19"
ELI_106_HVD = ELI_106 + "/dokument/norma/cast_1/par_5b"


def read_norm(document: Any) -> str:
    """The norm a decoded JSON-LD document was written in: the first context URL of its top level this portal
    knows (:data:`CONTEXT_NORMS`), else :data:`EXPANDED` (no ``@context`` at all, or an inline one alone)."""
    named = document.get("@context") if isinstance(document, dict) else None
    for value in named if isinstance(named, list) else [named]:
        if isinstance(value, str) and value in CONTEXT_NORMS:
            return CONTEXT_NORMS[value]
    return EXPANDED


def to_current(graph: Graph, norm: str) -> None:
    """What a document read in ``norm`` says, in place, as 2024-05-28 says it (the profile reads that)."""
    if norm not in _PART_OF_IS_SERIES:
        return
    for subject, parent in list(graph.subject_objects(_PART_OF)):
        if isinstance(parent, URIRef) and (subject, _IN_SERIES, None) not in graph:
            graph.add((subject, _IN_SERIES, parent))
        graph.remove((subject, _PART_OF, parent))


class UnknownNorm(ValueError):
    """A norm this portal does not write (the message names the ones it does)."""


def checked(norm: Optional[str]) -> str:
    """``norm`` if it is one of :data:`NORMS`; ``None`` or empty gives :data:`DEFAULT`."""
    if not norm:
        return DEFAULT
    if norm not in NORMS:
        raise UnknownNorm(norm)
    return norm


def kind_of(is_series: bool, is_hvd: bool) -> Kind:
    if is_series:
        return Kind.HVD_SERIES if is_hvd else Kind.SERIES
    return Kind.HVD_DATASET if is_hvd else Kind.DATASET


def context_url(norm: str, kind: Kind) -> str:
    """The ``@context`` a document of ``kind`` names in ``norm``."""
    return CONTEXT_2024 if norm == NORM_2024 else _url_2026(kind)


def legislation(norm: str, hvd: bool) -> list[str]:
    """The ``právní_předpis`` IRIs of a dataset, series, distribution or service (HVD or not) in ``norm``."""
    if norm == NORM_2024:
        return [iris.HVD_LEGISLATION] if hvd else []
    return [ELI_106, ELI_106_HVD, iris.HVD_LEGISLATION] if hvd else [ELI_106]


def adapt(graph: Graph, dataset_ref: URIRef, kind: Kind, norm: str) -> None:
    """What graph_out wrote of a dataset (or series) at ``dataset_ref``, made ``norm``'s (2024: as written).

    2026: the dataset, its distributions and their services get the legislation; a data service its endpoint's
    description (``popis_přístupového_bodu``, required there): its documentation page, else the endpoint itself,
    as the norm's example does for a SPARQL endpoint; a series' temporal coverage an IRI (its schema requires one).
    """
    if norm == NORM_2024:
        return  # graph_out writes 2024's legislation itself (the HVD regulation)
    hvd = kind in (Kind.HVD_DATASET, Kind.HVD_SERIES)
    if kind in (Kind.SERIES, Kind.HVD_SERIES):
        _name_periods(graph, dataset_ref)
    services = []
    subjects = [dataset_ref]
    for distribution in graph.objects(dataset_ref, URIRef(DCAT + "distribution")):
        subjects.append(distribution)
        services.extend(graph.objects(distribution, URIRef(DCAT + "accessService")))
    for subject in subjects + services:
        for eli in legislation(norm, hvd):
            graph.add((subject, APPLICABLE_LEGISLATION, URIRef(eli)))
    for service in services:
        described = next(iter(graph.objects(service, _PAGE)), None) or next(
            iter(graph.objects(service, URIRef(DCAT + "endpointURL"))), None
        )
        if described is not None:
            graph.add((service, URIRef(DCAT + "endpointDescription"), described))


def _name_periods(graph: Graph, dataset_ref: URIRef) -> None:
    temporal = URIRef("http://purl.org/dc/terms/temporal")
    for number, period in enumerate(list(graph.objects(dataset_ref, temporal)), start=1):
        if isinstance(period, URIRef):
            continue
        named = URIRef(f"{dataset_ref}#časové-pokrytí-{number}")
        for predicate, value in list(graph.predicate_objects(period)):
            graph.add((named, predicate, value))
        graph.remove((period, None, None))
        graph.remove((dataset_ref, temporal, period))
        graph.add((dataset_ref, temporal, named))


def requested(args: Mapping[str, Any], default: str) -> str:
    """The norm a request asks for by ``?norm=`` (else the site's ``default``); raises :class:`UnknownNorm`."""
    return checked(args.get("norm") or default)
