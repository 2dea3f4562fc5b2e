"""MR 2.3 ``opendatalist.csv`` (also ``реестроткрытыхданных.csv``): one ``;``-separated record per dataset.

MR 2.3 fixes only the content (number, title, passport link), not the columns, so each record is read by
what its cells look like: the link is the cell that is a URL, the identifier the cell shaped
``<INN>-<name>`` (else the link's last path segment), the format a known format name, and the title the
first remaining text. Files are often Windows-1251; some carry an MR 3.0 ``standardversion`` row.
"""
from __future__ import annotations

import re
from typing import Optional

from ..csvrows import Row, Table, is_column_number_row
from ..csvform import parse_csv_form
from ..forms import Form
from ..model import STANDARD_2_3, ParseResult, Problem, Registry, RegistryEntry
from ..problems import problem
from .csv_list import (
    EntryCollector,
    is_standard_version_key,
    looks_like_link,
    standard_from_row,
)

FORM = Form.OPENDATALIST_CSV

_IDENTIFIER = re.compile(r"^\d{10,12}-\S+$")
_NUMBER = re.compile(r"^\d+\.?$")
_FORMATS = frozenset({"csv", "xml", "json", "xls", "xlsx", "ods", "zip", "rar", "7z", "rdf", "txt", "doc",
                      "docx", "pdf", "html", "xsd", "api", "shp", "kml", "geojson"})


def parse(data: bytes, url: str = "") -> ParseResult[Registry]:
    return parse_csv_form(data, url, FORM, _read)


def _read(table: Table, url: str, problems: list[Problem]) -> Optional[Registry]:
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    # A first record with neither a number nor a link is the header (its wording varies from site to site).
    if rows and not _NUMBER.match(rows[0].cell(0)) and not any(looks_like_link(c.strip()) for c in rows[0].cells):
        rows = rows[1:]
    registry = Registry()
    # MR 2.3 lists carry no identifier column: deriving it from the link is the normal case, not a fault.
    collector = EntryCollector(registry, url, problems, identifier_expected=False)
    for row in rows:
        if is_standard_version_key(row.cell(0)):
            registry.standard_version = registry.standard_version or standard_from_row(row, url, problems)
            continue
        collector.add(_entry(row), row)
    if not registry.entries:
        problems.append(problem("registry.csv_not_a_registry", url=url or None))
        return None
    registry.standard_version = registry.standard_version or STANDARD_2_3
    return registry


def _entry(row: Row) -> RegistryEntry:
    cells = [cell.strip() for cell in row.cells]
    entry = RegistryEntry()
    rest: list[str] = []
    for index, cell in enumerate(cells):
        if not entry.link and looks_like_link(cell):
            entry.link = cell
        elif not entry.identifier and _IDENTIFIER.match(cell):
            entry.identifier = cell
        elif not entry.format and cell.casefold().lstrip(".") in _FORMATS:
            entry.format = cell
        elif cell and not (index == 0 and _NUMBER.match(cell)):
            rest.append(cell)
    entry.title = rest[0] if rest else ""
    return entry
