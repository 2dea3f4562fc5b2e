"""The RDFa passport page (MR 2.3 Appendix 4, MR 3.0): ``dc:`` and ``foaf:`` properties on the dataset page.

The dataset is the resource with ``dc:title`` that links to its versions (``dc:hasPart``, directly or through
a ``dc:source`` collection) or to the standard (``dc:conformsTo``); the one named by the page URL wins, with
and without a trailing slash alike. Each version resource carries ``dc:source``, ``dc:created``,
``dc:provenance``, ``dc:valid``, ``dc:format`` and ``dc:conformsTo`` pointing at its structure resource. The
periodicity has no property of its own in MR's pages: it is read from the page's text (:func:`periodicity`).
"""
from __future__ import annotations

from typing import Iterator, Optional
from xml.dom.minidom import Document

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import FOAF

from ..characteristics import PERIODICITY
from ..dates import parse_date
from ..fields import (
    clean_mbox,
    clean_phone,
    file_format,
    identifier_from_link,
    is_data_file_name,
    newest_first,
    resolve,
    split_subject,
    standard_version,
    structure_name,
    version_names,
)
from ..forms import Form
from ..htmldom import elements, page_tables, text_content
from ..model import DataVersion, ParseResult, Passport, Problem, Publisher, StructureVersion
from ..problems import problem
from ..rdfagraph import (
    DC_ELEMENTS, DC_TERMS, Node, RdfaPage, dc, dc_value, passport_subject, read_page, standard_link,
)
from . import html_table

FORM = Form.RDFA


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    return from_page(read_page(data, url), url)


def from_page(page: RdfaPage, url: str = "") -> ParseResult[Passport]:
    """The passport of a page already read (the dispatcher reads a page once, for RDFa and then its table)."""
    problems = list(page.problems)
    subject = passport_subject(page.graph, url)
    if subject is None:
        problems.append(problem("rdfa.not_found", url=url or None))
        return ParseResult(None, problems, form=FORM, encoding=page.encoding)
    passport = _passport(page.graph, subject, url, problems)
    passport.periodicity = periodicity(page.graph, subject, page.dom, url)
    return ParseResult(passport, problems, form=FORM, encoding=page.encoding)


def periodicity(graph: Graph, subject: Node, dom: Optional[Document], url: str = "") -> str:
    """How often the dataset is updated, which MR's RDFa states only in the page's visible text.

    MR's page puts ``property="dc:valid" content="<date>"`` on the periodicity row's cell (Appendix 1, row 14:
    "Периодичность актуализации набора данных"), so the graph holds the date and the periodicity is the cell's
    text; the predgor page does so. Read, in order: ``dc:accrualPeriodicity`` where a page states it, the
    periodicity row of the page's characteristics table, the visible text of an element whose ``dc:valid`` is
    given by ``content`` when that text is no date.
    """
    stated = dc_value(graph, subject, "accrualPeriodicity")
    if stated:
        return stated
    row = html_table.characteristics(page_tables(dom, url)).get(PERIODICITY)
    if row is not None and row.text:
        # Its first line: a page may add the dc:valid date under it ("Ежемесячно<br>Актуально до: …").
        return " ".join(row.text.split("\n")[0].split())
    return _valid_element_text(dom)


def _valid_element_text(dom: Optional[Document]) -> str:
    if dom is None:
        return ""
    for element in elements(dom):
        names = element.getAttribute("property").split()
        if element.hasAttribute("content") and any(name.rpartition(":")[2] == "valid" for name in names):
            text = " ".join(text_content(element).split())
            date = parse_date(text)
            if text and (date is None or date.value is None):
                return text
    return ""


def _passport(graph: Graph, subject: Node, url: str, problems: list[Problem]) -> Passport:
    standard, standard_problems = standard_version(standard_link(graph, subject), area="passport", url=url)
    problems.extend(standard_problems)
    versions = list(_data_versions(graph, subject, url, problems))
    return Passport(
        standard_version=standard,
        identifier=dc_value(graph, subject, "identifier") or identifier_from_link(str(subject)),
        title=dc_value(graph, subject, "title"),
        description=dc_value(graph, subject, "description"),
        creator=_name(graph, dc(graph, subject, "creator")),
        publisher=_publisher(graph, dc(graph, subject, "publisher")),
        created=parse_date(dc_value(graph, subject, "created")),
        modified=parse_date(dc_value(graph, subject, "modified")),
        valid=parse_date(dc_value(graph, subject, "valid")),
        subject=[word for value in dc(graph, subject, "subject") for word in split_subject(str(value))],
        format=dc_value(graph, subject, "format").lower(),
        provenance=dc_value(graph, subject, "provenance"),
        data_versions=newest_first(versions),
        structure_versions=newest_first(_structure_versions(graph, url)),
    )


def _version_nodes(graph: Graph, subject: Node) -> Iterator[Node]:
    """Versions are the passport's ``dc:hasPart``, or the parts of the collection its ``dc:source`` names."""
    seen: set = set()
    for node in dc(graph, subject, "hasPart") + [
        part for source in dc(graph, subject, "source") if not isinstance(source, Literal)
        for part in dc(graph, source, "hasPart")
    ]:
        if node not in seen and not isinstance(node, Literal):
            seen.add(node)
            yield node


def _data_versions(graph: Graph, subject: Node, url: str, problems: list[Problem]) -> Iterator[DataVersion]:
    nodes = list(_version_nodes(graph, subject))
    if not nodes:
        # MR 2.3 pages may put the current data file straight on the passport as its dc:source.
        direct = resolve(dc_value(graph, subject, "source"), url)
        if is_data_file_name(direct):
            yield _data_version(graph, subject, direct, url, problems)
        return
    for node in nodes:
        source = resolve(dc_value(graph, node, "source"), url)
        if not source and isinstance(node, URIRef) and is_data_file_name(str(node)):
            source = str(node)
        if not source:
            problems.append(problem("passport.version_without_source", url=url or None, element=str(node)))
            continue
        yield _data_version(graph, node, source, url, problems)


def _data_version(graph: Graph, node: Node, source: str, url: str, problems: list[Problem]) -> DataVersion:
    version, named_structure = version_names(source)
    return DataVersion(
        source=source,
        version=version,
        structure_version=_structure_of(graph, node, source, named_structure, url, problems),
        created=parse_date(dc_value(graph, node, "created")),
        provenance=dc_value(graph, node, "provenance"),
        valid=parse_date(dc_value(graph, node, "valid")),
        format=dc_value(graph, node, "format").lower() or file_format(source),
    )


def _structure_of(
    graph: Graph, node: Node, source: str, named: str, url: str, problems: list[Problem]
) -> str:
    for target in dc(graph, node, "conformsTo"):
        structure_source = dc_value(graph, target, "source") or str(target)
        version = structure_name(structure_source)
        if version:
            return version
        if named:
            problems.append(problem(
                "rdfa.structure_not_found", url=url or None, element=str(target), structure=str(target), version=source,
            ))
    return named


def _structure_versions(graph: Graph, url: str) -> Iterator[StructureVersion]:
    """Every structure file the page describes: resources whose ``dc:source`` is a ``structure-…`` file."""
    seen: set[str] = set()
    for node in set(graph.subjects(DC_TERMS.source, None)) | set(graph.subjects(DC_ELEMENTS.source, None)):
        if not isinstance(node, (URIRef, BNode)):
            continue
        source = resolve(dc_value(graph, node, "source"), url)
        version = structure_name(source)
        if not version or source in seen:
            continue
        seen.add(source)
        yield StructureVersion(
            source=source,
            version=version,
            created=parse_date(dc_value(graph, node, "created")),
            format=dc_value(graph, node, "format").lower() or file_format(source),
        )


def _name(graph: Graph, values: list) -> str:
    for value in values:
        text = str(graph.value(value, FOAF.name) or "") if not isinstance(value, Literal) else str(value)
        if text.strip():
            return text.strip()
    return ""


def _publisher(graph: Graph, values: list) -> Publisher:
    publisher = Publisher()
    for value in values:
        if isinstance(value, Literal):
            publisher.name = publisher.name or str(value).strip()
            continue
        publisher.name = publisher.name or str(graph.value(value, FOAF.name) or "").strip()
        publisher.phone = publisher.phone or clean_phone(str(graph.value(value, FOAF.phone) or ""))
        publisher.mbox = publisher.mbox or clean_mbox(str(graph.value(value, FOAF.mbox) or ""))
    return publisher
