"""The catalogue of problem codes.

Every code is a row of one room's table, ``problems.toml`` beside the room's modules; :data:`ROOMS` names the
rooms, so every process knows every code, whichever modules it imported (a web process showing a stored report
may never have run the check that wrote it). A row holds the code's severity and one English template, the
gettext msgid of the project's catalogs (``i18n/*/LC_MESSAGES/ckanext-passport.po``), and, when the template has
placeholders, its meaning without them; :func:`extract_table` hands both to babel (``babel.cfg``). Code names a
code by its string (``problem("config.invalid", errors=...)``); a problem is rendered in a reader's language
only when it is shown (:meth:`Problem.message`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO, Collection, Iterable, Iterator, Mapping, Optional

try:
    import tomllib
except ImportError:  # Python 3.10: the same parser, before it joined the standard library
    import tomli as tomllib

from .model import Location, Message, Plural, Problem, Severity, Translate, english

# The rooms that have problem codes, each a folder of ckanext/passport holding its problems.toml. Data only: the
# library imports none of them.
ROOMS = ("mr", "catalog", "harvest", "lkod", "lkod/links", "conformance/site_check")
_PACKAGE = Path(__file__).resolve().parent.parent
_FIELDS = frozenset({"severity", "message", "plural", "count", "meaning"})
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def N_(message: str) -> str:
    """Marks a message for extraction without translating it: it is translated when it is shown."""
    return message


def Nn_(singular: str, plural: str, count: str = "count") -> Plural:
    """Marks a message whose form follows the number in its placeholder ``count`` (extracted as msgid and
    msgid_plural: ``make i18n`` passes ``-k Nn_:1,2``); the form is chosen when the message is shown."""
    return Plural(singular, plural, count)


@dataclass(frozen=True)
class ProblemKind:
    code: str
    severity: Severity
    message: Message
    # What the code means in general, for a message with placeholders: the reports' "Meaning" column names it.
    meaning: Optional[str] = None


class TableError(ValueError):
    """A problems table the catalogue refuses: the row and what is wrong with it."""


SEVERITY_LABELS = {Severity.ERROR: N_("error"), Severity.WARNING: N_("warning"), Severity.INFO: N_("info")}


def table_path(room: str) -> Path:
    return _PACKAGE / room / "problems.toml"


def _kind(table: Path, code: str, row: Mapping[str, Any]) -> ProblemKind:
    where = f"{table}, code {code!r}"
    unknown = sorted(set(row) - _FIELDS)
    if unknown:
        raise TableError(f"{where}: unknown fields {unknown}")
    try:
        severity = Severity(row.get("severity"))
    except ValueError:
        raise TableError(f"{where}: unknown severity {row.get('severity')!r}") from None
    text = row.get("message")
    if not isinstance(text, str) or not text:
        raise TableError(f"{where}: no message")
    meaning = row.get("meaning")
    if _PLACEHOLDER.search(text) and not meaning:
        raise TableError(f"{where}: a message with placeholders needs a meaning without them")
    message = Plural(text, row["plural"], row.get("count", "count")) if "plural" in row else text
    return ProblemKind(code, severity, message, meaning)


def read_tables(tables: Iterable[Path]) -> dict[str, ProblemKind]:
    """Every row of the tables, in their order; a code in two tables is refused, whatever their rows say."""
    kinds: dict[str, ProblemKind] = {}
    found_in: dict[str, Path] = {}
    for table in tables:
        with table.open("rb") as file:
            rows = tomllib.load(file)
        for code, row in rows.items():
            if code in kinds:
                raise TableError(f"problem code {code!r} is in both {found_in[code]} and {table}")
            kinds[code] = _kind(table, code, row)
            found_in[code] = table
    return kinds


@cache
def _kinds() -> dict[str, ProblemKind]:
    return read_tables(table_path(room) for room in ROOMS)


def extract_table(
    fileobj: BinaryIO, keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, Optional[str], Any, list[str]]]:
    """babel's extractor of a problems table (``babel.cfg``): each code's message (with its plural) and its
    meaning, the meaning with a comment naming its code for translators."""
    text = fileobj.read().decode("utf-8")
    lines = {line.strip(): number for number, line in enumerate(text.splitlines(), 1)}
    for code, row in tomllib.loads(text).items():
        line = lines.get(f"[{json.dumps(code, ensure_ascii=False)}]", 0)
        if "plural" in row:
            yield line, "ngettext", (row["message"], row["plural"]), []
        else:
            yield line, None, row["message"], []
        if row.get("meaning"):
            yield line, None, row["meaning"], [f"The meaning of the problem code {code}"]


def problem(
    code: str,
    *,
    url: Optional[str] = None,
    line: Optional[int] = None,
    element: Optional[str] = None,
    severity: Optional[Severity] = None,
    **params: Any,
) -> Problem:
    kind = _kinds()[code]
    return Problem(
        code=code,
        severity=severity or kind.severity,
        template=kind.message,
        params=params,
        location=Location(url=url, line=line, element=element),
    )


def from_dict(data: Mapping[str, Any]) -> Optional[Problem]:
    """A problem back from :meth:`Problem.as_dict`; ``None`` for a code no longer in the catalogue."""
    kind = _kinds().get(data.get("code", ""))
    if kind is None:
        return None
    params = {}
    for name, value in (data.get("params") or {}).items():
        nested = from_dict(value) if isinstance(value, Mapping) else None
        params[name] = nested or (value.get("message", "") if isinstance(value, Mapping) else value)
    return Problem(
        code=kind.code,
        severity=Severity(data.get("severity") or kind.severity.value),
        template=kind.message,
        params=params,
        location=Location(**(data.get("location") or {})),
    )


def stored_problem(data: Mapping[str, Any]) -> Problem:
    """A stored finding back as a problem, always: one whose code the catalogue no longer has (a report kept
    across an upgrade) keeps its stored text, so that nothing found is left out or misnamed."""
    found = from_dict(data)
    if found is not None:
        return found
    code = str(data.get("code") or "")
    return Problem(code=code, severity=Severity(data.get("severity") or "error"),
                   template=str(data.get("message") or code), location=Location(**(data.get("location") or {})))


def severity_label(severity: Severity, translate: Translate = english) -> str:
    return translate(SEVERITY_LABELS[severity])


def where(location: Location, translate: Translate = english) -> str:
    """Where a problem was found, in words: any of its URL, line and element."""
    line = translate(N_("line {line}")).format(line=location.line) if location.line else None
    return ", ".join(part for part in (location.url, line, location.element) if part)


def catalogue() -> dict[str, ProblemKind]:
    """Every code of every room's table, by code."""
    return dict(_kinds())
