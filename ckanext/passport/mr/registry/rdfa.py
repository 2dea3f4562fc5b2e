"""The HTML+RDFa registry page ``/opendata/`` (MR 2.3 and MR 3.0).

MR 3.0's example: ``<div about="/opendata" typeof="dc:Collection">`` with ``dc:conformsTo`` the standard
and rows ``<tr rel="dc:hasPart"><td typeof="foaf:Document" about="/opendata/<id>" property="dc:title"
content="…">``. MR 2.3 pages often give the part as a plain link (``<a rel="dc:hasPart" href=…>title</a>``),
so a part without ``dc:title`` takes the text of its link. The collection named by the page URL is
preferred, with or without a trailing slash.
"""
from __future__ import annotations

from typing import Optional

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF

from ..fields import identifier_from_link, is_data_file_name, standard_version
from ..forms import Form
from ..model import ParseResult, Problem, Registry, RegistryEntry
from ..problems import problem
from ..rdfagraph import DC_TERMS, Node, dc, dc_value, document_order, link_texts, read_page, resource_key, standard_link

FORM = Form.RDFA


def parse(data: bytes, url: str = "") -> ParseResult[Registry]:
    page = read_page(data, url)
    problems: list[Problem] = list(page.problems)
    collection = registry_subject(page.graph, url)
    if collection is None:
        problems.append(problem("registry.html_error_page", url=url or None))
        return ParseResult(None, problems, form=FORM, encoding=page.encoding)
    standard, standard_problems = standard_version(standard_link(page.graph, collection), area="registry", url=url)
    problems.extend(standard_problems)
    titles = link_texts(page.dom, url)
    order = document_order(page.dom, url)
    parts = sorted((part for part in dc(page.graph, collection, "hasPart") if _is_dataset(page.graph, part)),
                   key=lambda part: (order.get(resource_key(part), len(order)), str(part)))
    entries = [_entry(page.graph, part, titles) for part in parts]
    return ParseResult(Registry(standard, entries), problems, form=FORM, encoding=page.encoding)


def registry_subject(graph: Graph, url: str = "") -> Optional[URIRef]:
    """The collection with the most parts, the one named by the page URL first."""
    page = resource_key(url) if url else None
    best: Optional[tuple[tuple, URIRef]] = None
    for subject in set(graph.subjects(DC_TERMS.hasPart, None)):
        if not isinstance(subject, URIRef):
            continue
        parts = len([part for part in dc(graph, subject, "hasPart") if _is_dataset(graph, part)])
        if not parts:
            continue
        rank = (
            page is not None and resource_key(subject) == page,
            (subject, RDF.type, DC_TERMS.Collection) in graph,
            parts,
            str(subject),
        )
        if best is None or rank > best[0]:
            best = (rank, subject)
    return best[1] if best else None


def _is_dataset(graph: Graph, part: Node) -> bool:
    """A registry row, not a data or structure version: those have a file (``dc:source``) or are one."""
    if isinstance(part, Literal):
        return False
    return not dc(graph, part, "source") and not is_data_file_name(str(part))


def _entry(graph: Graph, part: URIRef, titles: dict[str, str]) -> RegistryEntry:
    link = str(part) if isinstance(part, URIRef) else ""
    return RegistryEntry(
        identifier=dc_value(graph, part, "identifier") or identifier_from_link(link),
        title=dc_value(graph, part, "title") or titles.get(resource_key(link), ""),
        link=link,
        format=dc_value(graph, part, "format").lower(),
    )
