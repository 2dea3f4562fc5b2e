"""A passport published as a plain HTML table of its characteristics, without RDFa (form ``html-table``).

Many sites (the Federal Treasury's among them) show the passport as the table of MR 2.3 Appendix 1 on a page
of their template: an optional ``№`` column, the characteristic's name, its value, the data and structure
files as links in their cells, dates as ``01.02.2019``. Rows are matched by their characteristic name (the
one table of names, :mod:`..characteristics`), the MR 3.0 names and property names included; a row number is
trusted only where the table numbers its rows as Appendix 1 does. The page is read as MR 2.3 unless a row
names the recommendations' version.

A table counts as the passport only when enough of its rows name distinct characteristics, so a registry
(one row per dataset, its titles sometimes sharing a word with a characteristic) or a site's layout table
is not taken for one. The dispatcher (``read_page_passport``) reads a page this way only when it holds no RDFa
passport or registry, and completes from it an RDFa passport that links no data file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional
from urllib.parse import urlunsplit

from .. import urls
from ..characteristics import (
    APPENDIX_1, CREATED, CREATOR, DATA, DESCRIPTION, FORMAT, IDENTIFIER, LINK_ROWS, MBOX, MODIFIED, PERIODICITY,
    PHONE, PREVIOUS_DATA, PREVIOUS_STRUCTURES, PROVENANCE, PUBLISHER, ROW_NAMES, STANDARD_VERSION, STRUCTURE,
    SUBJECT, TITLE, VALID, row_by_name,
)
from ..csvrows import compact
from ..decode import decode_bytes
from ..dates import parse_date
from ..fields import (
    VersionName, clean_mbox, clean_phone, file_format, identifier_from_link, newest_first,
    read_version_name, resolve, split_subject, standard_version,
)
from ..forms import Form
from ..htmldom import REFUSALS, Cell, Link, Table, TableRow, page_tables, parse_html
from ..model import (
    STANDARD_2_3, STANDARD_3_0, DataVersion, MRDate, ParseResult, Passport, Problem, StructureVersion,
)
from ..problems import problem
from ..rdfagraph import RdfaPage, passport_subject, read_page
from .meta_csv import (
    data_version_from_link, read_date, structure_version_from_link,
)

FORM = Form.HTML_TABLE


# A table is a passport when at least this many distinct characteristics are named, by at least half its rows.
MINIMUM_CHARACTERISTICS = 6
_LONGEST_NAME = 120  # Appendix 1's longest name has 62 characters; a longer cell is prose or a layout cell.
_ROW_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})?\.?$")
_HEADER_WORDS = ("характеристик", "значени", "№", "п/п", "property", "value", "параметр")
_VALUE_HEADERS = ("значени", "value")
_NO_LINK = frozenset({"null", "нет", "-", "—", "отсутствует", "отсутствуют"})
# Used with fullmatch only. White space is ruled out once, up front: "\S+/\S+" alone would try every slash of a
# long cell with a space at its end, each to the end.
_TEXT_LINK = re.compile(r"(?=\S*+\Z)(?:(?:https?://|www\.).+|.+/.+|[\w.\-]+\.[A-Za-z][A-Za-z0-9]{1,4}\b)")
_DATE_IN_TEXT = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}|\d{4}-\d{2}-\d{2}")
# From the start of a run of white space only (never inside one), so a long run is read once.
_YEAR_SUFFIX = re.compile(r"(?<!\s)\s*+(?:г\.?|года)$", re.I)
_STANDARD_NUMBER = re.compile(r"(?<![\d.])([23]\.\d)(?![\d.])")


@dataclass
class Characteristic:
    """One characteristic as the table states it: its text and the links of its cell (or cells)."""

    row: int
    name: str
    number: str = ""  # the row's own number, when the table numbers its rows
    text: str = ""
    links: list[Link] = field(default_factory=list)


@dataclass
class _Reading:
    """A table read as characteristics; ``recognised`` of ``rows`` candidate rows named one."""

    values: dict[int, Characteristic]
    versions: list[tuple[VersionName, Characteristic]]
    unknown: list[str]
    duplicates: list[str]
    recognised: int
    rows: int

    @property
    def is_passport(self) -> bool:
        return len(self.values) + bool(self.versions) >= MINIMUM_CHARACTERISTICS and 2 * self.recognised >= self.rows


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    """Read the page's characteristics table, saying so (``passport.rdfa_missing``) when it has no RDFa passport."""
    page = read_page(data, url)
    return from_page(page, data, url, rdfa_passport=passport_subject(page.graph, url) is not None)


def from_page(page: RdfaPage, data: bytes, url: str, rdfa_passport: bool) -> ParseResult[Passport]:
    """The table passport of a page already read (the dispatcher reads a page once, for RDFa and its table)."""
    problems = list(page.problems)
    dom = page.dom
    if dom is None and not any(found.code in REFUSALS for found in problems):
        # pyRdfa failed on the page (its finding stays): the tables are read from a parse of their own.
        dom = parse_html(decode_bytes(data, url).text, url).dom
    table_problems: list[Problem] = []
    passport = read_tables(page_tables(dom, url), url, table_problems)
    if passport is not None and not rdfa_passport:
        problems.append(problem("passport.rdfa_missing", url=url or None))
    return ParseResult(passport, problems + table_problems, form=FORM, encoding=page.encoding)


def read_tables(tables: Iterable[Table], url: str, problems: list[Problem]) -> Optional[Passport]:
    """The passport of the best characteristics table, ``None`` (with ``passport.table_not_found``) when none is."""
    best = _best(tables)
    if best is None:
        problems.append(problem("passport.table_not_found", url=url or None))
        return None
    for name in best.unknown:
        problems.append(problem("passport.csv_unknown_property", url=url or None, element=name, name=name))
    for name in best.duplicates:
        problems.append(problem("passport.csv_duplicate_property", url=url or None, element=name, name=name))
    return _passport(best.values, best.versions, url, problems)


def characteristics(tables: Iterable[Table]) -> dict[int, Characteristic]:
    """The characteristics of the page's best table, empty when none reads as a passport (RDFa pages' tables)."""
    best = _best(tables)
    return best.values if best is not None else {}


def _best(tables: Iterable[Table]) -> Optional[_Reading]:
    """The table naming the most characteristics; none when tables name several datasets (a list of them)."""
    readings = [reading for reading in map(_read, tables) if reading.is_passport]
    identifiers = {" ".join(reading.values[IDENTIFIER].text.split()).casefold()
                   for reading in readings if IDENTIFIER in reading.values and reading.values[IDENTIFIER].text}
    if len(identifiers) > 1:
        return None
    return max(readings, key=lambda reading: len(reading.values)) if readings else None


# --- rows ------------------------------------------------------------------------------------------------

@dataclass
class _Columns:
    """Where the name and the value are, when a header row says so."""

    name: Optional[int] = None
    value: Optional[int] = None
    width: int = 0


def _read(table: Table) -> _Reading:
    values: dict[int, Characteristic] = {}
    versions: list[tuple[VersionName, Characteristic]] = []
    unknown: list[str] = []
    duplicates: list[str] = []
    numbered: list[tuple[str, TableRow]] = []
    columns = _Columns()
    last: Optional[Characteristic] = None
    recognised = rows = 0
    for row in table.rows:
        filled = row.filled
        if not filled:
            continue
        if _is_header(row):
            # The first header names the columns; a header repeated further down (long tables do) is skipped.
            if not values and not rows:
                columns = _header_columns(row)
            continue
        if last is not None and last.row in LINK_ROWS and _continues_links(row, columns):
            # A list of versions in rows of their own, under a name cell spanning them (rowspan).
            _extend(last, [cell for cell in row.cells if cell.text or cell.links])
            continue
        split = _split(row, columns)
        if split is None:
            if len(filled) > 1:
                rows += 1
            last = None
            continue
        number, name, value_cells = split
        rows += 1
        meant = row_by_name(name) if len(name) <= _LONGEST_NAME else None
        named = read_version_name(name) if meant is None else None
        if named is not None:
            # MR 3.0's rows "data-<version>-structure-<structure>" and "structure-<version>", as meta.csv has them.
            version = Characteristic(0, name, number)
            _extend(version, value_cells)
            versions.append((named, version))
            recognised += 1
            last = None
            continue
        if meant is None:
            if number:
                numbered.append((number, row))
            else:
                unknown.append(name)
            last = None
            continue
        recognised += 1
        if meant in values:
            duplicates.append(ROW_NAMES[meant])
            if meant in LINK_ROWS:
                # A second row of links (one per format, say): its files are kept, after the first row's.
                _extend(values[meant], value_cells)
            last = None
            continue
        last = values[meant] = Characteristic(meant, name, number)
        _extend(last, value_cells)
    _by_number(values, numbered, unknown, columns)
    return _Reading(values, versions, unknown, duplicates, recognised, rows)


def _is_header(row: TableRow) -> bool:
    texts = [compact(cell.text) for cell in row.filled]
    if row.in_head or all(cell.header for cell in row.filled):
        return any(any(word in text for word in _HEADER_WORDS) for text in texts) or row.in_head
    return sum(1 for text in texts if any(word in text for word in _HEADER_WORDS)) >= 2


def _header_columns(row: TableRow) -> _Columns:
    columns = _Columns(width=len(row.cells))
    for index, cell in enumerate(row.cells):
        text = compact(cell.text)
        if columns.value is None and any(word in text for word in _VALUE_HEADERS):
            columns.value = index
        elif columns.name is None and any(word in text for word in ("характеристик", "наименован", "property",
                                                                     "параметр", "показател", "поле")):
            columns.name = index
    return columns


def _split(row: TableRow, columns: _Columns) -> Optional[tuple[str, str, list[Cell]]]:
    """``(number, name, value cells)`` of a row, ``None`` when it is no characteristic row."""
    cells = row.cells
    if (columns.name is not None and columns.value is not None and len(cells) == columns.width
            and columns.name < columns.value):
        number = cells[0].text if columns.name > 0 and _is_number(cells[0].text) else ""
        return number, _name_text(cells[columns.name]), [cells[columns.value]]
    filled = [index for index, cell in enumerate(cells) if cell.text or cell.links]
    if not filled:
        return None
    start = filled[0]
    number = ""
    if _is_number(cells[start].text) and start + 1 < len(cells):
        number, start = cells[start].text, start + 1
    name, rest = cells[start], cells[start + 1:]
    if not name.text or not (rest or number):
        # A heading spanning the table, or a cell with nothing beside it; a numbered name may lack its value cell.
        return None
    if len([cell for cell in rest if cell.text or cell.links]) > 2:
        # Four or more filled columns: a registry's row (number, identifier, title, link, format), not a passport's.
        return None
    return number, _name_text(name), rest


def _name_text(cell: Cell) -> str:
    return cell.text.replace("\n", " ")


def _is_number(text: str) -> bool:
    return _ROW_NUMBER.match(text.strip()) is not None


def _continues_links(row: TableRow, columns: _Columns) -> bool:
    filled = row.filled
    return (len(filled) <= 2 and any(cell.links for cell in filled)
            and not any(row_by_name(cell.text) for cell in filled if not cell.links)
            and not _is_number(row.cells[0].text)
            and (columns.width == 0 or len(row.cells) < columns.width))


def _extend(found: Characteristic, cells: Iterable[Cell]) -> None:
    texts = [cell.text for cell in cells if cell.text]
    found.text = "\n".join(([found.text] if found.text else []) + texts)
    found.links += [link for cell in cells for link in cell.links]


def _by_number(
    values: dict[int, Characteristic], numbered: list[tuple[str, TableRow]], unknown: list[str], columns: _Columns
) -> None:
    """Unnamed rows by their number, when the table numbers its rows as Appendix 1 does; else they are unknown."""
    if not numbered:
        return
    named = [found for found in values.values() if found.number]
    as_appendix = bool(named) and 2 * sum(1 for found in named if _number(found.number) == found.row) > len(named)
    for number, row in numbered:
        split = _split(row, columns)
        name = split[1] if split else number
        meant = _number(number)
        if as_appendix and split is not None and meant in APPENDIX_1 and meant not in values:
            values[meant] = Characteristic(meant, name, number)
            _extend(values[meant], split[2])
        else:
            unknown.append(name)


def _number(text: str) -> Optional[int]:
    head = text.strip().split(".")[0]
    return int(head) if head.isdigit() else None


# --- the passport ----------------------------------------------------------------------------------------

def _passport(
    values: dict[int, Characteristic], versions: list[tuple[VersionName, Characteristic]], url: str,
    problems: list[Problem],
) -> Passport:
    def text(number: int) -> str:
        return " ".join(values[number].text.split("\n")) if number in values else ""

    def date(number: int) -> Optional[MRDate]:
        return read_date(_YEAR_SUFFIX.sub("", text(number)), ROW_NAMES[number], url, None, problems)

    passport = Passport(
        standard_version=_standard(values.get(STANDARD_VERSION), url, problems),
        identifier=text(IDENTIFIER),
        title=text(TITLE),
        description=text(DESCRIPTION),
        creator=text(CREATOR),
        format=text(FORMAT).lower(),
        provenance=text(PROVENANCE),
        periodicity=text(PERIODICITY),
        subject=split_subject(text(SUBJECT)),
        created=date(CREATED),
        modified=date(MODIFIED),
        valid=date(VALID),
    )
    passport.publisher.name = text(PUBLISHER)
    passport.publisher.phone = _contact(values.get(PHONE), "tel:", clean_phone)
    passport.publisher.mbox = _contact(values.get(MBOX), "mailto:", clean_mbox)
    current = [_data_version(link) for link in _links(values.get(DATA), url)]
    older = [_data_version(link) for link in _links(values.get(PREVIOUS_DATA), url)]
    older += [_data_version(link, named) for named, row in versions if named.kind == "data"
              for link in _links(row, url)[:1]]
    passport.data_versions = _distinct(_as_current(newest_first(current), passport) + newest_first(older))
    structures = [_structure(link) for link in _links(values.get(STRUCTURE), url)]
    older_structures = [_structure(link) for link in _links(values.get(PREVIOUS_STRUCTURES), url)]
    older_structures += [_structure(link, named) for named, row in versions if named.kind == "structure"
                         for link in _links(row, url)[:1]]
    passport.structure_versions = _distinct(newest_first(structures) + newest_first(older_structures))
    _report_missing(values, versions, passport, url, problems)
    if not passport.identifier and re.match(r"^\d{10}(?:\d{2})?-", identifier_from_link(url)):
        # The page's address names the dataset as MR asks (<site>/opendata/<INN>-<name>/).
        passport.identifier = identifier_from_link(url)
    return passport


def _standard(found: Optional[Characteristic], url: str, problems: list[Problem]) -> str:
    if found is None:
        return STANDARD_2_3  # Appendix 1's table: MR 2.3, as the 3-column CSV passport is read.
    link = next((link.href for link in found.links if "/standard/" in link.href.lower()), "")
    published = link or " ".join(found.text.split())
    number = _STANDARD_NUMBER.search(published) if "://" not in published else None
    if number:
        # "3.0": MR 3.0 asks for the link that names the version.
        canonical = f"http://opendata.gosmonitor.ru/standard/{number.group(1)}"
        problems.append(problem("passport.standard_version_variant", url=url or None, element="standardversion",
                                text=published, canonical=canonical))
        return canonical
    read, found_problems = standard_version(published, area="passport", url=url)
    problems.extend(found_problems)
    return read


def _contact(found: Optional[Characteristic], scheme: str, clean: Callable[[str], str]) -> str:
    if found is None:
        return ""
    for link in found.links:
        if link.href.lower().startswith(scheme):
            return clean(link.href)
    return clean(" ".join(found.text.split("\n")))


@dataclass
class _FileLink:
    href: str
    text: str


def _links(found: Optional[Characteristic], url: str) -> list[_FileLink]:
    """The files a cell links: its ``<a href>``, else the addresses written out in its text."""
    if found is None:
        return []
    folder = _dataset_folder(url)
    links: list[_FileLink] = []
    for link in found.links:
        href = link.href
        if not href or href.startswith("#") or href.lower().startswith(("javascript:", "mailto:", "tel:")):
            # "<a href="#!">data-….json</a>": the file is named only by the link's text.
            if _TEXT_LINK.fullmatch(link.text or ""):
                links.append(_FileLink(resolve(link.text, folder), link.text))
            continue
        links.append(_FileLink(href, link.text))
    if links or found.links:
        return links
    for token in re.split(r"[\s,;]+", found.text):
        if token and token.casefold() not in _NO_LINK and _TEXT_LINK.fullmatch(token):
            links.append(_FileLink(resolve(token, folder), ""))
    return links


def _dataset_folder(url: str) -> str:
    """Where a file named only in the text lives: MR 2.3 names the page ``<site>/opendata/<id>`` and its files
    ``<site>/opendata/<id>/data-…``, so a page address without a trailing slash or an extension is a folder.

    Links (``href``) keep a browser's reading, relative to the page's own folder.
    """
    parts = urls.split(url)
    if parts is None or not parts.path or parts.path.endswith("/") or "." in parts.path.rsplit("/", 1)[-1]:
        return url
    return urlunsplit(parts._replace(path=parts.path + "/", query="", fragment=""))


def _data_version(link: _FileLink, named: Optional[VersionName] = None) -> DataVersion:
    # The row's key or the file's own name says the version; a link to a CMS's upload name may carry it in its text.
    named = named or read_version_name(link.href)
    if named is None or named.kind != "data":
        named = read_version_name(link.text) if link.text else None
    version = data_version_from_link(link.href, named) or DataVersion(source=link.href, format=file_format(link.href))
    version.format = version.format or file_format(link.text)
    version.created = version.created or _date_in(link.text)
    return version


def _structure(link: _FileLink, named: Optional[VersionName] = None) -> StructureVersion:
    named = named or read_version_name(link.href)
    if named is None or named.kind != "structure":
        named = read_version_name(link.text) if link.text else None
    structure = structure_version_from_link(link.href, named) or StructureVersion(
        source=link.href, format=file_format(link.href))
    structure.format = structure.format or file_format(link.text)
    structure.created = structure.created or _date_in(link.text)
    return structure


def _date_in(text: str) -> Optional[MRDate]:
    """A date in a link's text ("Версия от 01.02.2019"), for files whose names state none."""
    found = _DATE_IN_TEXT.search(text or "")
    return parse_date(found.group()) if found else None


def _as_current(versions: list[DataVersion], passport: Passport) -> list[DataVersion]:
    # As the MR 2.3 validator reads row 8: the current version takes the passport's format, its date of last
    # change and the content of that change (MR 2.3 leaves them undefined for earlier versions).
    if versions:
        newest = versions[0]
        newest.format = passport.format or newest.format
        newest.created = passport.modified or newest.created
        newest.provenance = passport.provenance
    return versions


def _distinct(versions: list) -> list:
    seen: set[str] = set()
    result = []
    for version in versions:
        if version.source and version.source not in seen:
            seen.add(version.source)
            result.append(version)
    return result


# MR 3.0's required fields (meta.csv's), for a table that names that standard; else Appendix 1's rows.
_REQUIRED_3_0 = (IDENTIFIER, TITLE, DESCRIPTION, CREATOR, PUBLISHER, PHONE, MBOX, DATA, FORMAT, STRUCTURE, CREATED,
                 MODIFIED, PROVENANCE, SUBJECT, VALID)


def _report_missing(
    values: dict[int, Characteristic], versions: list, passport: Passport, url: str, problems: list[Problem]
) -> None:
    required = _REQUIRED_3_0 if passport.standard_version == STANDARD_3_0 else APPENDIX_1
    for number in required:
        found = values.get(number)
        if number in (PREVIOUS_DATA, PREVIOUS_STRUCTURES):
            # Required as rows ("null" when there are none), as in the MR 2.x CSV passport.
            if found is None and not versions:
                problems.append(problem("passport.csv_missing_property", url=url or None, element=ROW_NAMES[number],
                                        name=ROW_NAMES[number]))
            continue
        if found is not None and (found.text or found.links):
            continue
        name = ROW_NAMES[number]
        if number == IDENTIFIER:
            problems.append(problem("passport.csv_missing_identifier", url=url or None, element=name))
        elif number == DATA:
            if not passport.data_versions:
                problems.append(problem("passport.csv_no_data_versions", url=url or None))
        elif number == STRUCTURE and passport.structure_versions:
            continue
        else:
            problems.append(problem("passport.csv_missing_property", url=url or None, element=name, name=name))
