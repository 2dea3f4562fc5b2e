"""The LKOD documents: a dataset's full record and the catalog's header, as JSON-LD and as Turtle.

The JSON-LD has the shape of the norm's examples: ``"@context"`` is the official URL, nodes use the Czech
terms (``iri``, ``typ``, ``název`` …), texts are language maps, distributions and their services are nested in
the dataset. It is compacted here from the graph that ``graph_out`` writes, by the context's own term
definitions. A general JSON-LD framer (PyLD 3.3) does not give the norm's shape: it picks one term for a
property defined under several, so EuroVoc concepts land in ``téma`` (the schema wants ``koncept_euroVoc``),
and it writes one value where the schema wants an array (``prvek_rúian``); it also took 8.8 ms for a typical
record where this walk takes 2.1 ms (measured 2026-12-01, docs/lkod-mapping.md).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Mapping, Optional

from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.term import Node

from ckanext.passport.lkod import graph_out, iris, norms, series
from ckanext.passport.lkod.context import CONTEXT_URL, local_context

# Terms whose value the norm's schemas want as an array even when it holds one item.
ARRAY_TERMS = frozenset({
    "téma", "prvek_rúian", "geografické_území", "prostorové_pokrytí", "koncept_euroVoc", "specifikace",
    "právní_předpis", "kategorie_hvd", "distribuce", "datová_sada",
})
# Language-map terms whose value per language is an array (the "více textů" type).
LANGUAGE_ARRAY_TERMS = frozenset({"klíčové_slovo"})
ID_KIND = "@id"
LANGUAGE_KIND = "@language"

# Where the context defines one property under several terms, the value (or its subject) decides the term.
Chooser = Callable[[str, frozenset[str]], str]
_CHOOSERS: dict[str, Chooser] = {
    str(graph_out.DCT.spatial): lambda value, types: "prvek_rúian" if iris.is_ruian(value) else "geografické_území",
    str(graph_out.DCAT.theme): lambda value, types: "koncept_euroVoc" if iris.is_eurovoc(value) else "téma",
    str(graph_out.DCT.conformsTo): lambda value, types: (
        "schéma" if str(graph_out.DCAT.Distribution) in types else "specifikace"
    ),
}


class _Terms:
    """The context's term definitions read backwards: from a class or a property to its term."""

    def __init__(self, context: Mapping[str, Any]) -> None:
        prefixes = {key: value for key, value in context.items() if isinstance(value, str) and "://" in value}
        self.order: dict[str, int] = {"iri": 0, "typ": 1}
        self.classes: dict[str, str] = {}
        self.properties: dict[tuple[str, str], list[str]] = {}
        self.containers: dict[str, str] = {}

        def expand(name: str) -> str:
            prefix, _, local = name.partition(":")
            return prefixes[prefix] + local if prefix in prefixes else name

        # 2024's context is flat; 2026's nest scoped contexts in classes and properties: read them in order.
        pending = list(reversed(list(context.items())))
        while pending:
            term, definition = pending.pop()
            if term.startswith("@") or term in prefixes:
                continue
            self.order.setdefault(term, len(self.order))
            if isinstance(definition, str):
                if not definition.startswith("@"):
                    self.classes[expand(definition)] = term
                continue
            pending.extend(reversed(list(definition.get("@context", {}).items())))
            if term[:1].isupper():  # 2026 defines a class as {"@id": …}; its terms are capitalized, properties not
                self.classes[expand(definition["@id"])] = term
                continue
            container = definition.get("@container")
            # 2026 leaves @type out of the terms whose values are nested nodes (distribuce, kontaktní_bod …).
            kind = LANGUAGE_KIND if container == "@language" else expand(definition.get("@type", ID_KIND))
            named = self.properties.setdefault((expand(definition["@id"]), kind), [])
            if term not in named:
                named.append(term)
            if container:
                self.containers[term] = container

    def is_array(self, term: str) -> bool:
        return term in ARRAY_TERMS or self.containers.get(term) == "@set"

    def term(self, predicate: str, value: Node, types: frozenset[str]) -> Optional[str]:
        if isinstance(value, Literal):
            kind = LANGUAGE_KIND if value.language else str(value.datatype or "")
        else:
            kind = ID_KIND
        candidates = self.properties.get((predicate, kind))
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        return _CHOOSERS[predicate](str(value), types)


@lru_cache(maxsize=None)
def _terms(context_url: str = CONTEXT_URL) -> _Terms:
    return _Terms(local_context(context_url))


def compact(graph: Graph, root: Node, context_url: str = CONTEXT_URL) -> dict[str, Any]:
    """The node ``root`` as a compacted JSON-LD object, the nodes it refers to nested (without ``@context``),
    by the terms of the context at ``context_url``."""
    return _node(graph, root, frozenset({root}), _terms(context_url))


def _node(graph: Graph, node: Node, ancestors: frozenset[Node], terms: _Terms) -> dict[str, Any]:
    statements = list(graph.predicate_objects(node))
    types = [str(value) for predicate, value in statements if predicate == RDF.type]
    type_set = frozenset(types)
    values: dict[str, list[Any]] = {}
    languages: dict[str, dict[str, list[str]]] = {}
    for predicate, value in statements:
        if predicate == RDF.type:
            continue
        term = terms.term(str(predicate), value, type_set)
        if term is None:
            continue
        if isinstance(value, Literal) and value.language:
            languages.setdefault(term, {}).setdefault(value.language, []).append(str(value))
        else:
            values.setdefault(term, []).append(_value(graph, value, ancestors, terms))
    out: dict[str, Any] = {}
    if isinstance(node, URIRef):
        out["iri"] = str(node)
    type_terms = [terms.classes.get(value, value) for value in types]
    if type_terms:
        out["typ"] = type_terms[0] if len(type_terms) == 1 else type_terms
    for term, items in values.items():
        out[term] = items if terms.is_array(term) or len(items) > 1 else items[0]
    for term, by_language in languages.items():
        out[term] = {
            language: texts if term in LANGUAGE_ARRAY_TERMS or len(texts) > 1 else texts[0]
            for language, texts in by_language.items()
        }
    return {key: out[key] for key in sorted(out, key=lambda key: terms.order.get(key, len(terms.order)))}


def _value(graph: Graph, value: Node, ancestors: frozenset[Node], terms: _Terms) -> Any:
    if isinstance(value, Literal):
        return str(value)
    nested = isinstance(value, BNode) or (value not in ancestors and (value, None, None) in graph)
    if nested:
        return _node(graph, value, ancestors | {value}, terms)
    return str(value)


def _document(graph: Graph, root: Node, context_url: str = CONTEXT_URL) -> dict[str, Any]:
    return {"@context": context_url, **compact(graph, root, context_url)}


def _dataset_graph(dataset_dict: Mapping[str, Any], norm: str) -> tuple[Graph, URIRef, str]:
    """The dataset's (or series') graph as ``norm`` writes it, and the context its document names."""
    graph, dataset_ref = graph_out.dataset_graph(dataset_dict)
    series.add(graph, dataset_dict, dataset_ref)  # a series (typed so, without distributions) or a member
    kind = norms.kind_of(series.is_series(dataset_dict), graph_out.is_hvd(dataset_dict))
    norms.adapt(graph, dataset_ref, kind, norm)
    return graph, dataset_ref, norms.context_url(norm, kind)


def dataset_document(dataset_dict: Mapping[str, Any], norm: str = norms.DEFAULT) -> dict[str, Any]:
    """The dataset's LKOD record (package_show dict in), as the JSON-LD object its IRI serves in ``norm``."""
    return _document(*_dataset_graph(dataset_dict, norm))


def dataset_turtle(dataset_dict: Mapping[str, Any], norm: str = norms.DEFAULT) -> str:
    graph, _, _ = _dataset_graph(dataset_dict, norm)
    graph_out.bind_prefixes(graph)
    return graph.serialize(format="turtle")


def catalog_header(catalog_dict: Mapping[str, Any], norm: str = norms.DEFAULT) -> dict[str, Any]:
    """The catalog document without its ``datová_sada`` list (the caller streams the dataset IRIs)."""
    return _document(*graph_out.catalog_graph(catalog_dict), norms.context_url(norm, norms.Kind.CATALOG))


def catalog_header_turtle(catalog_dict: Mapping[str, Any], norm: str = norms.DEFAULT) -> str:
    """The catalog's triples in Turtle (prefixes first); ``dcat:dataset`` triples may follow it (the same in
    both norms: a catalog names no legislation)."""
    graph, _ = graph_out.catalog_graph(catalog_dict)
    graph_out.bind_prefixes(graph)
    return graph.serialize(format="turtle")
