"""Dates in every form real MR publications use.

``20130401``, ``20130401T0000``, ``2013-04-01``, ``2013-04-01T10:00:00``, ``01.04.2013``,
``28.11.2022 15:51:00``, ``28 мая 2015 00:00``, ``10122025`` (DDMMYYYY in version names). The original text
is always kept; ``value`` is ``None`` when nothing sensible could be read.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Optional, Union

from .model import MRDate

_MONTHS_RU = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6,
    "июл": 7, "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
}

_ISO_BASIC = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?)?$")
_ISO_EXT = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$"
)
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_RU_WORDS = re.compile(r"^(\d{1,2})\s+([а-яё]+)\s+(\d{4})(?:\s*г\.?)?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$", re.I)
_DDMMYYYY = re.compile(r"^(\d{2})(\d{2})(\d{4})$")


def parse_date(text: Optional[str]) -> Optional[MRDate]:
    """Read a published date; ``None`` for empty input, ``MRDate(text, None)`` when unreadable."""
    if text is None:
        return None
    raw = text.strip()
    if not raw:
        return None
    return MRDate(raw, _understand(raw))


def _understand(raw: str) -> Union[dt.date, dt.datetime, None]:
    # Eight digits are YYYYMMDD unless that is no date; then DDMMYYYY (seen in version names).
    for pattern, order in ((_ISO_BASIC, "ymd"), (_ISO_EXT, "ymd"), (_DOTTED, "dmy"), (_DDMMYYYY, "dmy")):
        match = pattern.match(raw)
        if match:
            value = _build(match.groups(), order)
            if value is not None:
                return value
    match = _RU_WORDS.match(raw)
    if match:
        day, word, year, hh, mm, ss = match.groups()
        month = _month_from_word(word)
        if month is None:
            return None
        return _build((year, str(month), day, hh, mm, ss), "ymd")
    return None


def _month_from_word(word: str) -> Optional[int]:
    word = word.lower()
    # Longest stems first so that "май"/"мая" ("ма") does not swallow "март"/"марта".
    for stem in sorted(_MONTHS_RU, key=len, reverse=True):
        if word.startswith(stem):
            return _MONTHS_RU[stem]
    return None


def _build(groups: tuple, order: str) -> Union[dt.date, dt.datetime, None]:
    if order == "ymd":
        year, month, day = groups[0], groups[1], groups[2]
    else:
        day, month, year = groups[0], groups[1], groups[2]
    hh, mm, ss = (groups[3:6] + (None, None, None))[:3]
    try:
        if hh is None:
            return dt.date(int(year), int(month), int(day))
        return dt.datetime(int(year), int(month), int(day), int(hh), int(mm or 0), int(ss or 0))
    except (TypeError, ValueError):
        return None


def format_basic(value: Union[dt.date, dt.datetime, None]) -> str:
    """MR 3.0's own form: ``YYYYMMDD`` for dates, ``YYYYMMDDTHHMM`` for moments."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y%m%dT%H%M")
    return value.strftime("%Y%m%d")
