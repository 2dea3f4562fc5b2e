"""What kind of text a publication is, from its first bytes: the dispatchers trust content over names.

Sites serve HTML error pages under ``list.xml``, MR 2.x passports under ``meta.csv`` and RDFa pages as
``index.php``; the file name is only a fallback when the content says nothing.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Literal

from .csvrows import compact

Kind = Literal["empty", "json", "xml", "html", "text"]

_WINDOW = 8192
_FIRST_TAG = re.compile(
    r"<(?:\?.*?\?>|!--.*?-->|!\[CDATA\[.*?\]\]>|!DOCTYPE(?:[^\[>]|\[.*?\])*>|([A-Za-z_][\w:.\-]*))", re.S | re.I
)
_HTML_NAMES = frozenset({
    "html", "head", "body", "div", "main", "table", "p", "span", "section", "article", "header", "nav",
    "form", "title", "meta", "link", "script", "style", "br", "a", "h1", "h2", "h3", "ul", "center", "iframe",
})
_HTML_DOCTYPE = re.compile(r"<!DOCTYPE\s+html", re.I)
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
    for match in _FIRST_TAG.finditer(text):
        if match.group(1):
            root = match.group(1).rpartition(":")[2].lower()
            after = text[match.end():match.end() + 7]
            break
    # <meta> opens both MR's meta.xml and HTML fragments (<meta charset=…>): the passport has an XML
    # declaration, or a bare or namespaced <meta>, HTML's meta carries charset/name/http-equiv.
    if root == "meta" and (_XML_DECLARATION.match(text) or after.startswith((">", " xmlns"))):
        return Sniffed("xml", root)
    if _HTML_DOCTYPE.search(text) or root in _HTML_NAMES or text.startswith("<?php"):
        return Sniffed("html", root)
    return Sniffed("xml", root)


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
