"""Data against structure: does the newest data file's header name the fields its structure file describes?

As the MR validator does, the newest data version's file and its structure file are fetched (a missing one is
``fetch.not_found``, «файл не найден»). Of the data file only a capped head is read: a header is in its
first bytes, and data files run to gigabytes. The header is the first CSV row (read as every CSV form is:
encoding and delimiter detected), the keys of a JSON file's first record, or the child elements of an XML
file's first record; other formats (archives, spreadsheets) have no header to compare, and are left alone.

Each header cell is matched to a structure field: by its name, else loosely (case, separators,
transliteration, or the field's title or description: a renamed column), else by position (renamed too),
counted from the nearest column that matched, so that one added column does not rename all the rest; what
is left is a missing field or an extra column. A first row that names
no field at all is one finding, not one per column: the file most likely has no header row.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from lxml import etree

from .csvrows import is_column_number_row, read_rows
from .decode import decode_bytes
from .fetch import FetchResult
from .fields import file_format, newest_first
from .guarded import never_raising
from .jsontext import TooDeep, decode_at, load_json
from .limits import DEFAULT_LIMITS
from .model import DataVersion, ParseResult, Passport, Problem, StructureField, StructureVersion
from .problems import problem
from .safexml import pull_parser
from .sniff import sniff
from .structure import read_structure_fields


# Reads one file: ``fetch_one(url)`` whole (within the fetch policy's cap), ``fetch_one(url, head_bytes=N)``
# its first N bytes only, ``fetch_one(url, max_bytes=N)`` whole within a lower cap (refused past it).
FetchOne = Callable[..., FetchResult]

DEFAULT_HEAD_BYTES = 64 * 1024
_TABULAR = frozenset({"csv", "txt", "tsv"})
_CSV_PROBLEMS = frozenset({"csv.empty", "csv.html_instead_of_csv", "csv.not_csv"})


def check_data(passport: Passport, fetch_one: FetchOne, head_bytes: int = DEFAULT_HEAD_BYTES,
               max_structure_bytes: int = DEFAULT_LIMITS.structure_bytes) -> list[Problem]:
    """Findings about the newest data file and its structure file (read up to ``max_structure_bytes``); empty
    when they agree. Never raises: a failure is ``data.unreadable``."""
    return never_raising(
        lambda: ParseResult(None, _check_data(passport, fetch_one, head_bytes, max_structure_bytes)),
        lambda error: problem("data.unreadable", error=error),
    ).problems


def _check_data(passport: Passport, fetch_one: FetchOne, head_bytes: int, max_structure_bytes: int) -> list[Problem]:
    if not passport.data_versions:
        return []
    newest = newest_first(passport.data_versions)[0]
    if not newest.source:
        return []
    data = fetch_one(newest.source, head_bytes=head_bytes)
    structure = _structure_of(newest, passport.structure_versions)
    fetched_structure = fetch_one(structure.source, max_bytes=max_structure_bytes) if structure is not None else None
    failures = [result.problem for result in (data, fetched_structure)
                if result is not None and not result.ok and result.problem is not None]
    if failures or fetched_structure is None:
        return failures
    fields = read_structure_fields(fetched_structure.content, fetched_structure.url, max_structure_bytes)
    if not fields.value:
        # Why no field was read (unreadable, not well-formed, no field); the structure's encoding is no data finding.
        return [p for p in fields.problems if not p.code.startswith("decode.")]
    kind = _kind(newest, passport, data.content)
    if kind is None:
        return []
    header, found, around = _HEADERS[kind](data.content, data.url, data.truncated)
    if header is None:
        return found or [problem("data.header_unread", url=data.url, size=len(data.content))]
    return compare(header, [f for f in fields.value if f.name not in around], data.url)


def _structure_of(version: DataVersion, structures: list[StructureVersion]) -> Optional[StructureVersion]:
    """The structure the version names, else the newest one (MR 2.3 passports name none)."""
    linked = [s for s in structures if s.source]
    named = [s for s in linked if version.structure_version and s.version == version.structure_version]
    ordered = named or newest_first(linked)
    return ordered[0] if ordered else None


def _kind(version: DataVersion, passport: Passport, head: bytes) -> Optional[str]:
    """``csv``, ``json`` or ``xml`` as the content says, else as the file is named; ``None``: no header to read."""
    sniffed = sniff(head).kind
    if sniffed in ("json", "xml"):
        return sniffed
    named = file_format(version.source) or version.format.lower() or passport.format.strip().lower()
    # An HTML page served for a CSV file is read as CSV, to say so (csv.html_instead_of_csv).
    if named in _TABULAR or (named == "" and sniffed in ("text", "empty")):
        return "csv"
    return None


# --- headers --------------------------------------------------------------------------------------------

# The header's names (``None``: none could be read), problems that kept it from being read, and the names of
# the elements around the records (an XSD names them beside the fields).
Header = tuple[Optional[list[str]], list[Problem], frozenset[str]]
_NONE: frozenset[str] = frozenset()


def _csv_header(head: bytes, url: str, truncated: bool) -> Header:
    if truncated:
        # The last line was cut (perhaps inside a character): it is not needed for the header.
        head = head[:head.rfind(b"\n") + 1] or head
    decoded = decode_bytes(head, url)
    table = read_rows(decoded.text, url)
    failed = [p for p in table.problems if p.code in _CSV_PROBLEMS]
    rows = [row for row in table.rows if not is_column_number_row(row.cells)]
    if failed or not rows:
        return None, failed, _NONE
    return [cell.strip() for cell in rows[0].cells], [], _NONE


def _json_header(head: bytes, url: str, truncated: bool) -> Header:
    text = decode_bytes(head, url).text.lstrip("\ufeff \t\r\n")
    try:
        document, _replaced = load_json(text, url)
    except TooDeep:
        return None, [], _NONE
    except ValueError:
        # A cut head: the first record is complete when it fits; decode it alone.
        return _first_json_record(text), [], _NONE
    record = _first_record(document)
    return (list(record) if isinstance(record, dict) else None), [], _NONE


def _first_record(document: object) -> object:
    """The first object of the top-level array, or of the first array of objects in a top-level object."""
    if isinstance(document, list):
        return document[0] if document else None
    if isinstance(document, dict):
        for value in document.values():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return value[0]
        return document
    return None


_RECORD_START = re.compile(r"\[\s*\{")


def _first_json_record(text: str) -> Optional[list[str]]:
    found = _RECORD_START.search(text)
    if found is None:
        return None
    try:
        record, _replaced = decode_at(text, found.end() - 1)
    except ValueError:
        return None
    return list(record) if isinstance(record, dict) else None


def _xml_header(head: bytes, url: str, truncated: bool) -> Header:
    """The element names of the first record (the root's first child), read from a head that may be cut."""
    parser = pull_parser()
    names: list[str] = []
    around: list[str] = []
    depth = 0
    try:
        parser.feed(head)
        for event, element in parser.read_events():
            depth += 1 if event == "start" else -1
            if event == "start" and depth <= 2:
                around.append(etree.QName(element).localname)
            if event == "start" and depth == 3:
                names.append(etree.QName(element).localname)
            if event == "end" and depth == 1:
                break
    except etree.XMLSyntaxError:
        pass
    return names or None, [], frozenset(around[:2])


_HEADERS: dict[str, Callable[[bytes, str, bool], Header]] = {
    "csv": _csv_header, "json": _json_header, "xml": _xml_header,
}


# --- comparison -----------------------------------------------------------------------------------------

def compare(header: list[str], fields: list[StructureField], url: str = "") -> list[Problem]:
    """Missing, extra and renamed fields of a ``header`` against a structure's ``fields``, in column order."""
    columns = dict(enumerate(header))
    left = dict(enumerate(fields))
    pairs: dict[int, int] = {}
    for index, cell in columns.items():
        match = next((j for j, f in left.items() if f.name == cell), None)
        if match is not None:
            pairs[index] = match
            del left[match]
    loose: dict[int, int] = {}
    for index, cell in columns.items():
        if index in pairs:
            continue
        key = _key(cell)
        match = next((j for j, f in left.items() if key and key in _keys(f)), None)
        if match is not None:
            loose[index] = match
            del left[match]
    if not pairs and not loose and fields:
        return [problem("data.header_unmatched", url=url or None, line=1, count=len(fields))]
    anchors = sorted({**pairs, **loose}.items())
    for index in columns:
        if index in pairs or index in loose:
            continue
        # The same position, counted from the nearest column that did match: a column added or dropped
        # before it shifts every later one.
        column, described = min(anchors, key=lambda anchor: (abs(anchor[0] - index), anchor[0] > index))
        position = index + described - column
        if position in left:
            loose[index] = position
            del left[position]
    found = []
    for index, cell in columns.items():
        if index in pairs:
            continue
        if index in loose:
            name = fields[loose[index]].name
            found.append(problem("data.field_renamed", url=url or None, line=1, element=name, column=index + 1,
                                 header=cell, field=name))
        else:
            found.append(problem("data.field_extra", url=url or None, line=1, element=cell, column=index + 1, header=cell))
    found += [problem("data.field_missing", url=url or None, line=1, element=f.name, field=f.name)
              for f in left.values()]
    return found


_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u",
     "f", "h", "c", "ch", "sh", "sh", "", "i", "", "e", "u", "a"],
))
# Latin spellings of one Cyrillic sound, reduced to the one the table above writes.
_VARIANTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"shch|sch"), "sh"), (re.compile(r"kh"), "h"), (re.compile(r"ts|tz"), "c"),
    (re.compile(r"[yj](?=[ua])"), ""), (re.compile(r"[yj]"), "i"),
)
_NOT_LETTERS = re.compile(r"[^0-9a-z]+")


def _key(text: str) -> str:
    """A name as heard: lower case, Cyrillic transliterated, separators and spelling variants gone."""
    latin = "".join(_CYRILLIC.get(char, char) for char in text.casefold())
    for pattern, replacement in _VARIANTS:
        latin = pattern.sub(replacement, latin)
    return _NOT_LETTERS.sub("", latin)


def _keys(field: StructureField) -> set[str]:
    return {key for key in (_key(field.name), _key(field.title), _key(field.description)) if key}
