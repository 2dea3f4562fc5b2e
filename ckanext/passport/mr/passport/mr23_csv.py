"""MR 2.x CSV passport: three columns ``№;Характеристика;Значение``, 17 rows in Appendix 1 order.

The MR 2.3 validator reads these rows by position (sections 6.5.2.2 and 6.6.2.2 of its algorithm): the data
file link, its format, the date of the last change (as the version date), the last change and the
structure link. Real files reorder, merge or renumber rows, so each row is also matched by its
characteristic name, and the name wins when it disagrees with the number.
"""
from __future__ import annotations

import re
from typing import Optional

from ..csvrows import Row, Table, is_column_number_row, is_header, join_cells
from ..characteristics import (
    APPENDIX_1, CREATED, CREATOR, DATA, DESCRIPTION, FORMAT, IDENTIFIER, MBOX, MODIFIED, PERIODICITY, PHONE,
    PREVIOUS_DATA, PREVIOUS_STRUCTURES, PROVENANCE, PUBLISHER, ROW_NAMES, STRUCTURE, SUBJECT, TITLE, VALID,
    row_by_name,
)
from ..csvform import parse_csv_form
from ..fields import clean_mbox, clean_phone, file_format, newest_first, resolve, split_subject
from ..forms import Form
from ..model import STANDARD_2_3, DataVersion, ParseResult, Passport, Problem, StructureVersion
from ..problems import problem
from .meta_csv import (
    data_version_from_link,
    read_date,
    structure_version_from_link,
)

FORM = Form.MR23_CSV


_REQUIRED = tuple(n for n in APPENDIX_1 if n not in (PREVIOUS_DATA, PREVIOUS_STRUCTURES))

_HEADER_NAMES = ("№", "№п/п", "характеристика", "значение", "наименование", "описание")
_NO_LINK = "null"


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    return parse_csv_form(data, url, FORM, _read)


def _read(table: Table, url: str, problems: list[Problem]) -> Optional[Passport]:
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    if rows and is_header(rows[0].cells, _HEADER_NAMES, minimum=2):
        rows = rows[1:]
    values: dict[int, tuple[str, Row]] = {}
    meant: Optional[int] = None
    position = 0
    for row in rows:
        if meant in (PREVIOUS_DATA, PREVIOUS_STRUCTURES) and _continues_links(row):
            # An unquoted line break in a list of version links leaves the rest of the list on its own line.
            text, first = values[meant]
            values[meant] = (text + "\n" + " ".join(row.cells), first)
            continue
        position += 1
        number, name, value = _cells(row, table.delimiter)
        meant = _row_number(number, name, position, row, url, problems)
        if meant is None:
            problems.append(problem("passport.csv_unknown_property", url=url or None, line=row.line, name=name or number))
        elif meant in values:
            problems.append(problem("passport.csv_duplicate_property", url=url or None, line=row.line, name=ROW_NAMES[meant]))
        else:
            values[meant] = (value, row)
    if not values:
        problems.append(problem("passport.csv_not_a_passport", url=url or None))
        return None
    return _passport(values, url, problems)


def _continues_links(row: Row) -> bool:
    return all("/" in cell for cell in row.cells) and not _is_number(row.cell(0))


def _cells(row: Row, delimiter: str) -> tuple[str, str, str]:
    """``(number, characteristic, value)``; the number column is optional, a split value is rejoined."""
    if _is_number(row.cell(0)):
        return row.cell(0).rstrip("."), row.cell(1), join_cells(row.cells[2:], delimiter)
    return "", row.cell(0), join_cells(row.cells[1:], delimiter)


def _is_number(text: str) -> bool:
    return _ROW_NUMBER.fullmatch(text) is not None


_ROW_NUMBER = re.compile(r"\d{1,2}\.?")
_LINK_SEPARATORS = re.compile(r"[\s,;]+")


def _row_number(
    number: str, name: str, position: int, row: Row, url: str, problems: list[Problem]
) -> Optional[int]:
    by_name = row_by_name(name)
    by_number = int(number) if number else position
    if by_name is None:
        return by_number if 1 <= by_number <= PREVIOUS_STRUCTURES else None
    if by_name != by_number:
        problems.append(problem(
            "passport.csv_row_number_mismatch", url=url or None, line=row.line, number=by_number, name=name, meant=by_name,
        ))
    return by_name


def _passport(values: dict[int, tuple[str, Row]], url: str, problems: list[Problem]) -> Passport:
    def text(number: int) -> str:
        return values[number][0] if number in values else ""

    def line(number: int) -> Optional[int]:
        return values[number][1].line if number in values else None

    passport = Passport(
        standard_version=STANDARD_2_3,
        identifier=text(IDENTIFIER),
        title=text(TITLE),
        description=text(DESCRIPTION),
        creator=text(CREATOR),
        format=text(FORMAT).lower(),
        provenance=text(PROVENANCE),
        periodicity=text(PERIODICITY),
        subject=split_subject(text(SUBJECT)),
        created=read_date(text(CREATED), "created", url, line(CREATED), problems),
        modified=read_date(text(MODIFIED), "modified", url, line(MODIFIED), problems),
        # MR 3.0's "Дата актуальности", which some 2.x files already carry; the standard stays 2.3 (the form's).
        valid=read_date(text(VALID), "valid", url, line(VALID), problems),
    )
    passport.publisher.name = text(PUBLISHER)
    passport.publisher.phone = clean_phone(text(PHONE))
    passport.publisher.mbox = clean_mbox(text(MBOX))
    current = _current_version(passport, text(DATA), url)
    previous = [
        data_version_from_link(link) or DataVersion(source=link, format=file_format(link))
        for link in _links(values.get(PREVIOUS_DATA), url, problems)
    ]
    passport.data_versions = _distinct(current, newest_first(previous))
    older = [_structure(link, url) for link in _links(values.get(PREVIOUS_STRUCTURES), url, problems)]
    passport.structure_versions = _distinct(_structure(text(STRUCTURE), url), newest_first(older))
    _report_missing(values, url, problems)
    return passport


def _current_version(passport: Passport, link: str, url: str) -> Optional[DataVersion]:
    # The validator's rule: the current version takes the passport's format, last-change date and
    # last-change text; MR 2.3 leaves those undefined for earlier versions.
    if not link:
        return None
    source = resolve(link, url)
    version = data_version_from_link(source) or DataVersion(source=source)
    version.format = passport.format or version.format
    version.created = passport.modified or version.created
    version.provenance = passport.provenance
    return version


def _structure(link: str, url: str) -> Optional[StructureVersion]:
    source = resolve(link, url)
    if not source:
        return None
    return structure_version_from_link(source) or StructureVersion(source=source, format=file_format(source))


def _links(found: Optional[tuple[str, Row]], url: str, problems: list[Problem]) -> list[str]:
    """Rows 16 and 17: links separated by spaces, commas or new lines; ``null`` when there are none."""
    if found is None:
        return []
    text, row = found
    links: list[str] = []
    for token in _LINK_SEPARATORS.split(text):
        if not token or token.casefold() == _NO_LINK:
            continue
        if "/" in token:
            links.append(resolve(token, url))
        else:
            problems.append(problem("passport.csv_unreadable_link", url=url or None, line=row.line, text=token, name=row.cell(1)))
    return links


def _distinct(current, older: list) -> list:
    """The current version first, then earlier ones, each link once."""
    seen: set[str] = set()
    result = []
    for version in ([current] if current is not None else []) + older:
        if version.source not in seen:
            seen.add(version.source)
            result.append(version)
    return result


def _report_missing(values: dict[int, tuple[str, Row]], url: str, problems: list[Problem]) -> None:
    for number in _REQUIRED:
        if values.get(number, ("", None))[0]:
            continue
        if number == IDENTIFIER:
            problems.append(problem("passport.csv_missing_identifier", url=url or None, element=ROW_NAMES[number]))
        elif number == DATA:
            problems.append(problem("passport.csv_no_data_versions", url=url or None))
        else:
            problems.append(problem("passport.csv_missing_property", url=url or None, element=ROW_NAMES[number],
                                    name=ROW_NAMES[number]))
    for number in (PREVIOUS_DATA, PREVIOUS_STRUCTURES):
        if number not in values:
            problems.append(problem("passport.csv_missing_property", url=url or None, element=ROW_NAMES[number],
                                    name=ROW_NAMES[number]))
