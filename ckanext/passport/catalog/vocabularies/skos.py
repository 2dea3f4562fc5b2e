"""Read EUROVOC's SKOS file (RDF/XML) into concepts with their cs/en/ru labels, as a stream.

The full EUROVOC file is hundreds of megabytes, so it is read element by element and each concept is
dropped once read. The parser is ``mr.safexml``'s hardened one: no DTD loading, no entity expansion and no
network, so a file declaring external entities (XXE) cannot read local files or call hosts. :func:`read_file`
never raises: a file that is not well-formed XML, or fails in any other way, is a coded problem.
"""
from __future__ import annotations

from typing import IO, Any, Iterator, Optional

from lxml import etree

from ckanext.passport.mr.guarded import is_deadline
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.safexml import hardened_iterparse, syntax_problem


RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
LANGUAGES = ("cs", "en", "ru")

_KINDS = {f"{SKOS}Concept": "concept", f"{SKOS}ConceptScheme": "scheme"}
_DESCRIPTION = f"{{{RDF}}}Description"
_ABOUT = f"{{{RDF}}}about"
_RESOURCE = f"{{{RDF}}}resource"


def read_file(source: IO[bytes]) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Every concept of the file (:func:`read_concepts`), or none and the problem that stopped the reading: a
    file read in part must not replace the loaded vocabulary with that part."""
    try:
        return list(read_concepts(source)), []
    except etree.XMLSyntaxError as error:
        return [], [syntax_problem(error)]
    except Exception as error:  # noqa: BLE001 (a file from elsewhere: whatever it makes fail is its problem)
        if is_deadline(error):
            raise
        return [], [problem("vocab.unreadable", error=type(error).__name__)]


def read_concepts(source: IO[bytes]) -> Iterator[dict[str, Any]]:
    """Yield ``{uri, kind, labels, parent, notation}`` for every skos:Concept and skos:ConceptScheme."""
    for _, element in hardened_iterparse(source, events=("end",)):
        if element.getparent() is None or element.getparent().tag != f"{{{RDF}}}RDF":
            continue
        concept = _concept(element)
        # Free what was read: the tree of a large file must not grow with it.
        element.clear()
        while element.getprevious() is not None:
            del element.getparent()[0]
        if concept is not None:
            yield concept


def _concept(element: etree._Element) -> Optional[dict[str, Any]]:
    uri = element.get(_ABOUT)
    kind = _kind(element)
    if not uri or kind is None:
        return None
    labels: dict[str, str] = {}
    parent: Optional[str] = None
    scheme: Optional[str] = None
    notation = ""
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == f"{{{SKOS}}}prefLabel" and child.get(XML_LANG) in LANGUAGES and child.text:
            labels[child.get(XML_LANG)] = child.text.strip()
        elif tag == f"{{{SKOS}}}broader" and parent is None:
            parent = child.get(_RESOURCE)
        elif tag == f"{{{SKOS}}}inScheme" and scheme is None:
            scheme = child.get(_RESOURCE)
        elif tag == f"{{{SKOS}}}notation" and child.text:
            notation = child.text.strip()
    if not labels:
        return None
    return {"uri": uri, "kind": kind, "labels": labels, "parent": parent or scheme, "notation": notation}


def _kind(element: etree._Element) -> Optional[str]:
    if not isinstance(element.tag, str):
        return None
    if element.tag != _DESCRIPTION:
        qname = etree.QName(element)
        return _KINDS.get(f"{qname.namespace}{qname.localname}")
    for child in element:
        if child.tag == f"{{{RDF}}}type" and child.get(_RESOURCE) in _KINDS:
            return _KINDS[child.get(_RESOURCE)]
    return None
