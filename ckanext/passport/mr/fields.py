"""Field readings shared by every registry and passport form.

MR keeps meaning in names: ``data-<version>-structure-<structure>.<ext>`` says which version a file is,
``structure-<version>.<ext>`` which structure; the standard is named by a URL that publishers misspell.
Each form module reads its syntax and then uses these helpers, so that every form gives the same answer
for the same published facts.
"""
from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from dataclasses import replace
from functools import lru_cache
from itertools import islice
from typing import Iterable, Literal, NamedTuple, Optional, Protocol, TypeVar
from urllib.parse import unquote

from . import urls
from .csvrows import canonical_standard, compact
from .dates import parse_date
from .jsontext import JSON_STRING, JSON_STRING_OPENED
from .model import MRDate, Passport, Problem
from .problems import problem


# No line break but a final one, checked first: with one inside, each "-structure-" of the name would be
# followed by a read of the rest that fails at the line break.
_DATA_NAME = re.compile(r"^(?=[^\n]*+\n?\Z)data[-_](?P<version>.+?)[-_]structure[-_](?P<structure>.+)$", re.I)
_STRUCTURE_NAME = re.compile(r"^structure[-_](?P<structure>.+)$", re.I)
_WORD = re.compile(r"[a-z]{6,11}", re.IGNORECASE)
# A run of separators holding a dash is one dash, else each run of white space is: the run is read once, from
# its start (a position inside a run never starts the first branch), so a long run without a dash stays linear.
_SEPARATORS = re.compile(r"(?<![-_\s])(?:[_\s]*+-)++[-_\s]*+|\s++")
_NUMBERED = re.compile(r"^(?P<number>\d+)[-_](?P<rest>.+)$")
# Extensions start with a letter, so that version names such as "1.5" are not taken for one.
_TRAILING_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}\Z")
_LONGEST_EXTENSION = 9
_LAST_EXTENSION = re.compile(r"\.([A-Za-z][A-Za-z0-9]{0,7})$")
_PASSPORT_FILE = re.compile(r"^meta\.(?:csv|xml|json)$", re.I)
_KEY_ALIASES = {"email": "mbox", "mail": "mbox", "strucrure": "structure", "standartversion": "standardversion"}


def standard_version(
    text: str, *, area: Literal["passport", "registry"], url: str = "", element: str = "standardversion"
) -> tuple[str, list[Problem]]:
    """The standard URL as MR spells it, with a problem when the published spelling differs."""
    raw = (text or "").strip()
    canonical = canonical_standard(raw)
    if raw == canonical:
        return canonical, []
    code = "passport.standard_version_variant" if area == "passport" else "registry.standard_version_variant"
    return canonical, [problem(code, url=url, element=element, text=raw, canonical=canonical)]


def resolve(link: str, base: str = "") -> str:
    """A published link made absolute against the document it appeared in (relative links are common)."""
    link = (link or "").strip()
    if not base or not link or link.startswith(ABSOLUTE_LINK) or link.lower().startswith(_NOT_JOINED):
        return link
    return urls.join(base, link)


# Already absolute: kept exactly as published (urljoin would re-split and re-join them, dropping an empty
# query or fragment, and refuse a malformed host).
ABSOLUTE_LINK = ("http://", "https://")
_NOT_JOINED = ("www.", "mailto:", "tel:")


def _link_path(link: str) -> str:
    """The path of a URL, or of a bare path (its query and fragment cut); ``""`` for a URL that cannot be split."""
    if "://" not in link:
        return link.strip().split("?")[0].split("#")[0]
    parts = urls.split(link.strip())
    return parts.path if parts is not None else ""


def last_segment(link: str) -> str:
    """The last non-empty path segment of a URL (or path), percent-decoded."""
    segments = [s for s in _link_path(link).split("/") if s]
    return unquote(segments[-1]) if segments else ""


def file_format(link: str) -> str:
    """The format named by the last extension, lower-cased (``data.csv.CSV`` is ``csv``)."""
    match = _LAST_EXTENSION.search(last_segment(link))
    return match.group(1).lower() if match else ""


class VersionName(NamedTuple):
    """What a data or structure file name (or a ``meta.csv`` row key) says about its version."""

    kind: Literal["data", "structure"]
    version: str
    created: Optional[MRDate]
    structure: str = ""  # data files: the structure version they follow


def read_version_name(name: str) -> Optional[VersionName]:
    """The one reading of version names, for every form: ``None`` when ``name`` names no version.

    ``name`` is a link, a file name or a row key; spellings seen in the wild are accepted
    (``data-20130601T0000-structure-20130401T0000``, ``data_20140930_structure_1_20140930``,
    ``data 1 strucrure 1``, ``structure-1-2013-07-15.csv``); tokens are read by :func:`version_parts`.
    """
    stem = without_extensions(_spelled_out(last_segment(name)))
    data = _DATA_NAME.match(stem)
    if data:
        version, created = version_parts(data.group("version"))
        return VersionName("data", version, created, version_parts(data.group("structure"))[0])
    structure = _STRUCTURE_NAME.match(stem)
    if structure:
        version, created = version_parts(structure.group("structure"))
        return VersionName("structure", version, created)
    return None


def version_names(link: str) -> tuple[str, str]:
    """``(data version, structure version)`` a data file name states; empty when it is not so named."""
    named = read_version_name(link)
    return (named.version, named.structure) if named and named.kind == "data" else ("", "")


def structure_name(link: str) -> str:
    """The structure version a structure file name states; empty when it is not so named."""
    named = read_version_name(link)
    return named.version if named and named.kind == "structure" else ""


def is_data_file_name(link: str) -> bool:
    named = read_version_name(link)
    return named is not None and named.kind == "data"


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


def structure_word(word: str) -> bool:
    """``structure`` and its misspellings seen in the wild (``strucrure``, ``stucture``)."""
    head = word[:9].casefold()
    return head == "structure" or _like_structure(head)


@lru_cache(maxsize=1024)
def _like_structure(head: str) -> bool:
    # Names repeat from passport to passport, and SequenceMatcher is the slow part of reading them.
    return difflib.SequenceMatcher(None, head, "structure").ratio() >= 0.75


def _spelled_out(name: str) -> str:
    """A key or file name respelled the MR way (``data 1 strucrure 1`` → ``data-1-structure-1``)."""
    words = _WORD.sub(_respell_word, name.strip())
    return _SEPARATORS.sub("-", words).strip("-")


def _respell_word(match: re.Match) -> str:
    return "-structure-" if structure_word(match.group()) else match.group()


def is_passport_file_name(link: str) -> bool:
    return bool(_PASSPORT_FILE.match(last_segment(link)))


def identifier_from_link(link: str) -> str:
    """The dataset identifier a link names.

    ``…/opendata/<id>`` and ``…/opendata/<id>/`` name it directly; a passport, data or structure file names
    its folder (``…/<id>/meta.json``); an MR 2.3 passport file is named after the dataset (``…/<id>.csv``).
    """
    segments = [unquote(s) for s in _link_path(link).split("/") if s]
    if not segments:
        return ""
    name = segments[-1]
    if len(segments) > 1 and (_PASSPORT_FILE.match(name) or read_version_name(name) is not None):
        return segments[-2]
    return without_extensions(name) or name


def plain_text(value: object) -> str:
    """A JSON value as field text: ``None`` is empty, lists are joined, numbers are written out."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(plain_text(item) for item in value)
    return str(value).strip()


def split_subject(text: str) -> list[str]:
    return [word.strip() for word in re.split(r"[,;]", text or "") if word.strip()]


def clean_mbox(text: str) -> str:
    """An e-mail address without ``mailto:`` and without a ``?subject=…`` query."""
    value = (text or "").strip()
    if value.lower().startswith("mailto:"):
        value = unquote(value[len("mailto:"):].split("?")[0])
    return value.strip()


def clean_phone(text: str) -> str:
    value = (text or "").strip()
    if value.lower().startswith("tel:"):
        value = unquote(value[len("tel:"):])
    return value.strip()


def field_key(name: str) -> str:
    """A field name as MR means it: lower-case, without spaces or separators, common typos mapped."""
    key = compact(name or "")
    return _KEY_ALIASES.get(key, key)


class _Versioned(Protocol):
    version: str
    created: Optional[MRDate]


V = TypeVar("V", bound=_Versioned)


def newest_first(versions: Iterable[V]) -> list[V]:
    """Versions sorted as MR wants them: newest first, by the version name's date, else by creation."""
    return sorted(versions, key=_version_key, reverse=True)


def described_by_newest(passport: Passport) -> Passport:
    """The passport with its ``provenance`` and ``valid`` and its newest data version's filled from each other.

    MR 3.0 defines both as describing the latest data version: ``meta.csv`` states them once for the
    passport, the XML and JSON schemas only per version. The one rule every parser, writer, check and page
    applies: the newest version is the first, as MR lists them (parsers sort them so). A new passport is
    returned, so that a caller's own passport keeps what it stated.
    """
    if not passport.data_versions:
        return passport
    newest, *older = passport.data_versions
    return replace(
        passport,
        provenance=passport.provenance or newest.provenance,
        valid=passport.valid or newest.valid,
        data_versions=[
            replace(
                newest,
                provenance=newest.provenance or passport.provenance,
                valid=newest.valid or passport.valid,
            ),
            *older,
        ],
    )


def _version_key(version: _Versioned) -> tuple:
    created = version.created
    # A version named by its creation date (MR's usual way) was read already.
    named = created if created is not None and created.text == version.version else parse_date(version.version)
    for moment in (named.value if named else None, created.value if created else None):
        if moment is not None:
            return (2, _as_datetime(moment), 0)
    if version.version.isdigit():
        return (1, dt.datetime.min, int(version.version))
    return (0, dt.datetime.min, 0)


def _as_datetime(value: dt.date) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value if value.tzinfo is None else value.replace(tzinfo=None)
    return dt.datetime(value.year, value.month, value.day)


SALVAGED_PAIRS = 100_000
_LENIENT_JSON = json.JSONDecoder(strict=False)
# A pair, else a string that starts none, taken up to its closing quote (the next search starts there: every quote
# inside it starts a string ending where it ends, so no pair; an unterminated one runs to the end, and no later
# string closes). Searching for pairs alone would read a long string again from each of its quotes.
_JSON_PAIR = re.compile(
    rf'({JSON_STRING})\s*+:\s*+({JSON_STRING}|\[|\{{|-?\d[\d.eE+\-]*+|true|false|null)'
    rf'|{JSON_STRING_OPENED}(?="|\\?\Z)', re.S
)


def salvage_json(text: str, sections: dict[str, tuple[str, frozenset[str]]]) -> dict:
    """Read the ``"key": value`` pairs of damaged JSON into the shape it was meant to have.

    ``sections`` names the keys that open an ``"array"`` of objects or an ``"object"``, each with the keys
    its items hold. A key repeated inside an array item starts the next item; a key that the current section
    does not know returns to the top level. Good enough for MR's flat files when a brace is missing.
    Linear in time and memory; the first :data:`SALVAGED_PAIRS` pairs are read, far more than any passport or
    registry holds.
    """
    result: dict = {}
    section: Optional[str] = None
    current: Optional[dict] = None
    for match in islice((found for found in _JSON_PAIR.finditer(text) if found.group(1)), SALVAGED_PAIRS):
        key, raw = field_key(_unquote_json(match.group(1))), match.group(2)
        if raw in "[{" and key in sections:
            kind, _ = sections[key]
            section = key
            current = None
            result[key] = [] if kind == "array" else {}
            continue
        if raw in "[{":
            continue
        value = _unquote_json(raw) if raw.startswith('"') else raw
        if section is not None and key in sections[section][1]:
            kind, _ = sections[section]
            if kind == "object":
                result[section].setdefault(key, value)
                continue
            if current is None or key in current:
                current = {}
                result[section].append(current)
            current[key] = value
            continue
        section, current = None, None
        result.setdefault(key, value)
    return result


def _unquote_json(quoted: str) -> str:
    if "\\" not in quoted:
        return quoted[1:-1]
    try:
        return _LENIENT_JSON.decode(quoted)
    except ValueError:
        return quoted[1:-1]


def without_extensions(name: str) -> str:
    """``name`` less its trailing extensions (``.csv.zip``, each a letter and up to 7 letters or digits).

    Read from the end one extension at a time, in a window of its longest: a search for the whole chain
    anchored at the end would try every position of a name of a thousand dots.
    """
    end = len(name) - name.endswith("\n")  # "$" also matched before a final newline, which stays
    start = end
    while True:
        found = _TRAILING_EXTENSION.search(name, max(0, start - _LONGEST_EXTENSION), start)
        if found is None:
            return name[:start] + name[end:]
        start = found.start()
