"""The checks every registry entry passes, whatever the form: a passport link, an identifier, no repeats.

The CSV forms check while they read, so that problems name the line; the dispatcher checks the entries of
the other forms as they stream by. Both use this one checker, so one fault has one code and is reported once.
"""
from __future__ import annotations

from array import array
from typing import Optional

from ..fields import identifier_from_link, resolve
from ..model import Problem, RegistryEntry, Severity
from ..problems import define, problem

MISSING_LINK = define(
    "registry.entry_missing_link",
    Severity.WARNING,
    "В записи реестра «{name}» нет ссылки на паспорт; запись пропущена",
    "Registry entry '{name}' has no passport link; it was skipped",
)
MISSING_IDENTIFIER = define(
    "registry.entry_missing_identifier",
    Severity.WARNING,
    "В записи реестра нет идентификатора; взят из ссылки: {identifier}",
    "A registry entry has no identifier; it was taken from the link: {identifier}",
)
DUPLICATE_IDENTIFIER = define(
    "registry.duplicate_identifier",
    Severity.WARNING,
    "Идентификатор «{identifier}» повторяется в реестре; повтор пропущен",
    "Identifier '{identifier}' appears again in the registry; the repeat was skipped",
)


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
        url = self.url or None
        entry.link = resolve(entry.link, self.url)
        if not entry.link:
            problems.append(problem(MISSING_LINK, url=url, line=line, element=entry.identifier or None,
                                    name=entry.title or entry.identifier))
            return False
        if not entry.identifier:
            entry.identifier = identifier_from_link(entry.link)
            if self.identifier_expected:
                problems.append(problem(MISSING_IDENTIFIER, url=url, line=line, element=entry.link,
                                        identifier=entry.identifier))
        if not self.seen.add(entry.identifier):
            problems.append(problem(DUPLICATE_IDENTIFIER, url=url, line=line, element=entry.identifier,
                                    identifier=entry.identifier))
            return False
        return True


class IdentifierSet:
    """Identifiers as 64-bit hashes in an open-addressing table.

    A national registry streams thousands of entries; a ``set`` of their identifiers would keep every
    string alive plus a table four times their number, several times what the streaming parse itself
    needs. The chance that two of fedstat's 6,692 identifiers share a 63-bit key is about one in 10^11.
    """

    _MAX_LOAD = 0.75

    def __init__(self) -> None:
        self._slots = array("Q", bytes(8 * 64))
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def add(self, identifier: str) -> bool:
        """Add ``identifier``; False when it was already there."""
        # 0 marks an empty slot, so keys are odd.
        key = (hash(identifier) & _KEY_BITS) | 1
        slots = self._slots
        index = _slot(slots, key)
        if slots[index]:
            return False
        slots[index] = key
        self._count += 1
        if self._count > len(slots) * self._MAX_LOAD:
            grown = array("Q", bytes(16 * len(slots)))
            for old in slots:
                if old:
                    grown[_slot(grown, old)] = old
            self._slots = grown
        return True


_KEY_BITS = (1 << 64) - 1


def _slot(slots: array, key: int) -> int:
    """Where ``key`` is, or the empty slot where it belongs (linear probing)."""
    mask = len(slots) - 1
    index = (key >> 1) & mask
    while slots[index] and slots[index] != key:
        index = (index + 1) & mask
    return index
