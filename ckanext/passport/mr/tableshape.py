"""The shape of a table file (CSV, XML or JSON) read as it streams: rows in, counts out, never the file whole.

The openness check asks of a distribution whether it is one table whose rows all have its header's structure. A
file may run to tens of megabytes and a whole-file parser costs a hundred times its size (5 MiB of JSON: +530 MiB),
so each reader here takes the file piece by piece and keeps only what the answer needs: the first row's shape and
counts of the rows that differ. CSV is read row by row, XML record by record (``iterparse``-style, each element
cleared once ended, hardened as every XML read: :mod:`.safexml`), JSON value by value (``raw_decode`` over the
text not yet read, within :mod:`.jsontext`'s depth rule).

Each reader is fed pieces (``feed``) and then closed (``close(cut)``). ``cut`` says that the pieces stopped before
the file's end, at a sample's cap: the reader then judges what it read and nothing of what it did not, so a sample is
never "broken" for being cut. A CSV record cut by the end (its last line, or a quoted value still open) is dropped;
an XML record that had not ended is not counted and the elements left open are no error; a JSON row cut short is
not counted and the arrays and objects left open are no error. A fault within what was read counts as in a whole
file.
"""
from __future__ import annotations

import csv
import json
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Optional

from lxml import etree

from .csvrows import detect_delimiter
from .jsontext import MAX_DEPTH, DepthGauge, value_cut
from .problems import problem
from .safexml import pull_parser, syntax_problem

# Lines the CSV delimiter is told from, as :func:`.csvrows.detect_delimiter` looks at them.
_SNIFF_LINES = 50
# Distinct XML record names counted: past a few the answer (more than one kind) no longer changes.
_MAX_KINDS = 100
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")
_SPACE = re.compile(r"[ \t\r\n]*")


@dataclass
class Shape:
    """What a table file's rows look like, as far as they were read.

    ``error``: why the text is not well-formed (``None``: it is, as far as read), as the finding's detail.
    ``kinds``: how many kinds of record (XML element names; JSON arrays a top-level object holds, 0 for no table).
    ``rows``: records read (CSV: rows that are not blank, the header among them). ``uneven``: rows whose shape differs
    from the first's (CSV: the header's width); ``first_uneven``: the first of them (a CSV line, else a row number).
    CSV only: ``delimiter``, ``header`` (its cells), ``header_line``, ``gap`` (the line of a blank record with rows
    after it: a second block).
    """

    error: Optional[dict[str, Any]] = None
    kinds: int = 1
    rows: int = 0
    uneven: int = 0
    first_uneven: Optional[int] = None
    delimiter: str = ","
    header: tuple[str, ...] = ()
    header_line: int = 0
    gap: Optional[int] = None

    def count(self, where: int, even: bool) -> None:
        self.rows += 1
        if not even:
            self.uneven += 1
            self.first_uneven = self.first_uneven or where


# --- CSV ---------------------------------------------------------------------------------------------------------


class _Lines:
    """The physical lines the CSV reader takes, handed to it as they arrive; it remembers those of the record being
    read, so that a record the lines ran out in can be read again once more have come."""

    def __init__(self) -> None:
        self.waiting: deque[str] = deque()
        self.taken: list[str] = []
        self.dry = False

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        if not self.waiting:
            self.dry = True
            raise StopIteration
        line = self.waiting.popleft()
        self.taken.append(line)
        return line


class CsvShape:
    """A CSV file's shape, its text given piece by piece (decoded: :class:`.decode.TextStream`)."""

    def __init__(self) -> None:
        self.shape = Shape()
        self._partial = ""  # text after the last line end
        self._head: list[str] = []  # the first lines, until the delimiter is told
        self._lines = _Lines()
        self._reader: Any = None
        self._consumed = 0  # physical lines of the records read
        self._blank: Optional[int] = None
        self._retry_at = 0  # lines waiting before a record the lines ran out in is read again

    def feed(self, text: str) -> None:
        if self.shape.error is not None:
            return
        text = self._partial + text
        end = max(text.rfind("\n"), text.rfind("\r"))
        if end == len(text) - 1 and text.endswith("\r"):
            # A CR at the end may be the first half of a CRLF: its line ends with the next piece.
            end = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end))
        self._partial = text[end + 1:]
        self._take(_LINE.findall(text, 0, end + 1))

    def close(self, cut: bool) -> Shape:
        if self.shape.error is None:
            # The last line of a file need not end; a sample's last line is cut, and dropped with its record.
            last = [self._partial] if self._partial and not cut else []
            if self._reader is None:
                self._head.extend(last)
                self._begin()
            else:
                self._lines.waiting.extend(last)
            self._read(final=not cut)
        if self.shape.error is None and not self.shape.rows:
            self.shape.error = {}
        return self.shape

    def _take(self, lines: list[str]) -> None:
        if self._reader is None:
            self._head.extend(lines)
            if len(self._head) < _SNIFF_LINES:
                return
            self._begin()
        else:
            self._lines.waiting.extend(lines)
        if len(self._lines.waiting) >= self._retry_at:
            self._read(final=False)

    def _begin(self) -> None:
        self.shape.delimiter = detect_delimiter("".join(self._head[:_SNIFF_LINES]))
        self._lines.waiting.extend(self._head)
        self._head = []
        self._reader = csv.reader(self._lines, delimiter=self.shape.delimiter)

    def _read(self, final: bool) -> None:
        while self.shape.error is None:
            self._lines.taken, self._lines.dry = [], False
            try:
                cells = next(self._reader)
            except StopIteration:
                return
            except csv.Error as error:
                self.shape.error = {"line": self._consumed + 1, "error": str(error)}
                return
            if self._lines.dry and not final:
                # The record goes on past the lines come so far (a quoted value over several lines): read it
                # again, with a fresh reader, once the lines waiting have doubled (no record is read over and over).
                self._lines.waiting.extendleft(reversed(self._lines.taken))
                self._reader = csv.reader(self._lines, delimiter=self.shape.delimiter)
                self._retry_at = 2 * len(self._lines.waiting)
                return
            self._retry_at = 0
            self._record(self._consumed + 1, cells)
            self._consumed += len(self._lines.taken)

    def _record(self, line: int, cells: list[str]) -> None:
        shape = self.shape
        if not any(cell.strip() for cell in cells):
            self._blank = self._blank or line
            return
        if self._blank is not None and shape.gap is None:
            shape.gap = self._blank
        if not shape.rows:
            shape.header, shape.header_line = tuple(cells), line
            shape.rows = 1
            return
        shape.count(line, len(cells) == len(shape.header))


# --- XML ---------------------------------------------------------------------------------------------------------


class XmlShape:
    """An XML file's shape, its bytes given piece by piece: the root's children are the records, each record's shape
    the names of its attributes and of its child elements. A record and each of its children are cleared once ended,
    and the ended ones before them dropped, so the tree holds no more than the root, the record being read and its
    child being read."""

    def __init__(self) -> None:
        self.shape = Shape(kinds=0)
        self._parser = pull_parser(("start", "end"))
        self._depth = 0
        self._names: set[str] = set()
        self._attributes: frozenset[str] = frozenset()
        self._children: set[str] = set()
        self._first: Optional[tuple[frozenset[str], frozenset[str]]] = None

    def feed(self, data: bytes) -> None:
        if self.shape.error is None:
            self._parse(lambda: self._parser.feed(data))

    def close(self, cut: bool) -> Shape:
        # A sample ends inside its elements: only the end of the file must close them.
        if self.shape.error is None and not cut:
            self._parse(self._parser.close)
        return self.shape

    def _parse(self, step: Any) -> None:
        try:
            step()
        except etree.XMLSyntaxError as error:
            self.shape.error = {"problem": syntax_problem(error).as_dict()}
        # The events before a fault are read too: they are records of the file as much as in a whole read.
        for event, element in self._parser.read_events():
            if event == "start":
                self._start(element)
            else:
                self._end(element)

    def _start(self, element: etree._Element) -> None:
        self._depth += 1
        if self._depth == 2:
            self._attributes = frozenset(element.attrib)
            self._children = set()

    def _end(self, element: etree._Element) -> None:
        if self._depth == 3:
            self._children.add(element.tag)
        if self._depth == 2:
            shape = (self._attributes, frozenset(self._children))
            self._first = self._first or shape
            if len(self._names) < _MAX_KINDS:
                self._names.add(element.tag)
            self.shape.kinds = len(self._names)
            self.shape.count(self.shape.rows + 1, shape == self._first)
        if self._depth in (2, 3):
            # Gone once counted: the tree holds the root, the record being read and its child being read.
            element.clear(keep_tail=False)
            while element.getprevious() is not None:
                del element.getparent()[0]
        self._depth -= 1


# --- JSON --------------------------------------------------------------------------------------------------------

# What the JSON reader expects next, at the document's top levels.
_VALUE, _FIRST_ITEM, _ITEM, _AFTER_ITEM, _FIRST_KEY, _KEY_NEXT, _COLON, _MEMBER, _AFTER_MEMBER, _END = range(10)

# What a file that ends in each state lacks, in the words of ``json``'s own errors.
_EXPECTED = {
    _AFTER_ITEM: "Expecting ',' delimiter", _AFTER_MEMBER: "Expecting ',' delimiter",
    _COLON: "Expecting ':' delimiter", _FIRST_KEY: "Expecting property name enclosed in double quotes",
    _KEY_NEXT: "Expecting property name enclosed in double quotes",
}


class _Broken(Exception):
    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


class JsonShape:
    """A JSON file's shape, its text given piece by piece. The table is a top-level array, or the one array a top-level
    object holds; its rows' shape is their keys. Those arrays are read element by element, and every other value (a
    row, a key, a member that is no array) is decoded whole with ``raw_decode`` once it has come whole."""

    def __init__(self) -> None:
        self.shape = Shape(kinds=0)
        self._text = ""  # text not read yet
        self._read = 0  # characters read before ``_text``
        self._state = _VALUE
        self._open: list[bool] = []  # the containers open around what comes next: True for an array, else an object
        self._in_table = False  # in the table's array: its elements are the rows
        self._first: Optional[frozenset[str]] = None
        self._decoder = json.JSONDecoder()
        self._gauge = DepthGauge()
        self._retry_at = 0

    def feed(self, text: str) -> None:
        if self.shape.error is not None:
            return
        if self._gauge.feed(text) > MAX_DEPTH:
            self.shape.error = {"problem": problem("json.too_deep", limit=MAX_DEPTH).as_dict()}
            return
        self._text += text
        if len(self._text) >= self._retry_at:
            self._scan(final=False)

    def close(self, cut: bool) -> Shape:
        if self.shape.error is None:
            self._scan(final=not cut)
            if not cut and self._state != _END and self.shape.error is None:
                self._fail(_EXPECTED.get(self._state, "Expecting value"), self._read + len(self._text))
        return self.shape

    def _fail(self, message: str, position: int) -> None:
        self.shape.error = {"error": f"{message}: char {position}"}

    def _scan(self, final: bool) -> None:
        position = 0
        try:
            while True:
                moved = self._step(position, final)
                if moved is None:
                    break
                position = moved
        except _Broken as broken:
            self._fail(broken.message, self._read + broken.position)
        self._read += position
        self._text = self._text[position:]
        # Nothing more could be read: try again once the text waiting has doubled, so that a long row is not decoded
        # over and over as its pieces come.
        self._retry_at = 2 * len(self._text)

    def _step(self, at: int, final: bool) -> Optional[int]:
        """Read one token or value at ``at``; where the next starts, or ``None`` when more text is needed."""
        text = self._text
        at = _SPACE.match(text, at).end()
        if at == len(text):
            return None
        char, state = text[at], self._state
        if state == _END:
            raise _Broken("Extra data", at)
        if state in (_VALUE, _MEMBER) and char in "[{" and len(self._open) < 2:
            return self._enter(char, at)
        if state in (_FIRST_ITEM, _FIRST_KEY) and char == ("]" if state == _FIRST_ITEM else "}"):
            return self._leave(at)
        if state == _AFTER_ITEM or state == _AFTER_MEMBER:
            closing = "]" if state == _AFTER_ITEM else "}"
            if char == closing:
                return self._leave(at)
            if char != ",":
                raise _Broken("Expecting ',' delimiter", at)
            self._state = _ITEM if state == _AFTER_ITEM else _KEY_NEXT
            return at + 1
        if state == _COLON:
            if char != ":":
                raise _Broken("Expecting ':' delimiter", at)
            self._state = _MEMBER
            return at + 1
        if state in (_FIRST_KEY, _KEY_NEXT):
            if char != '"':
                raise _Broken("Expecting property name enclosed in double quotes", at)
            key = self._decoded(at, final)
            if key is None:
                return None
            self._state = _COLON
            return key[1]
        return self._value(at, final)

    def _enter(self, char: str, at: int) -> int:
        array = char == "["
        self._open.append(array)
        if array and self._open in ([True], [False, True]):
            self.shape.kinds += 1
            self._in_table = self.shape.kinds == 1
        self._state = _FIRST_ITEM if array else _FIRST_KEY
        return at + 1

    def _leave(self, at: int) -> int:
        self._in_table = False
        self._open.pop()
        self._after()
        return at + 1

    def _after(self) -> None:
        self._state = _END if not self._open else _AFTER_ITEM if self._open[-1] else _AFTER_MEMBER

    def _decoded(self, at: int, final: bool) -> Optional[tuple[Any, int]]:
        """The value at ``at`` and where it ends; ``None`` while it may go on past the text come so far."""
        text = self._text
        try:
            value, end = self._decoder.raw_decode(text, at)
        except json.JSONDecodeError as error:
            if not final and value_cut(text[at:]):
                return None
            raise _Broken(error.msg, error.pos)
        if end == len(text) and not final:
            return None  # a number may go on in the next piece
        return value, end

    def _value(self, at: int, final: bool) -> Optional[int]:
        """A value decoded whole (a row, a member, a top-level scalar)."""
        decoded = self._decoded(at, final)
        if decoded is None:
            return None
        value, end = decoded
        if self._in_table:
            keys = frozenset(value) if isinstance(value, dict) else None
            if not self.shape.rows:
                self._first = keys
            self.shape.count(self.shape.rows + 1, keys is not None and keys == self._first)
        self._after()
        return end
