"""What kind of text a publication is, from its first bytes: the dispatchers trust content over names.

Sites serve HTML error pages under ``list.xml``, MR 2.x passports under ``meta.csv`` and RDFa pages as
``index.php``; the file name is only a fallback when the content says nothing.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Callable, Literal, Optional

from .csvrows import compact

Kind = Literal["empty", "json", "xml", "html", "text"]

_WINDOW = 8192
_NAME = re.compile(r"[A-Za-z_][\w:.\-]*+", re.I)
# What may come before the first element, by its opening and its end (a DOCTYPE's end is found by scanning).
_SKIPPED = (("?", "?>"), ("!--", "-->"), ("![CDATA[", "]]>"))
_HTML_NAMES = frozenset({
    "html", "head", "body", "div", "main", "table", "p", "span", "section", "article", "header", "nav",
    "form", "title", "meta", "link", "script", "style", "br", "a", "h1", "h2", "h3", "ul", "center", "iframe",
})
_HTML_DOCTYPE = re.compile(r"<!DOCTYPE\s++html", re.I)
_XML_DECLARATION = re.compile(r"^<\?xml\s", re.I)


@dataclass(frozen=True)
class Sniffed:
    kind: Kind
    root: str = ""
    """The first element's local name, lower-cased (XML and HTML)."""
    first_line: str = ""
    """The first non-blank line, compacted (text)."""


def sniff(data: bytes) -> Sniffed:
    head = _text_head(data)
    stripped = head.lstrip()
    if not stripped:
        return Sniffed("empty")
    if stripped[0] in "{[":
        return Sniffed("json")
    if stripped[0] == "<":
        return _markup(stripped)
    first_line = next((line for line in stripped.splitlines() if line.strip()), "")
    return Sniffed("text", first_line=compact(first_line))


def _markup(text: str) -> Sniffed:
    root, after = "", ""
    found = _first_element(text)
    if found is not None:
        root = found[0].rpartition(":")[2].lower()
        after = text[found[1]:found[1] + 7]
    # <meta> opens both MR's meta.xml and HTML fragments (<meta charset=…>): the passport has an XML
    # declaration, or a bare or namespaced <meta>, HTML's meta carries charset/name/http-equiv.
    if root == "meta" and (_XML_DECLARATION.match(text) or after.startswith((">", " xmlns"))):
        return Sniffed("xml", root)
    if _HTML_DOCTYPE.search(text) or root in _HTML_NAMES or text.startswith("<?php"):
        return Sniffed("html", root)
    return Sniffed("xml", root)


def _first_element(text: str) -> Optional[tuple[str, int]]:
    """The first element's name and where the name ends, past declarations, comments, CDATA and PIs.

    A plain scan: the regular expression it replaces backtracked exponentially on a DOCTYPE of empty brackets
    (``<!DOCTYPE [][][]…``). A construct left open is no construct: the scan goes on right after its ``<``, as a
    regular expression's search would.
    """
    find = _finder(text)
    position = find("<", 0)
    while position != -1:
        opening = position + 1
        end = -1
        for start, close in _SKIPPED:
            if text.startswith(start, opening):
                found = find(close, opening + len(start))
                end = found + len(close) if found != -1 else -1
                break
        else:
            if text[opening:opening + 8].upper() == "!DOCTYPE":
                end = _doctype_end(opening + 8, find)
            else:
                name = _NAME.match(text, opening)
                if name:
                    return name.group(), name.end()
        position = find("<", end if end != -1 else opening)
    return None


def _doctype_end(position: int, find: Callable[[str, int], int]) -> int:
    """Past a DOCTYPE's ``>``; its internal subset (``[…]``) may hold ``>``. -1 when it is never closed."""
    while True:
        close = find(">", position)
        bracket = find("[", position)
        if bracket == -1 or (close != -1 and close < bracket):
            return close + 1 if close != -1 else -1
        position = find("]", bracket + 1)
        if position == -1:
            return -1


def _finder(text: str) -> Callable[[str, int], int]:
    """``text.find`` that remembers its last answer per needle: a page of unclosed ``<?`` or ``[`` is scanned
    once, not once per opening, so the scan stays linear."""
    known: dict[str, tuple[int, int]] = {}

    def find(needle: str, start: int) -> int:
        searched_from, found = known.get(needle, (len(text) + 1, -1))
        if searched_from <= start and (found == -1 or start <= found):
            return found
        found = text.find(needle, start)
        known[needle] = (start, found)
        return found

    return find


def _text_head(data: bytes) -> str:
    """The first bytes as text, for sniffing only: markup and MR keys are ASCII, Russian headers are not."""
    head = data[:_WINDOW]
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            return head[len(bom):].decode(encoding, errors="ignore")
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut at the window's end, or a Windows-1251 file.
        return head[:error.start].decode("utf-8") if error.start > len(head) - 4 else head.decode("cp1251", errors="replace")
