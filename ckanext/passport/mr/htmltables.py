"""The tables of an HTML page as rows of cells, each cell's visible text and its links.

Pages are parsed with html5lib (a browser's reading of tag soup, never entities expanded or DTDs loaded),
into the same DOM the RDFa reader hands to pyRdfa. A cell's text is what a reader sees: ``<br>`` and block
elements break lines, no-break spaces are spaces, runs of white space are one. A table nested in a cell is a
table of its own and also part of its cell (a list of versions laid out as a small table in the value cell).
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Iterator, Optional
from urllib.parse import urljoin
from xml.dom.minidom import Document, Element, Node

from html5lib import HTMLParser, treebuilders

_BLOCKS = frozenset({
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "section", "article", "blockquote", "pre", "address", "header", "footer", "nav", "td", "th",
})
_INVISIBLE = frozenset({"script", "style", "template", "noscript", "head", "title"})
_SPACES = re.compile(r"[^\S\n]+")
# Soft hyphens and zero-width characters that word processors leave inside words ("Иденти­фикационный").
_INVISIBLE_CHARACTERS = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))


@dataclass
class Link:
    """An ``<a href>`` of a cell: its address resolved against the page, and its visible text."""

    href: str
    text: str


@dataclass
class Cell:
    text: str
    links: list[Link] = field(default_factory=list)
    header: bool = False  # a <th>


@dataclass
class TableRow:
    cells: list[Cell]
    in_head: bool = False  # inside <thead>

    @property
    def filled(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.text or cell.links]


@dataclass
class Table:
    rows: list[TableRow]


def parse_html(text: str) -> Document:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return HTMLParser(tree=treebuilders.getTreeBuilder("dom")).parse(text)


def page_tables(dom: Optional[Document], url: str = "") -> list[Table]:
    """Every table of the page in document order, its rows (``<tr>``) and cells (``<td>``, ``<th>``)."""
    if dom is None:
        return []
    base = _base(dom, url)
    return [Table([_row(tr, base) for tr in _own_rows(table)]) for table in dom.getElementsByTagName("table")]


def _base(dom: Document, url: str) -> str:
    for element in dom.getElementsByTagName("base"):
        href = element.getAttribute("href").strip()
        if href:
            return urljoin(url, href)
    return url


def _own_rows(table: Element) -> Iterator[Element]:
    """The rows of this table, not of tables nested in its cells."""
    for tr in table.getElementsByTagName("tr"):
        if _nearest_table(tr) is table:
            yield tr


def _nearest_table(node: Node) -> Optional[Node]:
    parent = node.parentNode
    while parent is not None and not (parent.nodeType == Node.ELEMENT_NODE and parent.tagName == "table"):
        parent = parent.parentNode
    return parent


def _row(tr: Element, base: str) -> TableRow:
    cells = [
        _cell(child, base) for child in tr.childNodes
        if child.nodeType == Node.ELEMENT_NODE and child.tagName in ("td", "th")
    ]
    parent = tr.parentNode
    in_head = parent is not None and parent.nodeType == Node.ELEMENT_NODE and parent.tagName == "thead"
    return TableRow(cells, in_head)


def _cell(element: Element, base: str) -> Cell:
    parts: list[str] = []
    links: list[Link] = []
    _walk(element, parts, links, base)
    return Cell(text=_tidy("".join(parts)), links=links, header=element.tagName == "th")


def _walk(node: Node, parts: list[str], links: list[Link], base: str) -> None:
    for child in node.childNodes:
        if child.nodeType == Node.TEXT_NODE:
            parts.append(child.data)
            continue
        if child.nodeType != Node.ELEMENT_NODE:
            continue
        tag = child.tagName
        if tag in _INVISIBLE:
            continue
        if tag == "br":
            parts.append("\n")
            continue
        if tag == "a" and child.hasAttribute("href"):
            links.append(Link(_resolved(child.getAttribute("href"), base), _tidy(_text(child)).replace("\n", " ")))
        block = tag in _BLOCKS
        if block:
            parts.append("\n")
        _walk(child, parts, links, base)
        if block:
            parts.append("\n")


def _text(node: Node) -> str:
    parts: list[str] = []
    _walk(node, parts, [], "")
    return "".join(parts)


def _resolved(href: str, base: str) -> str:
    href = href.strip()
    if not href or href.startswith("#") or href.lower().startswith(("javascript:", "mailto:", "tel:")):
        return href
    try:
        return urljoin(base, href) if base else href
    except ValueError:
        return href


def _tidy(text: str) -> str:
    """Visible text: no-break spaces as spaces, invisible characters dropped, spaces collapsed, no blank lines."""
    lines = (_SPACES.sub(" ", line.replace("\xa0", " ").translate(_INVISIBLE_CHARACTERS)).strip()
             for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
