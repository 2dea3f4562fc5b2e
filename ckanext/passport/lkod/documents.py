"""Reading another LKOD's documents (DCAT-AP-CZ, documents variant): the catalog's dataset IRIs and one dataset.

A document is JSON-LD (its official context resolved locally, never fetched: :func:`context.parse_jsonld`) or
Turtle: the source's ``rdf_format`` says which, else the response's Content-Type, else its first character. Each
document is read in its own norm (``norms.read_norm``: a 2021-01-11 catalog may list 2024-05-28 datasets), and
what it says is made 2024-05-28's (``norms.to_current``) before the profile reads it.
The readers never raise anything but :class:`DocumentRefused`, carrying one coded problem, so the harvester
records it against the one document (the catalog: the job; a dataset: its object) and goes on: a document over
its size cap, a context other than the official one, nesting past the depth budget, text that is no RDF, and
whatever else a third party's bytes make a parser or the profile raise (its class named, never its text).
"""
from __future__ import annotations

import functools
import json
import re
from typing import Any, NamedTuple, Optional

import rdflib
from ckanext.dcat.processors import RDFParser
from rdflib.namespace import RDF

from ckanext.passport.mr.guarded import is_deadline
from ckanext.passport.mr.limits import too_large
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

from . import graph_in, norms
from .context import MAX_DEPTH, RemoteContextRefused, TooDeep, read_jsonld
from .graph_out import DCAT
from .harvest_config import JSON_LD, TURTLE
from .iris import iri_key
from .ownership import IRI_FIELD

# The ckanext-dcat profile that reads a DCAT-AP-CZ dataset into a Czech record (lkod/profile.py).
PROFILE = "dcat_ap_cz"

_JSON_LD_TYPES = ("application/ld+json", "application/json")
_TURTLE_TYPES = ("text/turtle", "application/x-turtle")
# What a document is asked for: an IRI with no extension, served by content negotiation, answers JSON-LD where it
# can, else Turtle (its Content-Type then says so: :func:`syntax`); a file's server ignores it.
ACCEPT = "application/ld+json, text/turtle;q=0.9"
_DETAIL_MAX = 300


class DocumentRefused(Exception):
    """A document that cannot be read; ``problem`` says why, with its stable code."""

    def __init__(self, found: Problem) -> None:
        super().__init__(found.code)
        self.problem = found


def syntax(data: bytes, content_type: str, rdf_format: str = "") -> str:
    """JSON_LD or TURTLE: the source's choice, else the declared media type, else what the text starts with."""
    if rdf_format:
        return rdf_format
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type in _JSON_LD_TYPES:
        return JSON_LD
    if media_type in _TURTLE_TYPES:
        return TURTLE
    return JSON_LD if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") else TURTLE


def read_graph(data: bytes, url: str, content_type: str, rdf_format: str = "", graph: Optional[Any] = None,
               limit: Optional[int] = None) -> Any:
    """The document's triples, added to ``graph`` (a new one by default); raises :class:`DocumentRefused`.

    ``limit`` caps the bytes read: a larger document is refused before it is parsed.
    """
    return read_document(data, url, content_type, rdf_format, graph, limit)[0]


def read_document(data: bytes, url: str, content_type: str, rdf_format: str = "", graph: Optional[Any] = None,
                  limit: Optional[int] = None) -> tuple[Any, str]:
    """:func:`read_graph`'s triples, as 2024-05-28 says them, and the norm the document was read in."""
    oversized = too_large(len(data), limit, url) if limit is not None else None
    if oversized is not None:
        raise DocumentRefused(oversized)
    target = graph if graph is not None else rdflib.Graph()
    try:
        if syntax(data, content_type, rdf_format) == JSON_LD:
            norm = read_jsonld(data, base=url, graph=target)[1]
        else:
            norm = norms.TURTLE
            target.parse(data=data.decode("utf-8"), format="turtle", publicID=url)
    # rdflib's parsers share no exception class (ckanext-dcat's parser says the same): any failure to read a
    # third party's bytes is that document's problem, never the job's.
    except Exception as error:  # noqa: BLE001
        raise DocumentRefused(_refusal(error, url)) from None
    norms.to_current(target, norm)
    return target, norm


def _refusal(error: Exception, url: str) -> Problem:
    if is_deadline(error):
        raise error
    if isinstance(error, RemoteContextRefused):
        # No parameter naming the context: the refusal reads the same whatever it pointed at.
        return problem("harvest.lkod_remote_context", url=url)
    if isinstance(error, (TooDeep, RecursionError)):
        return problem("harvest.lkod_too_deep", url=url, limit=MAX_DEPTH)
    # What the parsers say about text that is not their syntax (JSON, UTF-8, Turtle, JSON-LD errors).
    if isinstance(error, (ValueError, SyntaxError)):
        return problem("harvest.lkod_not_rdf", url=url, detail=f"{type(error).__name__}: {error}"[:_DETAIL_MAX])
    return problem("harvest.lkod_unreadable", url=url, error=type(error).__name__)


def read_catalog(data: bytes, url: str, content_type: str, catalog_iri: str, rdf_format: str = "",
                 limit: Optional[int] = None) -> tuple[list[str], list[Problem]]:
    """The dataset IRIs the catalog document read from ``url`` lists, and the problems of its entries
    (:func:`catalog_document`, its norm and warnings left aside)."""
    read = catalog_document(data, url, content_type, catalog_iri, rdf_format, limit)
    return read.iris, read.problems


class CatalogRead(NamedTuple):
    iris: list[str]
    problems: list[Problem]  # entries that are no IRI: the listing was not read whole
    norm: str
    warnings: list[Problem]  # what was read all the same (a catalog under another IRI)


def catalog_document(data: bytes, url: str, content_type: str, catalog_iri: str, rdf_format: str = "",
                     limit: Optional[int] = None) -> CatalogRead:
    """The dataset IRIs the catalog document read from ``url`` lists, the problems of its entries
    (:func:`listed_datasets`) and the norm it was read in; the catalog is ``catalog_iri`` (the source's URL), else
    ``url``, else the only one (:func:`catalog_subject`: a warning names it, an IRI copied from another
    publisher's template). Raises :class:`DocumentRefused`."""
    if (limit is None or len(data) <= limit) and syntax(data, content_type, rdf_format) == JSON_LD:
        plain = _plain_catalog_list(data, (catalog_iri, url))
        if plain is not None:
            return CatalogRead(plain[0], [], plain[1], [])
    graph, norm = read_document(data, url, content_type, rdf_format, limit=limit)
    try:
        catalog = catalog_subject(graph, catalog_iri, url)
        if catalog is None:
            raise DocumentRefused(problem("harvest.lkod_no_catalog", url=url, iri=catalog_iri))
        warnings = [] if str(catalog) in (catalog_iri, url) else [
            problem("harvest.lkod_catalog_elsewhere", url=url, iri=str(catalog))
        ]
        return CatalogRead(*listed_datasets(graph, catalog, url), norm, warnings)
    except DocumentRefused:
        raise
    except Exception as error:  # noqa: BLE001 (a graph of a third party's making: its problem, not the job's)
        raise DocumentRefused(_refusal(error, url)) from None


# What keeps a catalog document plain (:func:`_plain_catalog_list`): keys that name a node, make one, or bring
# a context of its own, and any key that is an IRI (it could be dcat:dataset itself).
_NODE_KEYS = frozenset({"iri", "@id", "typ", "@type", "datová_sada", "@graph", "@reverse", "@included", "@nest",
                        "@context", "@base", "@vocab"})
_PLAIN_CATALOG_KEYS = frozenset({"@context", "iri", "typ", "datová_sada"})
# An absolute http(s) IRI with nothing rdflib would read otherwise: no white space, no control character, none
# of the characters RFC 3987 leaves out of IRIs. Anything else goes through rdflib, whose reading is the rule.
_PLAIN_IRI = re.compile(r"https?://[^\s\x00-\x1f\x7f<>\"{}|\\^`]++")


def _plain_catalog_list(data: bytes, candidates: tuple[str, str]) -> Optional[tuple[list[str], str]]:
    """The dataset IRIs of a catalog document in the plain shape every LKOD writes, read without rdflib, and its
    norm; ``None`` for any other shape (rdflib reads it then).

    Plain: one object under an official catalog context alone (2024-05-28's, 2021-01-11's and the draft URL's,
    which define the same terms, or 2026's catalog interface, where
    ``Katalog``'s scoped terms say the same: ``norms.CATALOG_CONTEXTS``), ``iri`` one of the candidates, ``typ``
    ``Katalog``, ``datová_sada`` absolute http(s) IRIs, and no other node in it (no nested ``iri``, ``typ``,
    ``datová_sada``, context or IRI-named key). Only ``datová_sada`` maps to ``dcat:dataset`` in that context and
    an absolute IRI is taken as it is, so rdflib would find exactly these triples; an NKOD-size list (280,000
    IRIs, 20 MB) costs a second instead of a minute and 600 MB.
    """
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return None
    named = document.get("@context") if isinstance(document, dict) else None
    if not isinstance(named, str) or named not in norms.CATALOG_CONTEXTS:
        return None
    if document.get("iri") not in candidates or document.get("typ") != "Katalog":
        return None
    listed = document.get("datová_sada", [])
    listed = [listed] if isinstance(listed, str) else listed
    if not isinstance(listed, list) or not all(isinstance(iri, str) and _PLAIN_IRI.fullmatch(iri) for iri in listed):
        return None
    others = {key: value for key, value in document.items() if key not in _PLAIN_CATALOG_KEYS}
    if any(key in _NODE_KEYS or ":" in key for key in others) or _nests_a_node(list(others.values())):
        return None
    return sorted(set(listed)), norms.read_norm(document)


def _nests_a_node(values: list[Any]) -> bool:
    pending = list(values)
    while pending:
        value = pending.pop()
        if isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, dict):
            if any(key in _NODE_KEYS or ":" in key for key in value):
                return True
            pending.extend(value.values())
    return False


def catalog_subject(graph: Any, *candidates: str) -> Optional[rdflib.URIRef]:
    """The catalog the document describes: the first candidate IRI (the source's URL, then the URL it was read
    from) that is a ``dcat:Catalog`` or lists datasets, else the document's only catalog, else ``None``."""
    for candidate in candidates:
        subject = rdflib.URIRef(candidate)
        if (subject, RDF.type, DCAT.Catalog) in graph or (subject, DCAT.dataset, None) in graph:
            return subject
    catalogs = set(graph.subjects(RDF.type, DCAT.Catalog))
    return catalogs.pop() if len(catalogs) == 1 else None


def listed_datasets(graph: Any, catalog: rdflib.term.Node, url: str) -> tuple[list[str], list[Problem]]:
    """The dataset IRIs the catalog lists (sorted: a graph keeps no order), and a problem for each entry that is
    not an IRI (a blank node or a literal cannot be dereferenced)."""
    iris: set[str] = set()
    problems = []
    for listed in graph.objects(catalog, DCAT.dataset):
        if isinstance(listed, rdflib.URIRef) and str(listed).strip():
            iris.add(str(listed).strip())
        else:
            problems.append(problem("harvest.lkod_dataset_not_iri", url=url, value=str(listed)[:_DETAIL_MAX]))
    return sorted(iris), problems


def parse_dataset(data: bytes, url: str, content_type: str, iri: str, rdf_format: str = "",
                  limit: Optional[int] = None) -> dict[str, Any]:
    """The dataset ``iri`` of a dataset document as the DCAT-AP-CZ profile reads it (a CKAN dataset dict);
    raises :class:`DocumentRefused`."""
    return read_dataset(data, url, content_type, iri, rdf_format, limit)[0]


def read_dataset(data: bytes, url: str, content_type: str, iri: str, rdf_format: str = "",
                 limit: Optional[int] = None) -> tuple[dict[str, Any], str]:
    """:func:`parse_dataset`'s dataset and the norm its document was read in."""
    parser = _DocumentParser(profiles=[PROFILE])
    norm = read_document(data, url, content_type, rdf_format, graph=parser.g, limit=limit)[1]
    try:
        return _dataset(parser, url, iri), norm
    except DocumentRefused:
        raise
    # The profile reads a third party's graph: whatever it cannot make sense of is this dataset's problem.
    except Exception as error:  # noqa: BLE001
        if is_deadline(error):
            raise
        raise DocumentRefused(
            problem("harvest.lkod_unreadable_dataset", url=url, iri=iri, detail=type(error).__name__)
        ) from None


@functools.cache
def _profile_classes(names: tuple[str, ...]) -> tuple[type, ...]:
    return tuple(RDFParser._load_profiles(None, list(names)))  # it reads no attribute of its parser


class _DocumentParser(RDFParser):
    """ckanext-dcat's parser with its profiles found once per process: it looks them up among the installed entry
    points for every parser made (80 ms, more than reading the document), and each dataset document is read by a
    parser of its own, where ckanext-dcat's harvester reads one catalog file."""

    def _load_profiles(self, profile_names: list[str]) -> list[type]:
        return list(_profile_classes(tuple(profile_names)))


def _dataset(parser: RDFParser, url: str, iri: str) -> dict[str, Any]:
    subject = _spelled(parser.g, iri)
    if (subject, RDF.type, DCAT.DatasetSeries) in parser.g:
        # ckanext-dcat's parser walks dcat:Dataset nodes only; the profile reads a series with graph_in alone.
        return graph_in.read_dataset(parser.g, subject)
    if (subject, RDF.type, DCAT.Dataset) not in parser.g:
        raise DocumentRefused(problem("harvest.lkod_no_dataset", url=url, iri=iri))
    found = next((dataset for dataset in parser.datasets() if dataset.get(IRI_FIELD) == str(subject)), None)
    if found is None:
        raise DocumentRefused(problem("harvest.lkod_no_dataset", url=url, iri=iri))
    return found


def _spelled(graph: Any, iri: str) -> rdflib.URIRef:
    """``iri`` as the document spells it: a catalog may list it percent-encoded and the document write it raw, or
    the other way round (:func:`iris.iri_key`); the listed spelling when the document has neither."""
    subject = rdflib.URIRef(iri)
    if (subject, RDF.type, None) in graph:
        return subject
    key = iri_key(iri)
    return next((node for node in graph.subjects(RDF.type, None)
                 if isinstance(node, rdflib.URIRef) and iri_key(str(node)) == key), subject)
