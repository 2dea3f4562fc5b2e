"""MR 3.0 ``meta.csv``: the passport as ``property,value`` rows (Appendix 8).

Besides the fourteen fixed properties, every data version is a ``data-<v>-structure-<s>`` row and every
structure version a ``structure-<s>`` row. Version names come in many spellings on real sites; they are read
by ``fields.read_version_name``, like every other form's, and a row key that says more than its file name
(``data-1-structure-1,http://…/file.csv``) wins.
"""
from __future__ import annotations

import difflib
from typing import Any, Callable, Optional, Union

from ..csvrows import Row, Table, is_column_number_row, is_header, join_cells
from ..csvform import parse_csv_form
from ..dates import parse_date
from ..fields import (
    VersionName,
    clean_mbox,
    clean_phone,
    described_by_newest,
    field_key,
    file_format,
    newest_first,
    read_version_name,
    resolve,
    split_subject,
    standard_version,
    structure_word,
)
from ..forms import Form
from ..guarded import MAX_PER_CODE
from ..model import DataVersion, MRDate, ParseResult, Passport, Problem, StructureVersion
from ..problems import problem

FORM = Form.META_CSV


REQUIRED = (
    "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
    "format", "provenance", "valid", "publishername", "publisherphone", "publishermbox",
)
_DATES = ("created", "modified", "valid")
_TYPO_CUTOFF = 0.8
# A similarity ratio is 2M/(a+b) with M <= b matching characters: at the cutoff a name is at most
# (2/cutoff - 1) = 1.5 times as long as the name it misspells, the longest being 15 letters.
_TYPO_LENGTH = int(max(map(len, REQUIRED)) * (2 / _TYPO_CUTOFF - 1))


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    return parse_csv_form(data, url, FORM, _read)


def _read(table: Table, url: str, problems: list[Problem]) -> Optional[Passport]:
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    if rows and is_header(rows[0].cells, ("property", "value")):
        header_width = len(rows[0].cells)
        rows = rows[1:]
    else:
        header_width = 0
        problems.append(problem("passport.csv_missing_header", url=url or None, line=table.rows[0].line))
    values: dict[str, tuple[str, int]] = {}
    data_versions: list[DataVersion] = []
    structure_versions: list[StructureVersion] = []
    # Unknown rows so far: past the findings' budget a file is no passport with typos, and guessing stops.
    unknown = 0
    for row in rows:
        key = row.cell(0)
        value = _value(row, table.delimiter, header_width, url, problems)
        # No required name starts with "data", and field_key keeps a leading "data": a version row.
        name = "data" if key.startswith("data") else field_key(key)
        if name in REQUIRED:
            _keep(values, name, value, row, url, problems)
        elif name.startswith("data"):
            _add_version(data_versions, _version("data", key, value, row, url, problems), row, url, problems)
        elif structure_word(name):
            _add_version(structure_versions, _version("structure", key, value, row, url, problems), row, url, problems)
        else:
            meant = _typo_of(name) if unknown < MAX_PER_CODE else None
            if meant:
                problems.append(problem("passport.csv_property_typo", url=url or None, line=row.line, name=key, meant=meant))
                _keep(values, meant, value, row, url, problems)
            else:
                unknown += 1
                problems.append(problem("passport.csv_unknown_property", url=url or None, line=row.line, name=key))
    if not values and not data_versions and not structure_versions:
        problems.append(problem("passport.csv_not_a_passport", url=url or None))
        return None
    passport = _passport(values, url, problems)
    passport.data_versions = newest_first(data_versions)
    passport.structure_versions = newest_first(structure_versions)
    passport = described_by_newest(passport)
    _report_missing(passport, values, url, problems)
    return passport


def _typo_of(name: str) -> Optional[str]:
    """The required field ``name`` is a typo of, if any; a name too long to be one is not compared."""
    if len(name) > _TYPO_LENGTH:
        return None
    meant = difflib.get_close_matches(name, REQUIRED, n=1, cutoff=_TYPO_CUTOFF)
    return meant[0] if meant else None


def _value(row: Row, delimiter: str, header_width: int, url: str, problems: list[Problem]) -> str:
    if len(row.cells) <= 2 or header_width > 2:
        return row.cell(1)
    problems.append(problem("passport.csv_unquoted_value", url=url or None, line=row.line, name=row.cell(0)))
    return join_cells(row.cells[1:], delimiter)


def _add_version(
    versions: list, version: Union[DataVersion, StructureVersion], row: Row, url: str, problems: list[Problem]
) -> None:
    if version.source:
        versions.append(version)
    else:
        problems.append(problem("passport.version_without_source", url=url or None, line=row.line))


def _keep(
    values: dict[str, tuple[str, int]], name: str, value: str, row: Row, url: str, problems: list[Problem]
) -> None:
    if name in values:
        problems.append(problem("passport.csv_duplicate_property", url=url or None, line=row.line, name=name))
        return
    values[name] = (value, row.line)


def _passport(values: dict[str, tuple[str, int]], url: str, problems: list[Problem]) -> Passport:
    def text(name: str) -> str:
        return values.get(name, ("", 0))[0]

    passport = Passport(
        identifier=text("identifier"),
        title=text("title"),
        description=text("description"),
        creator=text("creator"),
        subject=split_subject(text("subject")),
        format=text("format").lower(),
        provenance=text("provenance"),
    )
    passport.publisher.name = text("publishername")
    passport.publisher.phone = clean_phone(text("publisherphone"))
    passport.publisher.mbox = clean_mbox(text("publishermbox"))
    if text("standardversion"):
        passport.standard_version, found = standard_version(text("standardversion"), area="passport", url=url)
        problems.extend(found)
    for name in _DATES:
        written, line = values.get(name, ("", 0))
        setattr(passport, name, read_date(written, name, url, line, problems))
    return passport


def read_date(text: str, name: str, url: str, line: Optional[int], problems: list[Problem]) -> Optional[MRDate]:
    """Parse a passport date, reporting text that is there but is no date."""
    date = parse_date(text)
    if date is not None and date.value is None:
        problems.append(problem("passport.csv_unreadable_date", url=url or None, line=line, element=name, text=text, name=name))
    return date


def _report_missing(
    passport: Passport, values: dict[str, tuple[str, int]], url: str, problems: list[Problem]
) -> None:
    for name in REQUIRED:
        if values.get(name, ("", 0))[0]:
            continue
        code = "passport.csv_missing_identifier" if name == "identifier" else "passport.csv_missing_property"
        problems.append(problem(code, url=url or None, element=name, name=name))
    if not passport.data_versions:
        problems.append(problem("passport.csv_no_data_versions", url=url or None))
    if not passport.structure_versions:
        problems.append(problem("passport.csv_no_structure_versions", url=url or None))


# --- version rows ---------------------------------------------------------------------------------------


def data_version_from_link(link: str, named: Optional[VersionName] = None) -> Optional[DataVersion]:
    """A data version described by ``named`` (its row key's reading) or else by its file name."""
    named = named if named is not None and named.kind == "data" else read_version_name(link)
    if named is None or named.kind != "data":
        return None
    return DataVersion(
        source=link, version=named.version, structure_version=named.structure, created=named.created,
        format=file_format(link),
    )


def structure_version_from_link(link: str, named: Optional[VersionName] = None) -> Optional[StructureVersion]:
    named = named if named is not None and named.kind == "structure" else read_version_name(link)
    if named is None or named.kind != "structure":
        return None
    return StructureVersion(source=link, version=named.version, created=named.created, format=file_format(link))


def _version(kind: str, key: str, value: str, row: Row, url: str, problems: list[Problem]) -> Any:
    """A ``data-…`` or ``structure-…`` row as a version: its key names it, its value links the file."""
    link = resolve(value, url)
    named = read_version_name(key)
    if named is None or named.kind != kind:
        problems.append(problem("passport.csv_unreadable_version_key", url=url or None, line=row.line, name=key))
    from_link, bare = _VERSION_KINDS[kind]
    version = from_link(link, named)
    if version is None:
        return bare(source=link, format=file_format(link) or file_format(key))
    version.format = version.format or file_format(key)
    return version


_VERSION_KINDS: dict[str, tuple[Callable[..., Any], type]] = {
    "data": (data_version_from_link, DataVersion),
    "structure": (structure_version_from_link, StructureVersion),
}
