"""The checks every registry entry passes, whatever the form: a passport link, an identifier, no repeats.

The CSV forms check while they read, so that problems name the line; the dispatcher checks the entries of
the other forms as they stream by. Both use this one checker, so one fault has one code and is reported once.
"""
from __future__ import annotations

from array import array
from typing import Optional

from .. import urls
from ..fields import ABSOLUTE_LINK as _ABSOLUTE, identifier_from_link, resolve
from ..model import Problem, RegistryEntry
from ..problems import problem


class EntryChecker:
    """Checks entries one at a time, remembering the identifiers met so that repeats are skipped.

    ``identifier_expected=False`` is for forms without an identifier column (MR 2.3 lists), where deriving
    the identifier from the link is the normal case rather than a fault.
    """

    def __init__(self, url: str = "", identifier_expected: bool = True) -> None:
        self.url = url
        self.identifier_expected = identifier_expected
        self.seen = IdentifierSet()

    def check(self, entry: RegistryEntry, problems: list[Problem], line: Optional[int] = None) -> bool:
        """Resolve the link and fill in a missing identifier; False (and a problem) when the entry must go."""
        link = entry.link
        if not link.startswith(_ABSOLUTE):
            link = entry.link = resolve(link, self.url)
        if link and entry.identifier and urls.split(link) is not None and self.seen.add(entry.identifier):
            return True
        return self._refuse_or_repair(entry, problems, line)

    def _refuse_or_repair(self, entry: RegistryEntry, problems: list[Problem], line: Optional[int]) -> bool:
        url = self.url or None
        if not entry.link:
            problems.append(problem("registry.entry_missing_link", url=url, line=line, element=entry.identifier or None,
                                    name=entry.title or entry.identifier))
            return False
        if urls.split(entry.link) is None:
            problems.append(problem("registry.entry_unreadable_link", url=url, line=line, element=entry.identifier or None,
                                    name=entry.title or entry.identifier, link=entry.link))
            return False
        if not entry.identifier:
            entry.identifier = identifier_from_link(entry.link)
            if self.identifier_expected:
                problems.append(problem("registry.entry_missing_identifier", url=url, line=line, element=entry.link,
                                        identifier=entry.identifier))
            if self.seen.add(entry.identifier):
                return True
        problems.append(problem("registry.duplicate_identifier", url=url, line=line, element=entry.identifier,
                                identifier=entry.identifier))
        return False


    def finished(self) -> list[Problem]:
        """What the end of the registry adds: ``registry.empty`` when no entry was kept."""
        return [] if self.seen else [problem("registry.empty", url=self.url or None)]


class IdentifierSet:
    """Identifiers as 64-bit hashes in an open-addressing table.

    A national registry streams thousands of entries; a ``set`` of their identifiers would keep every
    string alive plus a table four times their number, several times what the streaming parse itself
    needs. The chance that two of fedstat's 6,692 identifiers share a 63-bit key is about one in 10^11.
    """

    def __init__(self) -> None:
        self._count = 0
        self._size(array("Q", bytes(8 * _INITIAL_SLOTS)))

    def __len__(self) -> int:
        return self._count

    def add(self, identifier: str) -> bool:
        """Add ``identifier``; False when it was already there."""
        # 0 marks an empty slot, so keys are odd. The probe is written out: it runs once per registry entry.
        key = (hash(identifier) & _KEY_BITS) | 1
        slots, mask = self._slots, self._mask
        index = (key >> 1) & mask
        found = slots[index]
        while found:
            if found == key:
                return False
            index = (index + 1) & mask
            found = slots[index]
        slots[index] = key
        self._count += 1
        if self._count > self._limit:
            grown = array("Q", bytes(32 * len(slots)))
            for old in slots:
                if old:
                    grown[_slot(grown, old)] = old
            self._size(grown)
        return True

    def _size(self, slots: array) -> None:
        self._slots = slots
        self._mask = len(slots) - 1
        self._limit = len(slots) * 3 // 4


_KEY_BITS = (1 << 64) - 1
# 128 KiB up front: a national registry fills it without the rehashing (Python-level) that growing from
# small would cost; smaller registries pay nothing more than the allocation.
_INITIAL_SLOTS = 16384


def _slot(slots: array, key: int) -> int:
    """Where ``key`` is, or the empty slot where it belongs (linear probing)."""
    mask = len(slots) - 1
    index = (key >> 1) & mask
    while slots[index] and slots[index] != key:
        index = (index + 1) & mask
    return index
