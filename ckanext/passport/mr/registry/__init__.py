"""Registries in every MR form: which form a publication is, reading it whole or as a stream.

Forms: ``rdfa`` (the ``/opendata/`` page), ``list.csv``, ``opendatalist.csv``, ``list.xml`` and ``list.json``.
The content decides the form; the URL only when the content cannot. Whatever the form, entries leave
here checked the same way: links resolved against the registry URL, identifiers present and unique.
"""
from __future__ import annotations

from importlib import import_module
from itertools import chain
from types import ModuleType
from typing import BinaryIO, Callable, Iterable, Iterator, Optional, Union

from ..fields import last_segment
from ..forms import TRAITS, Form, forms
from ..guarded import Failed, never_raising, never_raising_stream
from ..limits import DEFAULT_LIMITS, ReadLimits, too_large
from ..model import ParseResult, Problem, Registry, RegistryEntry
from ..problems import problem
from ..sniff import sniff
from .entries import EntryChecker
from .list_xml import iter_entries

# Each form's reader: a module whose ``parse(data, url)`` reads it (the forms table names it).
FORMS: dict[Form, ModuleType] = {
    form: import_module(f"{__name__}.{TRAITS[form].registry_reader}") for form in forms(registry_reader=True)
}
# The file names MR gives registries (every registry form but the page is a file named after its form), and the
# form each names.
FILE_NAMES: dict[str, Form] = {
    **{form.value: form for form in forms(registry_reader=True, page=False)},
    "реестроткрытыхданных.csv": Form.OPENDATALIST_CSV,
}
_SNIFF_BYTES = 8192

# Findings a passport can live with but a registry cannot: a record whose broken quoting swallowed the lines
# after it, lines that are not in the file's encoding (a file cut mid-character, bytes appended to it), or more
# records than a file is read for (csvrows.MAX_ROWS). The
# entries read may then not be all there are, and a harvest must not take the missing ones as withdrawn.
_DAMAGE = frozenset({"csv.malformed_row", "csv.too_many_rows", "decode.mixed_encoding", "decode.undecodable_bytes"})
Item = Union[RegistryEntry, Problem]


class RegistryStream(Iterator[Item]):
    """Checked entries and problems in file order; ``standard_version`` once the registry has named it."""

    def __init__(self, items: Iterator[Item], form: str, standard_version: Callable[[], str]) -> None:
        self.form = form
        self._items = items
        self._standard_version = standard_version

    @property
    def standard_version(self) -> str:
        return self._standard_version()

    def __iter__(self) -> Iterator[Item]:
        # As ListXmlEntries: loops run the underlying iterator directly, one Python call less per entry.
        return self._items

    def __next__(self) -> Item:
        return next(self._items)


def detect_registry_form(data: bytes, url: str = "", content_type: str = "") -> Optional[Form]:
    sniffed = sniff(data)
    if sniffed.kind == "empty":
        return None
    if sniffed.kind == "json":
        return Form.LIST_JSON
    if sniffed.kind == "html":
        return Form.RDFA
    if sniffed.kind == "xml":
        return Form.LIST_XML if sniffed.root == "list" else None
    if "html" in content_type.lower():
        return Form.RDFA
    named = FILE_NAMES.get(last_segment(url).lower())
    if named in (Form.LIST_CSV, Form.OPENDATALIST_CSV):
        return named
    # MR 3.0's list.csv opens with its header or its standardversion row; MR 2.3's list has neither.
    if sniffed.first_line.startswith(("property", "standardversion", "standartversion")):
        return Form.LIST_CSV
    return Form.OPENDATALIST_CSV


def parse_registry(data: bytes, url: str = "", form: Optional[str] = None,
                   limits: ReadLimits = DEFAULT_LIMITS) -> ParseResult[Registry]:
    """The registry in ``data``, read as ``form`` or as its content says; never raises. A registry larger than
    its cap in ``limits`` is refused unread (``fetch.too_large``)."""
    return never_raising(lambda: _parse_registry(data, url, form, limits), _failed(url), url, form or "")


def _failed(url: str) -> Failed:
    return lambda error: problem("registry.unreadable", url=url or None, error=error)


def _parse_registry(data: bytes, url: str, form: Optional[str], limits: ReadLimits) -> ParseResult[Registry]:
    form = form or detect_registry_form(data, url)
    if not data.strip():
        return ParseResult(None, [problem("registry.empty", url=url or None)], form=form or "")
    refused = too_large(len(data), limits.registry_limit(form or ""), url)
    if refused is not None:
        return ParseResult(None, [refused], form=form or "")
    if form not in FORMS:
        return ParseResult(None, [problem("registry.unknown_form", url=url or None)], form=form or "")
    result: ParseResult[Registry] = FORMS[form].parse(data, url)
    if result.value is None:
        return result
    entries: list[RegistryEntry] = []
    problems = list(result.problems)
    for item in checked(result.value.entries, url):
        if isinstance(item, RegistryEntry):
            entries.append(item)
        else:
            problems.append(item)
    registry = Registry(result.value.standard_version, entries)
    problems += _incompleteness(problems)
    return ParseResult(registry, problems, form=result.form or form, encoding=result.encoding)


def iter_registry(source: Union[bytes, BinaryIO], url: str = "", form: Optional[str] = None,
                  limits: ReadLimits = DEFAULT_LIMITS) -> RegistryStream:
    """Entries as they are read: ``list.xml`` is streamed, the other forms are small and read whole.

    Never raises, while it is read either: whatever breaks the reading ends the stream with
    ``registry.unreadable`` and ``registry.incomplete`` (the entries read so far stay, none is taken as withdrawn).
    """
    data, stream = (source, None) if isinstance(source, (bytes, bytearray)) else _opened(source)
    form = form or detect_registry_form(data if stream is None else _head(stream), url)
    refused = too_large(len(data) if stream is None else _remaining(stream), limits.registry_limit(form or ""), url)
    if refused is not None:
        return RegistryStream(iter([refused]), form or "", lambda: "")
    if form == Form.LIST_XML:
        entries = iter_entries(data if stream is None else stream, url, EntryChecker(url))
        return RegistryStream(_guarded(entries, url), form, lambda: entries.standard_version)
    whole = parse_registry(data if stream is None else stream.read(), url, form, limits)
    items: Iterator[Item] = chain(whole.problems, whole.value.entries if whole.value else [])
    version = whole.value.standard_version if whole.value else ""
    return RegistryStream(items, whole.form or form or "", lambda: version)


def _guarded(items: Iterable[Item], url: str) -> Iterator[Item]:
    """``items`` through the readers' guard; a failure mid-stream leaves the registry read incomplete."""
    for item in never_raising_stream(items, _failed(url), url):
        yield item
        if item.__class__ is not RegistryEntry and item.code == "registry.unreadable":
            yield problem("registry.incomplete", url=url or None, cause="registry.unreadable")


def checked(items: Iterable[Item], url: str = "") -> Iterator[Item]:
    """Entries with links resolved and identifiers present and unique; ``registry.empty`` if none is left."""
    checker = EntryChecker(url)
    check = checker.check
    found: list[Problem] = []
    for item in items:
        if item.__class__ is not RegistryEntry:
            yield item
            continue
        kept = check(item, found)
        if found:
            yield from found
            found.clear()
        if kept:
            yield item
    yield from checker.finished()


def _opened(source: BinaryIO) -> tuple[bytes, Optional[BinaryIO]]:
    """Seekable files are streamed from where they stand; others are read whole (small forms, or caps apply)."""
    if source.seekable():
        return b"", source
    return source.read(), None


def _remaining(stream: BinaryIO) -> int:
    position = stream.tell()
    size = stream.seek(0, 2) - position
    stream.seek(position)
    return size


def _head(stream: BinaryIO) -> bytes:
    position = stream.tell()
    head = stream.read(_SNIFF_BYTES)
    stream.seek(position)
    return head


def _incompleteness(problems: list[Problem]) -> list[Problem]:
    """``registry.incomplete`` at the first damage among ``problems``, or nothing."""
    damage = next((found for found in problems if found.code in _DAMAGE), None)
    if damage is None:
        return []
    where = damage.location
    return [problem("registry.incomplete", url=where.url, line=where.line, element=where.element, cause=damage.code)]
