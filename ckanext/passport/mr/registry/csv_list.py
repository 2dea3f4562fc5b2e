"""MR 3.0 ``list.csv``: the open data registry as ``property,title,value,format`` rows.

The first row after the header is ``standardversion,<title>,<standard URL>,``; every other row is one dataset
``<identifier>,<title>,<passport link>,<format>``. Real files drop the header, use ``;``, or spell the key
``"standard version"``.
"""
from __future__ import annotations

import difflib
import re
from typing import Optional

from ..csvrows import Row, Table, compact, is_column_number_row, is_header, join_cells
from ..csvform import parse_csv_form
from ..fields import standard_version
from ..forms import Form
from ..model import ParseResult, Problem, Registry, RegistryEntry
from ..problems import problem
from .entries import EntryChecker

FORM = Form.LIST_CSV


_HEADER = ("property", "title", "value", "format")
_LINK = re.compile(r"^(?:https?://|www\.|/)\S*$", re.IGNORECASE)


def parse(data: bytes, url: str = "") -> ParseResult[Registry]:
    return parse_csv_form(data, url, FORM, _read)


def _read(table: Table, url: str, problems: list[Problem]) -> Optional[Registry]:
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    if rows and is_header(rows[0].cells, _HEADER, minimum=2):
        rows = rows[1:]
    else:
        problems.append(problem("registry.csv_missing_header", url=url or None, line=table.rows[0].line))
    registry = Registry()
    collector = EntryCollector(registry, url, problems)
    for row in rows:
        if is_standard_version_key(row.cell(0)):
            registry.standard_version = registry.standard_version or standard_from_row(row, url, problems)
            continue
        collector.add(_entry(row, table.delimiter, url, problems), row)
    if not registry.standard_version and not registry.entries:
        problems.append(problem("registry.csv_not_a_registry", url=url or None))
        return None
    if not registry.standard_version:
        problems.append(problem("registry.csv_missing_standard_version", url=url or None))
    return registry


def _entry(row: Row, delimiter: str, url: str, problems: list[Problem]) -> RegistryEntry:
    cells = [cell.strip() for cell in row.cells]
    if len(cells) <= 4:
        cells += [""] * (4 - len(cells))
        return RegistryEntry(identifier=cells[0], title=cells[1], link=cells[2], format=cells[3])
    # An unquoted comma in the title splits it; the link cell shows where the title ends.
    link_at = next((i for i in range(2, len(cells)) if looks_like_link(cells[i])), 2)
    problems.append(problem("registry.csv_unquoted_value", url=url or None, line=row.line))
    return RegistryEntry(
        identifier=cells[0],
        title=join_cells(cells[1:link_at], delimiter),
        link=cells[link_at],
        format=join_cells(cells[link_at + 1:], delimiter),
    )


class EntryCollector:
    """Adds the entries that pass the registry's checks, with problems located by line."""

    def __init__(
        self, registry: Registry, url: str, problems: list[Problem], identifier_expected: bool = True
    ) -> None:
        self.registry = registry
        self.problems = problems
        self.checker = EntryChecker(url, identifier_expected)

    def add(self, entry: RegistryEntry, row: Row) -> None:
        if self.checker.check(entry, self.problems, line=row.line):
            self.registry.entries.append(entry)


def is_standard_version_key(key: str) -> bool:
    """``standardversion`` and its spellings (``"standard version"``, ``standart_version``)."""
    name = compact(key)
    # A ratio 2M/(a+b) of 0.85 to the 15 letters of "standardversion" needs 11 to 20 letters.
    return 11 <= len(name) <= 20 and bool(difflib.get_close_matches(name, ("standardversion",), n=1, cutoff=0.85))


def standard_from_row(row: Row, url: str, problems: list[Problem]) -> str:
    """The standard URL: MR puts it in the third cell, some files in the second."""
    value = row.cell(2) or next((cell.strip() for cell in row.cells[1:] if looks_like_link(cell.strip())), "")
    if not value:
        return ""
    canonical, found = standard_version(value, area="registry", url=url)
    problems.extend(found)
    return canonical


def looks_like_link(text: str) -> bool:
    return bool(_LINK.match(text))
