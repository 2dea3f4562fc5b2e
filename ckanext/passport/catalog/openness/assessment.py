"""The automatic part of the level-3 openness check (Czech technical standards for open datasets): the judgement.

For each resource (distribution) it checks what a machine can: UTF-8 encoding, a table format (CSV, XML or
JSON), one table per distribution, a header, and rows that all have the header's structure. :func:`assess`
is pure (bytes in, findings out); a :class:`Reading` judges bytes as they come.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Optional, Sequence

from ckanext.passport.mr.decode import TextStream
from ckanext.passport.mr.fetch import FetchResult
from ckanext.passport.mr.tableshape import CsvShape, JsonShape, Shape, XmlShape

FIELD = "openness_check"
TABLE_KINDS = ("csv", "xml", "json")
CHECKS = ("available", "utf8", "format", "one_table", "header", "consistent_rows")

_NUMBER_OR_DATE = re.compile(r"^[\s+\-]?[\d\s.,:/\-]+$")


def finding(code: str, passed: Optional[bool], **detail: Any) -> dict[str, Any]:
    """One finding; ``passed`` is ``None`` when the check does not apply (a header of a JSON array)."""
    return {"code": code, "passed": passed, "detail": detail}


def detect_kind(content: bytes, format_hint: str = "", content_type: str = "") -> str:
    """``csv``, ``xml``, ``json`` or ``other``: the declared format or media type, else the bytes themselves."""
    declared = [format_hint.strip().lower().lstrip("."), content_type.split(";", 1)[0].strip().lower()]
    for hint in declared:
        for kind in TABLE_KINDS:
            if hint == kind or hint.endswith(f"/{kind}") or hint.endswith(f"+{kind}"):
                return kind
        if hint in ("text/comma-separated-values", "application/csv"):
            return "csv"
    # Servers often say text/plain or application/octet-stream: only then do the bytes decide.
    if declared[0] or declared[1] not in ("", "text/plain", "application/octet-stream"):
        return "other"
    start = content.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start == b"<":
        return "xml"
    if start in (b"{", b"["):
        return "json"
    return "csv" if content.strip() and b"\x00" not in content else "other"


def assess(content: bytes, format_hint: str = "", content_type: str = "") -> list[dict[str, Any]]:
    """The findings for one distribution's bytes, in :data:`CHECKS` order (``available`` excluded)."""
    reading = Reading(format_hint, content_type)
    reading.feed(content)
    return reading.findings(cut=False)


class Reading:
    """One distribution's bytes read as they come (the check's sample, piece by piece), into its findings.

    Nothing is kept whole: the text is decoded piece by piece and its kind's reader (:mod:`..mr.tableshape`) keeps
    only the rows' shape, so a check holds about the same memory whatever the size of the file. ``findings(cut)``
    judges what was read; ``cut`` (the sample stopped before the file's end) makes the record the end cut into, and
    a character cut there, no fault of the file.
    """

    def __init__(self, format_hint: str = "", content_type: str = "") -> None:
        self.size = 0
        self._hint = format_hint
        self._content_type = content_type
        self._head = b""  # the first bytes, until they tell the kind
        self._kind: Optional[str] = None
        self._text = TextStream()
        self._shape: Any = None

    def start(self, fetched: FetchResult) -> Callable[[bytes], None]:
        """``stream`` of :func:`..mr.fetch.fetch`: the answer's media type is the file's declared one."""
        self._content_type = fetched.content_type
        return self.feed

    def feed(self, data: bytes) -> None:
        self.size += len(data)
        if self._kind is None:
            self._head += data
            if len(self._head) < _HEAD_BYTES:
                return
            data, self._head = self._head, b""
            self._begin(data)
        self._take(data, self._text.feed(data))

    def findings(self, cut: bool) -> list[dict[str, Any]]:
        if self._kind is None:
            head, self._head = self._head, b""
            self._begin(head)
            self._take(head, self._text.feed(head))
        rest = self._text.close(cut)
        if self._kind in ("csv", "json"):
            self._shape.feed(rest)
        text = self._text
        utf8 = (finding("utf8", True) if text.utf8_error is None
                else finding("utf8", False, encoding=text.encoding, offset=text.utf8_error))
        if self._shape is None:
            return [utf8, finding("format", False, kind=self._kind), *_not_judged()]
        return [utf8, *_judged(self._kind, self._shape.close(cut))]

    def _begin(self, head: bytes) -> None:
        self._kind = detect_kind(head, self._hint, self._content_type)
        readers = {"csv": CsvShape, "xml": XmlShape, "json": JsonShape}
        self._shape = readers[self._kind]() if self._kind in readers else None

    def _take(self, data: bytes, text: str) -> None:
        if self._kind == "xml":
            self._shape.feed(data)
        elif self._shape is not None:
            self._shape.feed(text)


# Bytes a file's kind is told from when its declared format and media type say nothing.
_HEAD_BYTES = 64 * 1024


def _not_judged() -> list[dict[str, Any]]:
    """The table's checks when there is no table to judge."""
    return [finding("one_table", None), finding("header", None), finding("consistent_rows", None)]


def _judged(kind: str, shape: Shape) -> list[dict[str, Any]]:
    """The findings after ``utf8`` for a table of ``kind`` whose rows were read as ``shape``."""
    if shape.error is not None:
        return [finding("format", False, kind=kind, **shape.error), *_not_judged()]
    uneven = {"count": shape.uneven, ("line" if kind == "csv" else "row"): shape.first_uneven} if shape.uneven else {}
    if kind == "csv":
        header_ok = _looks_like_header(shape.header)
        return [
            finding("format", True, kind="csv", delimiter=shape.delimiter),
            finding("one_table", shape.gap is None, **({"line": shape.gap} if shape.gap else {})),
            finding("header", header_ok, **({} if header_ok else {"line": shape.header_line})),
            finding("consistent_rows", not shape.uneven, columns=len(shape.header), **uneven),
        ]
    if kind == "json" and shape.kinds != 1:
        return [finding("format", True, kind="json"), finding("one_table", False), *_not_judged()[1:]]
    one_table = finding("one_table", shape.kinds == 1, **({"elements": shape.kinds} if shape.kinds != 1 else {}))
    return [finding("format", True, kind=kind), one_table, finding("header", None),
            finding("consistent_rows", bool(shape.rows) and not shape.uneven, **uneven)]


def _looks_like_header(cells: Sequence[str]) -> bool:
    """Names, not data: every cell filled, no two alike, none a number or a date."""
    names = [cell.strip() for cell in cells]
    return (
        len(names) >= 1
        and all(names)
        and len(set(n.casefold() for n in names)) == len(names)
        and not any(_NUMBER_OR_DATE.match(n) for n in names)
    )


def summary(checks: Iterable[dict[str, Any]]) -> bool:
    """The distribution passes when every applicable check passed."""
    return all(check["passed"] is not False for check in checks)
