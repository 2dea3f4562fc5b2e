"""HTML+RDFa pages to an RDF graph, once, safely, for the registry and passport readers.

pyRdfa's own ``graph_from_source`` sniffs the charset like a browser (Windows-1252 for Russian pages
without a meta charset), re-parses HTML with an XML parser to find the RDFa version and may fetch
sources. Here the bytes are decoded the MR way, parsed once by :func:`.htmldom.parse_html` (libxml2, which
never expands entities, loads DTDs or nests past a cap) and the DOM is handed to pyRdfa, which then does no
I/O of its own.
"""
from __future__ import annotations

import logging
import re
import warnings
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Optional, Union
from urllib.parse import urlunsplit
from xml.dom.minidom import Document

from pyRdfa import pyRdfa
from pyRdfa.options import Options
from rdflib import BNode, Graph, Namespace, URIRef

from . import urls
from .decode import decode_bytes
from .htmldom import elements, parse_html, text_content
from .model import Problem
from .problems import problem


Node = Union[URIRef, BNode]

DC_TERMS = Namespace("http://purl.org/dc/terms/")
# Open namespaces: rdflib's closed DC/DCTERMS raise on names they do not list.
DC_ELEMENTS = Namespace("http://purl.org/dc/elements/1.1/")

# Properties that make a titled resource a dataset rather than, say, a registry row.
_PASSPORT_MARKS = ("hasPart", "conformsTo", "source", "publisher", "identifier", "created")
# The attributes pyRdfa resolves against the page's address (``href`` of ``<base>`` too): one that urllib cannot
# split would fail the whole page, every other entry of a registry with it.
_LINK_ATTRIBUTES = ("about", "resource", "href", "src", "xml:base")
_RDFA_1_0_DOCTYPE = re.compile(r"<!DOCTYPE[^>]*XHTML\+RDFa\s+1\.0", re.I)
_DOCTYPE_WINDOW = 2048


_READING = ContextVar("reading_rdfa_page", default=False)
_INVALID_URI_WARNING = "does not look like a valid URI"


class _InvalidUriWarnings(logging.Filter):
    """Drops rdflib's "… does not look like a valid URI" warning while a page of ours is being read.

    Real pages carry IRIs rdflib dislikes (``mailto:…?subject=Открытые данные``); we never serialise the
    graph, so the warning is only noise on stderr. Other records, and this one outside our reads, pass.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not (_READING.get() and _INVALID_URI_WARNING in str(record.msg))


logging.getLogger("rdflib.term").addFilter(_InvalidUriWarnings())


@dataclass
class RdfaPage:
    """The graph of a page (empty when nothing was found), its DOM for visible text, and what happened."""

    graph: Graph
    dom: Optional[Document]
    encoding: str
    problems: list[Problem] = field(default_factory=list)


def read_page(data: bytes, url: str = "") -> RdfaPage:
    decoded = decode_bytes(data, url)
    problems = list(decoded.problems)
    # RDFa 1.1 predefines dc: and foaf:, which pages relying on server-side includes for their <head> need;
    # only an explicit XHTML+RDFa 1.0 doctype switches to 1.0, as pyRdfa itself would.
    version = "1.0" if _RDFA_1_0_DOCTYPE.search(decoded.text[:_DOCTYPE_WINDOW]) else None
    parsed = parse_html(decoded.text, url)
    dom = parsed.dom
    if dom is None:
        return RdfaPage(Graph(), None, decoded.encoding, problems + parsed.problems)
    problems += _drop_unreadable_links(dom, url)
    reading = _READING.set(True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            processor = pyRdfa(options=_no_io_options(), base=url, media_type="text/html", rdfa_version=version)
            graph = processor.graph_from_DOM(dom)
    except Exception as error:  # noqa: BLE001 - pyRdfa raises anything on hostile markup; report, never raise
        problems.append(problem("rdfa.parse_failed", url=url or None, detail=str(error) or type(error).__name__))
        return RdfaPage(Graph(), None, decoded.encoding, problems)
    finally:
        _READING.reset(reading)
    return RdfaPage(graph, dom, decoded.encoding, problems)


def _drop_unreadable_links(dom: Document, url: str) -> list[Problem]:
    """Remove the link attributes that cannot be split once joined with the page's address, each a finding."""
    found = []
    for element in elements(dom):
        for attribute in _LINK_ATTRIBUTES:
            value = element.getAttribute(attribute).strip()
            if value and urls.split(urls.join(url, value)) is None:
                element.removeAttribute(attribute)
                found.append(problem("rdfa.unreadable_link", url=url or None, element=element.tagName, link=value,
                                     attribute=attribute))
    return found


def _no_io_options() -> Options:
    """pyRdfa with every feature that reads something besides the DOM off, whatever its defaults: embedded
    Turtle or RDF/XML (handed to rdflib's parsers), ``@vocab`` expansion (fetches each vocabulary) and its cache
    (files under the user's home)."""
    return Options(embedded_rdf=False, vocab_expansion=False, vocab_cache=False, refresh_vocab_cache=False)


def dc(graph: Graph, subject: Node, name: str) -> list:
    """Objects of a Dublin Core property; ``dc:`` is terms, but pages binding it to elements/1.1 are read too."""
    return list(graph.objects(subject, DC_TERMS[name])) + list(graph.objects(subject, DC_ELEMENTS[name]))


def dc_value(graph: Graph, subject: Node, name: str) -> str:
    values = [str(value).strip() for value in dc(graph, subject, name)]
    return next((value for value in values if value), "")


def standard_link(graph: Graph, subject: Node) -> str:
    """The ``dc:conformsTo`` that names the MR standard (other conformsTo values name structures)."""
    links = [str(value) for value in dc(graph, subject, "conformsTo")]
    return next((link for link in links if "/standard/" in link.lower()), links[0] if links else "")


def resource_key(uri: str) -> str:
    """A resource name for comparison: ``/opendata`` and ``/opendata/`` are one resource (MR 2.3 validator 7.1.2)."""
    parts = urls.split(str(uri).strip())
    if parts is None:
        return str(uri).strip()
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, parts.fragment))


def passport_subject(graph: Graph, url: str = "") -> Optional[Node]:
    """The dataset resource: titled, linked to versions or the standard, preferably named by the page URL.

    Here, not in the RDFa passport reader: the table reader asks it too (whether a page read for its table has an
    RDFa passport), and the RDFa reader reads its periodicity from the table reader's rows.
    """
    page = resource_key(url) if url else None
    best: Optional[tuple[tuple, Node]] = None
    for subject in set(graph.subjects(DC_TERMS.title, None)) | set(graph.subjects(DC_ELEMENTS.title, None)):
        if not isinstance(subject, (URIRef, BNode)):
            continue
        marks = len([name for name in _PASSPORT_MARKS if dc(graph, subject, name)])
        named = page is not None and isinstance(subject, URIRef) and resource_key(subject) == page
        if not marks and not named:
            continue
        rank = (named, bool(dc(graph, subject, "hasPart") or dc(graph, subject, "conformsTo")), marks, str(subject))
        if best is None or rank > best[0]:
            best = (rank, subject)
    return best[1] if best else None


def link_texts(dom: Optional[Document], base: str = "") -> dict[str, str]:
    """Visible text of every ``<a href>``, by the :func:`resource_key` of the link, for untitled rows."""
    texts: dict[str, str] = {}
    if dom is None:
        return texts
    for anchor in elements(dom, "a"):
        href = anchor.getAttribute("href")
        text = " ".join(text_content(anchor).split())
        if href and text:
            texts.setdefault(resource_key(urls.join(base, href)), text)
    return texts


def document_order(dom: Optional[Document], base: str = "") -> dict[str, int]:
    """The position of each resource's first mention (``about``, ``resource``, ``href``), by resource key.

    A graph has no order; registries are read in the order the page lists them.
    """
    order: dict[str, int] = {}
    if dom is None:
        return order
    for element in elements(dom):
        for attribute in ("about", "resource", "href"):
            value = element.getAttribute(attribute)
            if value:
                order.setdefault(resource_key(urls.join(base, value)), len(order))
    return order
