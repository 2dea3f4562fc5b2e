"""MR 3.0 ``meta.csv``: the passport as ``property,value`` rows (Appendix 8).

Besides the fourteen fixed properties, every data version is a ``data-<v>-structure-<s>`` row and every
structure version a ``structure-<s>`` row. Version names come in many spellings on real sites
(``data-20130601T0000-structure-20130401T0000``, ``data-1-structure-1``, ``data_20140930_structure_1_20140930``,
``data-10122025-structure-10062025``, keys with file extensions, ``strucrure``); the readers of those names
live here and the MR 2.x CSV passport reuses them for its version URLs.
"""
from __future__ import annotations

import difflib
import re
from typing import Optional, Union
from urllib.parse import urljoin

from ..csvrows import Row, Table, is_column_number_row, is_header, join_cells, read_rows
from ..dates import parse_date
from ..decode import decode_bytes
from ..fields import (
    VERSION_WITHOUT_SOURCE,
    clean_mbox,
    clean_phone,
    field_key,
    file_format,
    last_segment,
    newest_first,
    split_subject,
    standard_version,
    structure_name,
    version_names,
)
from ..model import DataVersion, MRDate, ParseResult, Passport, Problem, Severity, StructureVersion
from ..problems import define, problem

FORM = "meta.csv"

MISSING_HEADER = define(
    "passport.csv_missing_header", Severity.WARNING,
    "Нет строки заголовка «property,value»",
    "The header row 'property,value' is missing",
)
MISSING_PROPERTY = define(
    "passport.csv_missing_property", Severity.WARNING,
    "Обязательное поле паспорта «{name}» отсутствует или пусто",
    "The required passport field '{name}' is missing or empty",
)
MISSING_IDENTIFIER = define(
    "passport.csv_missing_identifier", Severity.ERROR,
    "В паспорте нет идентификатора набора данных",
    "The passport has no dataset identifier",
)
UNKNOWN_PROPERTY = define(
    "passport.csv_unknown_property", Severity.WARNING,
    "Неизвестное поле паспорта «{name}»",
    "Unknown passport field '{name}'",
)
PROPERTY_TYPO = define(
    "passport.csv_property_typo", Severity.WARNING,
    "Поле «{name}» прочитано как «{meant}»",
    "Field '{name}' was read as '{meant}'",
)
DUPLICATE_PROPERTY = define(
    "passport.csv_duplicate_property", Severity.WARNING,
    "Поле «{name}» повторяется; используется первое значение",
    "Field '{name}' is repeated; the first value is used",
)
UNREADABLE_DATE = define(
    "passport.csv_unreadable_date", Severity.WARNING,
    "Дата «{text}» в поле «{name}» не распознана",
    "The date '{text}' in field '{name}' could not be read",
)
UNREADABLE_VERSION_KEY = define(
    "passport.csv_unreadable_version_key", Severity.WARNING,
    "Имя версии «{name}» не соответствует шаблону data-<версия>-structure-<версия структуры>",
    "The version name '{name}' does not follow data-<version>-structure-<structure version>",
)
NO_DATA_VERSIONS = define(
    "passport.csv_no_data_versions", Severity.WARNING,
    "В паспорте нет ни одной ссылки на файл набора данных",
    "The passport links no data file",
)
NO_STRUCTURE_VERSIONS = define(
    "passport.csv_no_structure_versions", Severity.WARNING,
    "В паспорте нет ни одной ссылки на файл структуры",
    "The passport links no structure file",
)
UNQUOTED_VALUE = define(
    "passport.csv_unquoted_value", Severity.WARNING,
    "Значение поля «{name}» содержит разделитель без кавычек; ячейки объединены",
    "The value of field '{name}' holds an unquoted delimiter; the cells were joined",
)
NOT_A_PASSPORT = define(
    "passport.csv_not_a_passport", Severity.ERROR,
    "Файл CSV не похож на паспорт набора открытых данных",
    "The CSV file does not look like an open data passport",
)

REQUIRED = (
    "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
    "format", "provenance", "valid", "publishername", "publisherphone", "publishermbox",
)
_DATES = ("created", "modified", "valid")


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    decoded = decode_bytes(data, url)
    table = read_rows(decoded.text, url)
    problems = decoded.problems + table.problems
    passport = _read(table, url, problems) if table.rows else None
    return ParseResult(value=passport, problems=problems, form=FORM, encoding=decoded.encoding)


def _read(table: Table, url: str, problems: list[Problem]) -> Optional[Passport]:
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    if rows and is_header(rows[0].cells, ("property", "value")):
        header_width = len(rows[0].cells)
        rows = rows[1:]
    else:
        header_width = 0
        problems.append(problem(MISSING_HEADER, url=url or None, line=table.rows[0].line))
    values: dict[str, tuple[str, int]] = {}
    data_versions: list[DataVersion] = []
    structure_versions: list[StructureVersion] = []
    for row in rows:
        key = row.cell(0)
        value = _value(row, table.delimiter, header_width, url, problems)
        name = field_key(key)
        if name in REQUIRED:
            _keep(values, name, value, row, url, problems)
        elif name.startswith("data"):
            _add_version(data_versions, _data_version(key, value, row, url, problems), row, url, problems)
        elif _structure_word(name):
            _add_version(structure_versions, _structure_version(key, value, row, url, problems), row, url, problems)
        else:
            meant = difflib.get_close_matches(name, REQUIRED, n=1, cutoff=0.8)
            if meant:
                problems.append(problem(PROPERTY_TYPO, url=url or None, line=row.line, name=key, meant=meant[0]))
                _keep(values, meant[0], value, row, url, problems)
            else:
                problems.append(problem(UNKNOWN_PROPERTY, url=url or None, line=row.line, name=key))
    if not values and not data_versions and not structure_versions:
        problems.append(problem(NOT_A_PASSPORT, url=url or None))
        return None
    passport = _passport(values, url, problems)
    passport.data_versions = newest_first(data_versions)
    passport.structure_versions = newest_first(structure_versions)
    _describe_newest(passport)
    _report_missing(passport, values, url, problems)
    return passport


def _value(row: Row, delimiter: str, header_width: int, url: str, problems: list[Problem]) -> str:
    if len(row.cells) <= 2 or header_width > 2:
        return row.cell(1)
    problems.append(problem(UNQUOTED_VALUE, url=url or None, line=row.line, name=row.cell(0)))
    return join_cells(row.cells[1:], delimiter)


def _add_version(
    versions: list, version: Union[DataVersion, StructureVersion], row: Row, url: str, problems: list[Problem]
) -> None:
    if version.source:
        versions.append(version)
    else:
        problems.append(problem(VERSION_WITHOUT_SOURCE, url=url or None, line=row.line))


def _keep(
    values: dict[str, tuple[str, int]], name: str, value: str, row: Row, url: str, problems: list[Problem]
) -> None:
    if name in values:
        problems.append(problem(DUPLICATE_PROPERTY, url=url or None, line=row.line, name=name))
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
        problems.append(problem(UNREADABLE_DATE, url=url or None, line=line, element=name, text=text, name=name))
    return date


def _describe_newest(passport: Passport) -> None:
    # MR 3.0 defines provenance and valid as describing the latest data version.
    if passport.data_versions:
        newest = passport.data_versions[0]
        newest.provenance = newest.provenance or passport.provenance
        newest.valid = newest.valid or passport.valid


def _report_missing(
    passport: Passport, values: dict[str, tuple[str, int]], url: str, problems: list[Problem]
) -> None:
    for name in REQUIRED:
        if values.get(name, ("", 0))[0]:
            continue
        code = MISSING_IDENTIFIER if name == "identifier" else MISSING_PROPERTY
        problems.append(problem(code, url=url or None, element=name, name=name))
    if not passport.data_versions:
        problems.append(problem(NO_DATA_VERSIONS, url=url or None))
    if not passport.structure_versions:
        problems.append(problem(NO_STRUCTURE_VERSIONS, url=url or None))


# --- version rows and names -----------------------------------------------------------------------------

_WORD = re.compile(r"[a-z]{6,11}", re.IGNORECASE)
_NUMBERED = re.compile(r"^(?P<number>\d+)[-_](?P<rest>.+)$")


def _structure_word(word: str) -> bool:
    """``structure`` and its misspellings seen in the wild (``strucrure``, ``stucture``)."""
    return difflib.SequenceMatcher(None, word[:9].casefold(), "structure").ratio() >= 0.75


def _spelled_out(name: str) -> str:
    """A key or file name respelled the MR way (``data 1 strucrure 1`` → ``data-1-structure-1``)."""
    words = _WORD.sub(lambda m: "-structure-" if _structure_word(m.group()) else m.group(), name.strip())
    return re.sub(r"[-_\s]*-[-_\s]*|\s+", "-", words).strip("-")


def read_data_name(name: str) -> Optional[tuple[str, str]]:
    """``(data version, structure version)`` from a row key or file name, ``None`` when unreadable."""
    data, structure = version_names(_spelled_out(name))
    return (data, structure) if data and structure else None


def read_structure_name(name: str) -> Optional[str]:
    """The structure version from a ``structure-<s>`` row key or file name, ``None`` when unreadable."""
    return structure_name(_spelled_out(name)) or None


def version_parts(token: str) -> tuple[str, Optional[MRDate]]:
    """A version token as ``(version, date)``.

    ``20130401T0000`` and ``2016-04-21`` are dates themselves. MR 2.3 names structures
    ``structure-<number>-<date>`` (or ``structure-2-data-11``): the version is then the number, so that the
    data rows that cite ``structure-1`` find it.
    """
    date = parse_date(token)
    if date is not None and date.value is not None:
        return token, date
    numbered = _NUMBERED.match(token)
    if numbered:
        rest = numbered.group("rest")
        date = parse_date(rest)
        if date is not None and date.value is not None:
            return numbered.group("number"), date
        if rest.casefold().startswith("data"):
            return numbered.group("number"), None
    return token, None


def resolve(link: str, url: str) -> str:
    """Links may be relative to the passport they are read from."""
    link = link.strip()
    return urljoin(url, link) if url and link else link


def data_version_from_link(link: str, key: str = "") -> Optional[DataVersion]:
    """A data version described by its key (if any) or else by its file name; ``None`` when neither reads."""
    names = (read_data_name(key) if key else None) or read_data_name(last_segment(link))
    if names is None:
        return None
    version, created = version_parts(names[0])
    structure, _ = version_parts(names[1])
    return DataVersion(
        source=link, version=version, structure_version=structure, created=created,
        format=file_format(link) or file_format(key),
    )


def structure_version_from_link(link: str, key: str = "") -> Optional[StructureVersion]:
    token = (read_structure_name(key) if key else None) or read_structure_name(last_segment(link))
    if token is None:
        return None
    version, created = version_parts(token)
    return StructureVersion(source=link, version=version, created=created, format=file_format(link) or file_format(key))


def _data_version(key: str, value: str, row: Row, url: str, problems: list[Problem]) -> DataVersion:
    link = resolve(value, url)
    version = data_version_from_link(link, key)
    if version is None or read_data_name(key) is None:
        problems.append(problem(UNREADABLE_VERSION_KEY, url=url or None, line=row.line, name=key))
    return version or DataVersion(source=link, format=file_format(link))


def _structure_version(key: str, value: str, row: Row, url: str, problems: list[Problem]) -> StructureVersion:
    link = resolve(value, url)
    version = structure_version_from_link(link, key)
    if version is None or read_structure_name(key) is None:
        problems.append(problem(UNREADABLE_VERSION_KEY, url=url or None, line=row.line, name=key))
    return version or StructureVersion(source=link, format=file_format(link))
