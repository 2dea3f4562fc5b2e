"""CSV text to rows, for every CSV form MR sites publish (registries, passports).

Real files use ``,``, ``;`` or tab, quote every field or none, leave blank lines, pad rows with ``;;;;``,
put a ``1;2;3`` column-number row under the header, or omit the header. Reading is done by the ``csv``
module; this module only picks the dialect, keeps 1-based line numbers and salvages malformed records.
"""
from __future__ import annotations

import csv
import io
import re
from collections import Counter
from itertools import islice
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Optional, Sequence
from urllib.parse import urlunsplit

from . import urls
from .model import STANDARD_2_3, STANDARD_3_0, Problem
from .problems import problem


DELIMITERS = (",", ";", "\t")
# Far wider than any passport, registry or structure row (and most data headers); a wider one is cut, so that
# the work per row stays bounded whatever one line of a file holds.
MAX_CELLS = 1000
# Fifteen times the largest real registry (fedstat: 6,692 datasets); the work per file stays bounded.
MAX_ROWS = 100_000
_SNIFF_LINES = 50


class Row(NamedTuple):
    """One CSV record: ``line`` is the 1-based line where it starts; trailing empty cells are dropped."""

    line: int
    cells: tuple[str, ...]

    def cell(self, index: int) -> str:
        """The stripped cell at ``index``, or ``""`` when the row is shorter."""
        return self.cells[index].strip() if index < len(self.cells) else ""


@dataclass
class Table:
    rows: list[Row]
    delimiter: str
    problems: list[Problem] = field(default_factory=list)


def read_rows(text: str, url: str = "", delimiter: Optional[str] = None) -> Table:
    """Read CSV text into rows; blank rows are skipped. Never raises."""
    problems: list[Problem] = []
    location = url or None
    if not text.strip():
        return Table([], delimiter or ",", [problem("csv.empty", url=location)])
    markup = _markup_kind(text)
    if markup is not None:
        return Table([], delimiter or ",", [problem(markup, url=location)])
    lines = _physical_lines(text)
    chosen = delimiter or _delimiter_of(lines)
    records = (row for row in _records(lines, chosen, url, problems) if row.cells)
    rows = [_within_width(row, url, problems) for row in islice(records, MAX_ROWS)]
    beyond = next(records, None)
    if beyond is not None:
        problems.append(problem("csv.too_many_rows", url=location, line=beyond.line, limit=MAX_ROWS))
    if not rows:
        problems.append(problem("csv.empty", url=location))
    return Table(rows, chosen, problems)


def detect_delimiter(text: str) -> str:
    """The delimiter that splits the first lines into the most rows of one common width (2 or more);
    when none does (one column, padding only), the most frequent candidate; ``,`` by default."""
    return _delimiter_of(_physical_lines(text))


def _delimiter_of(lines: list[str]) -> str:
    sample = [line for line in lines[:_SNIFF_LINES] if line.strip()]
    joined = "".join(sample)
    present = [c for c in DELIMITERS if c in joined]
    if len(present) <= 1:
        # The only candidate that occurs wins whatever its consistency: no CSV pass needed.
        return present[0] if present else ","
    scores = {c: (_consistency(sample, c), joined.count(c)) for c in present}
    return max(present, key=lambda c: scores[c])


def _consistency(sample: list[str], delimiter: str) -> int:
    """How many sample rows share the most common width of two or more cells."""
    try:
        widths = Counter(len(_trim(cells)) for cells in csv.reader(sample, delimiter=delimiter))
    except csv.Error:
        return 0
    return max((count for width, count in widths.items() if width >= 2), default=0)


def is_column_number_row(cells: Sequence[str]) -> bool:
    """``1;2;3;…``: the column numbers some publishers put under (or instead of) the header."""
    if len(cells) < 2 or cells[0].strip().rstrip(".") != "1":
        return False
    return [c.strip().rstrip(".") for c in cells] == [str(n) for n in range(1, len(cells) + 1)]


def is_header(cells: Iterable[str], names: Iterable[str], minimum: int = 1) -> bool:
    """True when at least ``minimum`` cells are one of the expected header ``names`` (compared compactly)."""
    expected = {compact(name) for name in names}
    return sum(1 for cell in cells if compact(cell) in expected) >= minimum


def join_cells(cells: Iterable[str], delimiter: str) -> str:
    """Undo the split of a value that held an unquoted delimiter.

    The space after a delimiter was eaten by ``skipinitialspace`` (needed for ``key, "value"``); in the
    prose and keyword lists these values hold, a comma or semicolon is followed by a space.
    """
    glue = delimiter if delimiter == "\t" else delimiter + " "
    return glue.join(cell.strip() for cell in cells).strip()


def compact(text: str) -> str:
    """A key for loose comparison: ``"Standard Version"`` and ``standard_version`` both give ``standardversion``."""
    return re.sub(r"[\s_\-\"'\ufeff]+", "", text).casefold()


def canonical_standard(text: str) -> str:
    """The standard URL as MR spells it; the host is case-insensitive (``OpenData.gosmonitor.ru``)."""
    value = text.strip()
    for standard in (STANDARD_3_0, STANDARD_2_3):
        if value.rstrip("/").casefold() == standard.casefold():
            return standard
    parts = urls.split(value)
    if parts is None or not parts.netloc:
        return value
    return urlunsplit(parts._replace(scheme=parts.scheme.lower(), netloc=parts.netloc.lower()))


def _physical_lines(text: str) -> list[str]:
    # Only CR, LF and CRLF end a CSV line; str.splitlines would also split on U+2028, form feeds and such.
    return io.StringIO(text, newline="").readlines()


def _records(lines: list[str], delimiter: str, url: str, problems: list[Problem]) -> Iterator[Row]:
    # strict=True so that broken quoting is reported instead of silently swallowing the rest of the file;
    # the reader resumes on the next line after an error, and the broken record is re-read leniently.
    reader = csv.reader(iter(lines), delimiter=delimiter, strict=True, skipinitialspace=True)
    consumed = 0
    while True:
        try:
            for cells in reader:
                yield Row(consumed + 1, _trim(cells))
                consumed = reader.line_num
            return
        except csv.Error as error:
            start = consumed + 1
            problems.append(problem("csv.malformed_row", url=url or None, line=start, reason=str(error)))
            yield from _salvage(lines[start - 1:reader.line_num], start, delimiter)
            consumed = reader.line_num


def _within_width(row: Row, url: str, problems: list[Problem]) -> Row:
    if len(row.cells) <= MAX_CELLS:
        return row
    problems.append(problem("csv.row_too_wide", url=url or None, line=row.line, cells=len(row.cells), limit=MAX_CELLS))
    return Row(row.line, row.cells[:MAX_CELLS])


def _salvage(lines: list[str], start: int, delimiter: str) -> Iterator[Row]:
    reader = csv.reader(iter(lines), delimiter=delimiter, skipinitialspace=True)
    consumed = 0
    try:
        for cells in reader:
            yield Row(start + consumed, _trim(cells))
            consumed = reader.line_num
    except csv.Error:
        # Even the lenient reader refuses some records (a field over the csv module's size limit):
        # keep their bare cells rather than lose the lines.
        for offset, line in enumerate(lines[consumed:], start=consumed):
            yield Row(start + offset, _trim(line.rstrip("\r\n").split(delimiter)))


def _trim(cells: list[str]) -> tuple[str, ...]:
    if cells and cells[-1] and not cells[-1].isspace():
        return tuple(cells)
    end = len(cells)
    while end and not cells[end - 1].strip():
        end -= 1
    return tuple(cells[:end])


_HTML_MARKERS = ("<!doctype html", "<html", "<head", "<body", "<meta", "<title", "<script", "<div", "<p>")


def _markup_kind(text: str) -> Optional[str]:
    start = text.lstrip("\ufeff \t\r\n")[:2048].casefold()
    if start.startswith("<"):
        return "csv.html_instead_of_csv" if any(marker in start for marker in _HTML_MARKERS) else "csv.not_csv"
    if start.startswith("{") or start.startswith("["):
        return "csv.not_csv"
    return None
