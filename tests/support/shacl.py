"""SHACL validation of the LKOD documents with pySHACL, and the short list of violations known and explained.

The shapes are the copies under tests/fixtures/shacl/ (README there), each shapes graph parsed once per session.
pySHACL runs without inference (no shape here needs RDFS entailment but ``rdfs:Resource``, listed below), with
vCard's class axiom as its ontology graph, and each document given what the code lists the portal ships say of
the concepts it names (:func:`with_concepts`), so a theme or an HVD category is checked to be in its list.

A violation is named by where it comes from, precisely enough to be listed: its node shape, its path and its
constraint, e.g. ``dcat:DatasetShape dct:spatial sh:class``. :data:`KNOWN` lists the violations our documents
are known to have, each with the one-line reason it is not ours to fix; a test fails on any other violation, and
on a known one no document has any longer (so the list stays true).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pyshacl import validate
from rdflib import RDF, SKOS, BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import NamespaceManager
from rdflib.term import Node

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.lkod import iris
from ckanext.passport.lkod.norms import NORM_2026

SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "shacl"
SH = Namespace("http://www.w3.org/ns/shacl#")
EUROVOC_THESAURUS = "http://eurovoc.europa.eu/100141"
HVD_SCHEME = "http://data.europa.eu/bna/asd487ae75"  # the scheme DCAT-AP HVD's HVDCategoryRestriction wants
_CZ_2026 = "dcat-ap-cz-2026/"

# A document is checked against one or more of these sets, each the shapes of one norm (its files parsed together).
DCAT_AP_3 = "DCAT-AP 3.0"
HVD_3 = "DCAT-AP HVD 3.0"
CZ_2026_DATASET = "DCAT-AP-CZ 2026, open data"
CZ_2026_HVD = "DCAT-AP-CZ 2026, HVD"
CZ_2026_CATALOG = "DCAT-AP-CZ 2026, catalog interface"
SHAPE_SETS: dict[str, tuple[str, ...]] = {
    DCAT_AP_3: ("dcat-ap-3/dcat-ap-3.0.0-SHACL.ttl",),
    HVD_3: ("dcat-ap-3/hvd-3.0.0-SHACL-full.ttl",),
    # Each 2026 norm builds on DCAT-AP-CZ, the base model: its shapes apply too.
    CZ_2026_DATASET: (_CZ_2026 + "dcat-ap-cz/shacl.ttl", _CZ_2026 + "dcat-ap-cz-otevřená-data/shacl.ttl"),
    CZ_2026_HVD: (_CZ_2026 + "dcat-ap-cz/shacl.ttl", _CZ_2026 + "dcat-ap-cz-hvd/shacl.ttl"),
    CZ_2026_CATALOG: (_CZ_2026 + "dcat-ap-cz/shacl.ttl", _CZ_2026 + "dcat-ap-cz-rozhraní-katalogů-dat/shacl.ttl"),
}


def shape_sets_for(norm: str, hvd: bool, catalog: bool = False) -> tuple[str, ...]:
    """The shape sets a document is validated against: DCAT-AP 3.0 always, HVD 3.0 for an HVD record, and in the
    2026 norm the Czech norm's shapes for its kind (the 2024 norm has no shapes of its own)."""
    sets = (DCAT_AP_3, HVD_3) if hvd else (DCAT_AP_3,)
    if norm == NORM_2026:
        sets += (CZ_2026_CATALOG if catalog else CZ_2026_HVD if hvd else CZ_2026_DATASET,)
    return sets


_PREFIXES = {
    "dcat": "http://www.w3.org/ns/dcat#",
    "dct": "http://purl.org/dc/terms/",
    "dcatap": "http://data.europa.eu/r5r/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "pu": "https://data.gov.cz/slovník/podmínky-užití/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "sh": str(SH),
}


@lru_cache(maxsize=None)
def shapes(name: str) -> Graph:
    """The shapes graph of one of :data:`SHAPE_SETS`, parsed once."""
    graph = Graph()
    for file in SHAPE_SETS[name]:
        graph.parse(SHAPES / file, format="turtle")
    return graph


@lru_cache(maxsize=1)
def _vocabulary_classes() -> Graph:
    """vCard's class axiom (vocabulary-classes.ttl), pySHACL's ontology graph."""
    return Graph().parse(SHAPES / "vocabulary-classes.ttl", format="turtle")


@lru_cache(maxsize=1)
def concepts() -> Graph:
    """The concepts of the code lists the portal ships (catalog/vocabularies/: EU data themes, EuroVoc, HVD
    categories), each a skos:Concept of its scheme with its labels, as their vocabularies describe them."""
    graph = Graph()
    for name, scheme, iri_of in (
        (vocab.DATA_THEMES, URIRef(str(iris.DATA_THEME)), iris.theme_iri),
        (vocab.EUROVOC, URIRef(EUROVOC_THESAURUS), str),
        (vocab.HVD_CATEGORY, URIRef(HVD_SCHEME), str),
    ):
        for concept in vocab.vocabulary(name):
            subject = URIRef(iri_of(concept.key))
            graph.add((subject, RDF.type, SKOS.Concept))
            graph.add((subject, SKOS.inScheme, scheme))
            for language, label in concept.labels.items():
                graph.add((subject, SKOS.prefLabel, Literal(label, lang=language)))
    return graph


def with_concepts(data: Graph) -> Graph:
    """A copy of ``data`` with what :func:`concepts` says of each concept it names: a consumer holding the code
    lists sees that much. A theme or an HVD category outside those lists stays undescribed, so a violation.
    (Only the concepts named: the whole lists in every graph took a validation four times as long.)"""
    named = {value for value in set(data.objects()) if isinstance(value, URIRef) and (value, None, None) in concepts()}
    copy = Graph(bind_namespaces="none")
    copy += data
    for concept in named:
        for predicate, value in concepts().predicate_objects(concept):
            copy.add((concept, predicate, value))
    return copy


@lru_cache(maxsize=1)
def _names() -> NamespaceManager:
    manager = NamespaceManager(Graph(bind_namespaces="none"), bind_namespaces="none")
    for prefix, namespace in _PREFIXES.items():
        manager.bind(prefix, namespace)
    return manager


@dataclass(frozen=True)
class Violation:
    """One ``sh:Violation`` of a validation report: ``key`` names where it comes from, the rest what it is about."""

    key: str
    focus: str
    value: str
    message: str

    def __str__(self) -> str:
        return f"{self.key}: {self.focus} -> {self.value}: {self.message}"


def _name(node: Node | None) -> str:
    if node is None:
        return "-"
    if isinstance(node, BNode):
        return "[…]"
    return node.n3(_names())


def _node_shape(shapes_graph: Graph, shape: Node) -> str:
    """The node shape a result's source shape belongs to, by its name: ``dcat:DatasetShape`` (the 2026 drafts and
    DCAT-AP name a property shape ``…#dcat:DatasetShape/<hash>``), ``HVDCategoryRestriction`` …"""
    seen = {shape}
    while isinstance(shape, BNode):
        parent = next(shapes_graph.subjects(SH.property, shape), None)
        if parent is None or parent in seen:
            return "[…]"
        seen.add(parent)
        shape = parent
    return str(shape).rpartition("#")[2].split("/")[0]


def _component(component: Node | None) -> str:
    local = str(component).rpartition("#")[2].removesuffix("ConstraintComponent")
    return "sh:" + local[:1].lower() + local[1:]


def violations(data: Graph, shape_set: str) -> list[Violation]:
    """Every violation of ``data`` against the shapes ``shape_set`` (top-level results; details are their causes)."""
    shapes_graph = shapes(shape_set)
    _, report, _ = validate(
        with_concepts(data), shacl_graph=shapes_graph, ont_graph=_vocabulary_classes(), inference="none",
        allow_warnings=True,
    )
    found = []
    for root in report.subjects(RDF.type, SH.ValidationReport):
        for result in report.objects(root, SH.result):
            if report.value(result, SH.resultSeverity) != SH.Violation:
                continue
            key = " ".join((
                _node_shape(shapes_graph, report.value(result, SH.sourceShape)),
                _name(report.value(result, SH.resultPath)),
                _component(report.value(result, SH.sourceConstraintComponent)),
            ))
            found.append(Violation(
                key, _name(report.value(result, SH.focusNode)), _name(report.value(result, SH.value)),
                str(report.value(result, SH.resultMessage) or ""),
            ))
    return sorted(found, key=str)


# --- the violations known and why --------------------------------------------------------------------------

_CODE_LIST = "an EU frequency or file type: its class would come from its authority table, named by IRI only and not shipped here"
_IANA = "an IANA media type: its class would come from the media-type list, named by IRI only and not shipped here"
_REGISTER = "a register's element (RÚIAN territory, RPP public body) is described in its register; the norm writes its IRI only"
_ELI = "a legal act (ELI) is an eli:LegalResource in the ELI register, named by IRI only"
_WEB_IRI = "the norm writes this link (documentation, home page, schema, specification) as a bare IRI, with no type"
_CONDITIONS = "a condition of use is a licence (CC BY 4.0) or a data.gov.cz/podmínky-užití IRI, typed in neither; the drafts' own examples fail alike"
_RESOURCE = "every IRI is an rdfs:Resource under RDFS; pySHACL without inference sees only stated types"
_HVD_RIGHTS = "conditions of use are the Czech podmínky_užití (pu:specifikace); the 2024 context has no dct:license or dct:rights term"
_OWN_DOCUMENT = "another record named by IRI (a catalog's dataset, a member's series) is described in its own document"
_ONE_PER_LANGUAGE = "the 2026 drafts allow one title and description (sh:maxCount 1), meaning one per language: their cs+en examples fail alike"


@dataclass(frozen=True)
class Known:
    """A violation known and why; ``drafts_too``: the 2026 drafts' own open-data examples have it as well."""

    node_shapes: tuple[str, ...]
    path: str
    constraint: str
    reason: str
    drafts_too: bool = False

    def keys(self) -> set[str]:
        return {f"{shape} {self.path} {self.constraint}" for shape in self.node_shapes}


_DATASET, _SERIES, _CATALOG = "dcat:DatasetShape", "dcat:DatasetSeriesShape", "dcat:CatalogShape"
_DISTRIBUTION, _SERVICE = "dcat:DistributionShape", "dcat:DataServiceShape"
_CONDITIONS_SHAPE = "podmínky-užití:SpecifikaceShape"  # the 2026 drafts' shape of the conditions of use

# Every violation is a class constraint on a value the document names by IRI and does not describe, but for
# HVD's licence-or-rights rule (sh:or) and the 2026 drafts' one text in two languages (sh:maxCount).
KNOWN: tuple[Known, ...] = (
    Known((_DATASET, _SERIES), "dct:accrualPeriodicity", "sh:class", _CODE_LIST),
    Known((_DISTRIBUTION,), "dct:format", "sh:class", _CODE_LIST),
    Known((_DISTRIBUTION,), "dcat:mediaType", "sh:class", _IANA),
    Known((_DISTRIBUTION,), "dcat:compressFormat", "sh:class", _IANA),
    Known((_DATASET, _SERIES), "dct:spatial", "sh:class", _REGISTER),
    Known((_DATASET, _SERIES, _CATALOG), "dct:publisher", "sh:class", _REGISTER),
    Known((_DATASET, _SERIES, _DISTRIBUTION, _SERVICE), "dcatap:applicableLegislation", "sh:class", _ELI),
    Known((_DATASET, _SERIES, _SERVICE), "foaf:page", "sh:class", _WEB_IRI),
    Known((_CATALOG,), "foaf:homepage", "sh:class", _WEB_IRI),
    Known((_DISTRIBUTION, _SERVICE), "dct:conformsTo", "sh:class", _WEB_IRI),
    Known((_DATASET, _SERIES), "dct:title", "sh:maxCount", _ONE_PER_LANGUAGE, drafts_too=True),
    Known((_DATASET, _SERIES), "dct:description", "sh:maxCount", _ONE_PER_LANGUAGE, drafts_too=True),
    Known((_CONDITIONS_SHAPE,), "pu:autorské-dílo", "sh:class", _CONDITIONS, drafts_too=True),
    Known((_CONDITIONS_SHAPE,), "pu:databáze-jako-autorské-dílo", "sh:class", _CONDITIONS, drafts_too=True),
    Known((_CONDITIONS_SHAPE,), "pu:databáze-chráněná-zvláštními-právy", "sh:class", _CONDITIONS, drafts_too=True),
    Known((_CONDITIONS_SHAPE,), "pu:osobní-údaje", "sh:class", _CONDITIONS, drafts_too=True),
    Known((_DISTRIBUTION,), "dcat:accessURL", "sh:class", _RESOURCE),
    Known((_DISTRIBUTION,), "dcat:downloadURL", "sh:class", _RESOURCE),
    Known((_SERVICE,), "dcat:endpointURL", "sh:class", _RESOURCE),
    Known((_SERVICE,), "dcat:endpointDescription", "sh:class", _RESOURCE),
    Known(("vcard:KindShape",), "vcard:hasEmail", "sh:class", _RESOURCE),
    Known((_DISTRIBUTION, _SERVICE), "-", "sh:or", _HVD_RIGHTS),
    Known((_CATALOG,), "dcat:dataset", "sh:class", _OWN_DOCUMENT),
    Known((_DATASET,), "dcat:inSeries", "sh:class", _OWN_DOCUMENT),
)


@lru_cache(maxsize=1)
def known_keys() -> dict[str, str]:
    """Every known violation's key, with its reason."""
    return {key: known.reason for known in KNOWN for key in known.keys()}


def unexpected(found: list[Violation]) -> list[Violation]:
    """The violations of ``found`` that are not known."""
    return [violation for violation in found if violation.key not in known_keys()]
