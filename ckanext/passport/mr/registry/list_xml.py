"""MR 3.0 ``list.xml``: ``<list><standardversion/><meta><item>…</item>…</meta></list>``.

National registries hold thousands of items (fedstat: 6,692 in 2.9 MB), so the file is streamed: each
``<item>`` becomes an entry as soon as it ends and is then dropped from the tree.
"""
from __future__ import annotations

import io
from typing import BinaryIO, Iterator, Optional, Union

from lxml import etree

from ..fields import standard_version
from ..forms import Form
from ..model import ParseResult, Problem, Registry, RegistryEntry
from .entries import EntryChecker
from ..safexml import child_texts, entity_problems, hardened_iterparse, local_name, syntax_problem, text_of

FORM = Form.LIST_XML

_PROLOG_PEEK = 4096


class ListXmlEntries(Iterator[Union[RegistryEntry, Problem]]):
    """Entries and problems in file order.

    ``standard_version`` is known once its element has been read; MR puts it before ``<meta>``, so it is
    set by the time the first entry arrives. ``encoding`` (the declared one) is known after the first
    element, ``well_formed`` turns false when the file breaks off.
    """

    def __init__(
        self, source: Union[bytes, BinaryIO], url: str = "", checker: Optional[EntryChecker] = None
    ) -> None:
        self.url = url
        self._checker = checker
        self.standard_version = ""
        self.encoding = ""
        self.well_formed = True
        self._events = self._read(io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source)

    def __iter__(self) -> Iterator[Union[RegistryEntry, Problem]]:
        # Loops run the generator itself, without a Python-level __next__ per entry of a national registry;
        # it is the same iterator, so mixing next() and for-loops still reads each item once.
        return self._events

    def __next__(self) -> Union[RegistryEntry, Problem]:
        return next(self._events)

    def _read(self, stream: BinaryIO) -> Iterator[Union[RegistryEntry, Problem]]:
        yield from entity_problems(_peek(stream), self.url)
        events = hardened_iterparse(stream, events=("end",), tag=("{*}item", "{*}standardversion"))
        # The checks run in this loop rather than in a generator around it: one step less per item, and a
        # national registry's items come by the thousand.
        check = self._checker.check if self._checker is not None else None
        found: list[Problem] = []
        try:
            for _, element in events:
                if not self.encoding:
                    self.encoding = (element.getroottree().docinfo.encoding or "utf-8").lower()
                if local_name(element) != "standardversion":
                    entry = _entry(element)
                    kept = check is None or check(entry, found)
                    if found:
                        yield from found
                        found.clear()
                    if kept:
                        yield entry
                else:
                    yield from self._standard(element)
                element.clear(keep_tail=False)
                parent = element.getparent()
                if parent is not None:
                    while element.getprevious() is not None:
                        del parent[0]
        except etree.XMLSyntaxError as error:
            self.well_formed = False
            yield syntax_problem(error, self.url)
        if self._checker is not None:
            yield from self._checker.finished()

    def _standard(self, element: etree._Element) -> list[Problem]:
        value, problems = standard_version(text_of(element), area="registry", url=self.url)
        self.standard_version = self.standard_version or value
        return problems


def iter_entries(
    source: Union[bytes, BinaryIO], url: str = "", checker: Optional[EntryChecker] = None
) -> ListXmlEntries:
    """Entries as the file streams by; with a ``checker``, checked as :func:`..registry.checked` would."""
    return ListXmlEntries(source, url, checker)


def parse(data: Union[bytes, BinaryIO], url: str = "") -> ParseResult[Registry]:
    stream = iter_entries(data, url)
    entries: list[RegistryEntry] = []
    problems: list[Problem] = []
    for item in stream:
        if isinstance(item, RegistryEntry):
            entries.append(item)
        else:
            problems.append(item)
    # A broken file still yields the entries before the break; only one with nothing readable has no value.
    registry = Registry(stream.standard_version, entries) if entries or stream.well_formed else None
    return ParseResult(registry, problems, form=FORM, encoding=stream.encoding)


def _entry(item: etree._Element) -> RegistryEntry:
    texts = child_texts(item)
    return RegistryEntry(
        identifier=texts.get("identifier", ""),
        title=texts.get("title", ""),
        link=texts.get("link", ""),
        format=texts.get("format", "").lower(),
    )


def _peek(stream: BinaryIO) -> bytes:
    if stream.seekable():
        position = stream.tell()
        head = stream.read(_PROLOG_PEEK)
        stream.seek(position)
        return head
    return b""
