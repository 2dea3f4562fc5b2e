"""An HTML page as the DOM every page reader shares (for its RDFa graph and its tables), and its tables as rows of
cells, each cell's visible text and its links.

Pages are parsed by libxml2's HTML parser through lxml (C, linear in the page, never a DTD, an entity or the
network), into the DOM the RDFa reader hands to pyRdfa. lxml's own tree is not kept: libxml2 appends each
attribute by walking the element's list of them, so a tag with 20,000 attributes costs seconds; a parser target
builds the DOM instead, with an explicit stack. A page nesting elements deeper than :data:`MAX_DEPTH`
(``html.too_deep``: pyRdfa walks the DOM recursively), with an element of more than :data:`MAX_ATTRIBUTES`
attributes (``html.too_many_attributes``: pyRdfa scans an element's attributes in quadratic time) or with more
than :data:`MAX_NODES` elements and attributes in all (``html.too_many_nodes``) is refused.
Every walk here is iterative.

A cell's text is what a reader sees: ``<br>`` and block elements break lines, no-break spaces are spaces, runs
of white space are one. A table nested in a cell is a table of its own and also part of its cell (a list of
versions laid out as a small table in the value cell).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Optional, Union
from xml.dom.minidom import Document, Element, Node, getDOMImplementation

from lxml import etree

from . import urls
from .model import Problem
from .problems import problem

MAX_DEPTH = 200
"""The deepest element nesting read. Real pages nest a few dozen deep; pyRdfa recurses once per level (and
minidom's own searches too), so the cap keeps the walk far from Python's recursion limit, and it stays under
libxml2's own limit (256 without ``huge_tree``), past which libxml2 silently drops the rest of the page."""

MAX_ATTRIBUTES = 256
"""The most attributes one element may carry. Real elements carry a handful; pyRdfa lists an element's
attributes anew for each one it looks at (minidom's ``NamedNodeMap.item``), so 20,000 on one tag cost minutes."""

MAX_NODES = 60_000
"""The most elements and attributes one page may hold together. Real pages hold a few thousand; building the DOM
and pyRdfa's walk cost some 20 µs per node, so a page packed with small elements or attributes within the page
cap would otherwise take tens of seconds."""

REFUSALS = frozenset({"html.too_deep", "html.too_many_attributes", "html.too_many_nodes"})

_XHTML = "http://www.w3.org/1999/xhtml"
_BLOCKS = frozenset({
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "section", "article", "blockquote", "pre", "address", "header", "footer", "nav", "td", "th",
})
_INVISIBLE = frozenset({"script", "style", "template", "noscript", "head", "title"})
_SPACES = re.compile(r"[^\S\n]++")
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


@dataclass
class ParsedHtml:
    """A page's DOM, ``None`` when the page was refused (its problem says why)."""

    dom: Optional[Document]
    problems: list[Problem] = field(default_factory=list)


class _Refused(Exception):
    """Raised by the parser target to stop libxml2 at the first element past a limit."""

    def __init__(self, code: str, limit: int) -> None:
        super().__init__(code)
        self.code = code
        self.limit = limit


class _DomBuilder:
    """An lxml parser target that builds a minidom document, the tree pyRdfa reads, one event at a time."""

    def __init__(self) -> None:
        self.document = getDOMImplementation().createDocument(None, None, None)
        self._open: list[Node] = [self.document]
        self._text: list[str] = []
        self._nodes = 0

    def doctype(self, name: Optional[str], public_id: Optional[str], system_id: Optional[str]) -> None:
        self._flush()
        if self.document.documentElement is None and name:
            doctype = getDOMImplementation().createDocumentType(name, public_id, system_id)
            doctype.ownerDocument = self.document
            self.document.appendChild(doctype)

    def start(self, tag: str, attributes: Mapping[str, str]) -> None:
        if len(self._open) > MAX_DEPTH:
            raise _Refused("html.too_deep", MAX_DEPTH)
        if len(attributes) > MAX_ATTRIBUTES:
            raise _Refused("html.too_many_attributes", MAX_ATTRIBUTES)
        self._nodes += 1 + len(attributes)
        if self._nodes > MAX_NODES:
            raise _Refused("html.too_many_nodes", MAX_NODES)
        self._flush()
        element = self.document.createElementNS(_XHTML, tag)
        for name, value in attributes.items():
            element.setAttribute(name, value)
        if self._open[-1] is self.document and self.document.documentElement is not None:
            # Markup after </html> (a page pasted twice, a template's tail): a document has one root, and a
            # browser puts what follows it inside, so it is opened again.
            self._open.append(self.document.documentElement)
        self._open[-1].appendChild(element)
        self._open.append(element)

    def end(self, tag: str) -> None:
        self._flush()
        if len(self._open) > 1:
            self._open.pop()

    def data(self, text: str) -> None:
        self._text.append(text)

    def comment(self, text: str) -> None:
        self._flush()
        self._open[-1].appendChild(self.document.createComment(text))

    def close(self) -> Document:
        self._flush()
        return self.document

    def _flush(self) -> None:
        # libxml2 hands text over in pieces (an entity, a line): one text node, as a browser's DOM has.
        if self._text and len(self._open) > 1:
            self._open[-1].appendChild(self.document.createTextNode("".join(self._text)))
        self._text.clear()


def parse_html(text: str, url: str = "") -> ParsedHtml:
    """The page's DOM as a browser builds it from tag soup, or its refusal (``html.too_deep``, …)."""
    # Bytes, so that the page's own <meta charset> cannot re-decode text already decoded the MR way; a lone
    # surrogate is passed on as bytes libxml2 replaces with U+FFFD rather than raising here.
    parser = etree.HTMLParser(
        target=_DomBuilder(), encoding="utf-8", no_network=True, remove_pis=True, huge_tree=False,
    )
    try:
        dom = etree.fromstring(text.encode("utf-8", "surrogatepass"), parser)
    except _Refused as refused:
        return ParsedHtml(None, [problem(refused.code, url=url or None, limit=refused.limit)])
    return ParsedHtml(dom)


def descendants(node: Node) -> Iterator[Node]:
    """Every node under ``node`` in document order (as ``getElementsByTagName`` walks), without recursion."""
    stack = list(reversed(node.childNodes))
    while stack:
        child = stack.pop()
        yield child
        stack.extend(reversed(child.childNodes))


def elements(node: Node, tag: str = "*") -> Iterator[Element]:
    """The elements under ``node`` named ``tag`` (any, for ``*``) in document order."""
    for child in descendants(node):
        if child.nodeType == Node.ELEMENT_NODE and (tag == "*" or child.tagName == tag):
            yield child


def text_content(node: Node) -> str:
    """The text of every text node under ``node``, script and style included (what pyRdfa reads as a literal)."""
    return "".join(child.data for child in descendants(node) if child.nodeType == Node.TEXT_NODE)


def page_tables(dom: Optional[Document], url: str = "") -> list[Table]:
    """Every table of the page in document order, its rows (``<tr>``) and cells (``<td>``, ``<th>``)."""
    if dom is None:
        return []
    base = _base(dom, url)
    rows: dict[Element, list[Element]] = {table: [] for table in elements(dom, "table")}
    for tr in elements(dom, "tr"):
        # The rows of each table, not of the tables nested in its cells.
        table = _nearest_table(tr)
        if table is not None:
            rows[table].append(tr)
    return [Table([_row(tr, base) for tr in own]) for own in rows.values()]


def _base(dom: Document, url: str) -> str:
    for element in elements(dom, "base"):
        href = element.getAttribute("href").strip()
        if href:
            return urls.join(url, href)
    return url


def _nearest_table(node: Node) -> Optional[Element]:
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
    text, links = _visible(element, base)
    return Cell(text=_tidy(text), links=links, header=element.tagName == "th")


@dataclass
class _Closing:
    """Where the walk leaves an element: after a block, a line break; after a link, the link's text is known."""

    block: bool
    link: Optional[Link]
    start: int


def _visible(element: Element, base: str) -> tuple[str, list[Link]]:
    """The visible text under ``element`` and its links (in document order), each with its own visible text."""
    parts: list[str] = []
    links: list[Link] = []
    stack: list[Union[Node, _Closing]] = list(reversed(element.childNodes))
    while stack:
        item = stack.pop()
        if isinstance(item, _Closing):
            if item.link is not None:
                item.link.text = _tidy("".join(parts[item.start:])).replace("\n", " ")
            if item.block:
                parts.append("\n")
            continue
        if item.nodeType == Node.TEXT_NODE:
            parts.append(item.data)
            continue
        if item.nodeType != Node.ELEMENT_NODE or item.tagName in _INVISIBLE:
            continue
        tag = item.tagName
        if tag == "br":
            parts.append("\n")
            continue
        link = None
        if tag == "a" and item.hasAttribute("href"):
            link = Link(_resolved(item.getAttribute("href"), base), "")
            links.append(link)
        block = tag in _BLOCKS
        if block:
            parts.append("\n")
        stack.append(_Closing(block, link, len(parts)))
        stack.extend(reversed(item.childNodes))
    return "".join(parts), links


def _resolved(href: str, base: str) -> str:
    href = href.strip()
    if not href or href.startswith("#") or href.lower().startswith(("javascript:", "mailto:", "tel:")):
        return href
    return urls.join(base, href) if base else href


def _tidy(text: str) -> str:
    """Visible text: no-break spaces as spaces, invisible characters dropped, spaces collapsed, no blank lines."""
    lines = (_SPACES.sub(" ", line.replace("\xa0", " ").translate(_INVISIBLE_CHARACTERS)).strip()
             for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
