"""The passport characteristics by name: MR 2.3 Appendix 1's seventeen rows and MR 3.0's two additions.

Passports written as rows of ``characteristic, value`` (the MR 2.x CSV file, a plain HTML table on the
dataset page) name each row in Russian, in Appendix 1's wording or a publisher's paraphrase of it, and some
publishers write MR 3.0's property names (``identifier``, ``publishername``…) instead. This is the one table
of those names: every form that reads such rows asks :func:`row_by_name`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Optional

from .csvrows import compact

# Appendix 1's row numbers, in its order.
IDENTIFIER, TITLE, DESCRIPTION, CREATOR, PUBLISHER, PHONE, MBOX = range(1, 8)
DATA, FORMAT, STRUCTURE, CREATED, MODIFIED, PROVENANCE, PERIODICITY, SUBJECT = range(8, 16)
PREVIOUS_DATA, PREVIOUS_STRUCTURES = 16, 17
APPENDIX_1 = tuple(range(IDENTIFIER, PREVIOUS_STRUCTURES + 1))
# MR 3.0 rows that Appendix 1 does not have ("Версия методических рекомендаций", "Дата актуальности"): numbered
# after it, so that a row number in a 17-row passport never means one of them.
STANDARD_VERSION, VALID = 18, 19

# English names of the rows: MR 3.0's property names where it has one, for problem messages and as names.
ROW_NAMES = {
    IDENTIFIER: "identifier", TITLE: "title", DESCRIPTION: "description", CREATOR: "creator",
    PUBLISHER: "publishername", PHONE: "publisherphone", MBOX: "publishermbox", DATA: "data",
    FORMAT: "format", STRUCTURE: "structure", CREATED: "created", MODIFIED: "modified",
    PROVENANCE: "provenance", PERIODICITY: "periodicity", SUBJECT: "subject",
    PREVIOUS_DATA: "previous data versions", PREVIOUS_STRUCTURES: "previous structure versions",
    STANDARD_VERSION: "standardversion", VALID: "valid",
}
# Rows listing links: a list may run on over the next lines or table rows.
LINK_ROWS = frozenset({DATA, STRUCTURE, PREVIOUS_DATA, PREVIOUS_STRUCTURES})


def _has(*stems: str) -> Callable[[str], bool]:
    return lambda name: all(stem in name for stem in stems)


def _any(*stems: str) -> Callable[[str], bool]:
    return lambda name: any(stem in name for stem in stems)


# "Ссылка на актуальную (последнюю, текущую) версию": the current file, not the earlier versions.
_CURRENT = _any("актуальн", "последн", "текущ")

# Most specific first: "версия методических рекомендаций" before "версии", "версии структуры" before
# "структуры", "ответственного лица" rows before "ответственное лицо", "ключевые слова, соответствующие
# содержанию" before "содержание последнего изменения" before "последнего внесения", a link to the current
# version before the earlier versions. "Дата актуальности" (MR 3.0's valid) needs its "дата": row 1 reads "код
# актуального набора". "сылк" also catches Appendix 1's own typo "Гиперсылка".
_BY_NAME: tuple[tuple[Callable[[str], bool], int], ...] = (
    (_any("методическ", "стандарт"), STANDARD_VERSION),
    (lambda name: _has("верси", "структур")(name) and _CURRENT(name), STRUCTURE),
    (lambda name: "верси" in name and _CURRENT(name), DATA),
    (_has("верси", "структур"), PREVIOUS_STRUCTURES),
    (_has("верси"), PREVIOUS_DATA),
    (_any("структур"), STRUCTURE),
    (_any("телефон"), PHONE),
    (_any("почт", "mail"), MBOX),
    (_any("ответствен"), PUBLISHER),
    (_any("владел", "обладател"), CREATOR),
    (_any("идентификац", "код"), IDENTIFIER),
    (_any("ключев"), SUBJECT),
    (_any("содержани"), PROVENANCE),
    (_has("перв", "публикац"), CREATED),
    (_has("дат", "актуальн"), VALID),
    (_any("последн"), MODIFIED),
    (_any("периодичн", "актуализ"), PERIODICITY),
    (_any("формат"), FORMAT),
    (_any("наименован", "назван"), TITLE),
    (_any("описан"), DESCRIPTION),
    (_any("сылк", "url"), DATA),
)

# Some publishers write the MR 3.0 property names in the characteristic column.
_BY_PROPERTY = {name: number for number, name in ROW_NAMES.items() if number not in (PREVIOUS_DATA, PREVIOUS_STRUCTURES)}

# What pages wrap names in: a trailing colon or asterisk, a leading "1." left in the name cell.
_ROW_NUMBER_PREFIX = re.compile(r"\d{1,2}[.)]?(?=\D)")
_TRAILING_DECORATION = ":*."


def row_by_name(name: str) -> Optional[int]:
    """The row a characteristic name stands for (Appendix 1's number, or a later one), ``None`` when none."""
    return _row_by_compact_name(_undecorated(compact(name).replace("ё", "е")))


def _undecorated(name: str) -> str:
    """A compacted name (no white space left) without its row number and its trailing colons, asterisks, dots.

    Stripped, not searched for: a regular expression's search for a trailing run tries every position of a
    long run that is not trailing.
    """
    number = _ROW_NUMBER_PREFIX.match(name)
    return name[number.end() if number else 0:].rstrip(_TRAILING_DECORATION)


# Publishers copy Appendix 1's wording, so the same few names come back passport after passport.
@lru_cache(maxsize=1024)
def _row_by_compact_name(normal: str) -> Optional[int]:
    if not normal:
        return None
    if normal in _BY_PROPERTY:
        return _BY_PROPERTY[normal]
    for matches, number in _BY_NAME:
        if matches(normal):
            return number
    return None
