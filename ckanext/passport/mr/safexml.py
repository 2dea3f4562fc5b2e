"""The one way this library reads XML: no DTDs, no entity expansion, no network, no huge trees.

MR files come from sites we do not control; an XML reader that expands entities or loads DTDs can be
made to leak local files (XXE), call internal hosts or exhaust memory (billion laughs). Every XML reader
in ``mr`` builds its parser here, so the hardening lives in one place.
"""
from __future__ import annotations

import re
from typing import IO, Iterator, Optional, Union

from lxml import etree

from .model import Problem
from .problems import problem


_HARDENING = dict(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    huge_tree=False,
    dtd_validation=False,
)

# An entity declaration can only sit in the internal DTD subset, i.e. before the root element; looking at
# the raw prolog also catches documents that libxml2 refuses outright (amplification limits).
_ENTITY_DECLARATION = re.compile(rb"<!ENTITY", re.IGNORECASE)
_PROLOG_LIMIT = 64 * 1024


def make_parser(**options: bool) -> etree.XMLParser:
    """A hardened parser; ``options`` may add harmless settings (e.g. ``remove_comments``), never weaken it."""
    return etree.XMLParser(**{**options, **_HARDENING})


def pull_parser(events: tuple[str, ...] = ("start", "end")) -> etree.XMLPullParser:
    """A hardened parser fed piece by piece (a head of a file that may be cut anywhere)."""
    return etree.XMLPullParser(events=events, **_HARDENING)


def hardened_iterparse(
    source: IO[bytes], events: tuple[str, ...] = ("end",), tag: Union[str, tuple[str, ...], None] = None
) -> etree.iterparse:
    return etree.iterparse(source, events=events, tag=tag, **_HARDENING)


def parse_xml(data: bytes, url: str = "") -> tuple[Optional[etree._Element], list[Problem]]:
    """The root element (``None`` when the bytes are not well-formed) and the problems found."""
    problems = entity_problems(data[:_PROLOG_LIMIT], url)
    try:
        root = etree.fromstring(data, make_parser())
    except etree.XMLSyntaxError as error:
        return None, problems + [syntax_problem(error, url)]
    if root is None:
        return None, problems + [problem("xml.not_well_formed", url=url, detail="empty document")]
    return root, problems


def entity_problems(prolog: bytes, url: str = "") -> list[Problem]:
    if _ENTITY_DECLARATION.search(prolog):
        return [problem("xml.entity_declared", url=url)]
    return []


def syntax_problem(error: etree.XMLSyntaxError, url: str = "") -> Problem:
    line = error.position[0] if error.position else None
    return problem("xml.not_well_formed", url=url, line=line or None, detail=error.msg or str(error))


def local_name(element: etree._Element) -> str:
    """The tag without namespace, lower-cased: MR files come with stray namespaces and capitalisation."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2].lower()


def children(element: etree._Element, name: str) -> Iterator[etree._Element]:
    return (child for child in element if local_name(child) == name)


def child(element: etree._Element, name: str) -> Optional[etree._Element]:
    return next(children(element, name), None)


def text_of(element: Optional[etree._Element]) -> str:
    """Stripped text content, leaving out unexpanded entity references, comments and PIs."""
    if element is None:
        return ""
    if not len(element):
        return (element.text or "").strip()
    return _raw_text(element).strip()


def _raw_text(element: etree._Element) -> str:
    parts = [element.text or ""]
    for node in element:
        if isinstance(node.tag, str):
            parts.append(_raw_text(node))
        parts.append(node.tail or "")
    return "".join(parts)


def child_texts(element: etree._Element, names: Optional[frozenset[str]] = None) -> dict[str, str]:
    """Text of each child by local name (the first of a name wins), in one pass over the children.

    ``names`` limits the reading to those children, so that big siblings (a passport's ``<data>``) are not
    flattened to text for nothing.
    """
    texts: dict[str, str] = {}
    for node in element:
        name = local_name(node)  # empty for comments and processing instructions
        if name and name not in texts and (names is None or name in names):
            texts[name] = text_of(node)
    return texts
