"""The catalogue of problem codes.

Each module that reports problems defines its codes here at import time with :func:`define`, so one
code always carries the same severity and wording, and :func:`catalogue` can list every code the library
may emit (the harvester UI and the documentation read it). The wording is one English template, the gettext
msgid of the project's catalogs (``i18n/*/LC_MESSAGES/ckanext-passport.po``): :func:`N_` marks it for
extraction (babel's default keywords include ``N_``), and a problem is rendered in a reader's language only
when it is shown (:meth:`Problem.message`).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import Any, Mapping, Optional

from .model import Location, Message, Plural, Problem, Severity, Translate, english


def N_(message: str) -> str:
    """Marks a message for extraction without translating it: it is translated when a problem is shown."""
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


_KINDS: dict[str, ProblemKind] = {}

SEVERITY_LABELS = {Severity.ERROR: N_("error"), Severity.WARNING: N_("warning"), Severity.INFO: N_("info")}


def define(code: str, severity: Severity, message: Message, *, meaning: Optional[str] = None) -> str:
    """Register a code; the message (:func:`N_`, or :func:`Nn_` when it counts) may hold ``{name}``
    placeholders filled by :func:`problem`. A message with placeholders has a ``meaning`` (:func:`N_`): what
    any finding of the code means, in a sentence with none."""
    kind = ProblemKind(code, severity, message, meaning)
    existing = _KINDS.get(code)
    if existing is not None and existing != kind:
        raise ValueError(f"problem code {code!r} defined twice with different texts")
    _KINDS[code] = kind
    return code


def problem(
    code: str,
    *,
    url: Optional[str] = None,
    line: Optional[int] = None,
    element: Optional[str] = None,
    severity: Optional[Severity] = None,
    **params: Any,
) -> Problem:
    kind = _KINDS[code]
    return Problem(
        code=code,
        severity=severity or kind.severity,
        template=kind.message,
        params=params,
        location=Location(url=url, line=line, element=element),
    )


@cache
def _every_library_code() -> None:
    """Import every module of the MR library, so that each code it may emit is defined.

    A module defines its codes when first imported, and a process reading stored findings back (a web process
    showing a report) may never have parsed a passport of that form.
    """
    package = importlib.import_module(__package__)
    for module in pkgutil.walk_packages(package.__path__, f"{__package__}."):
        importlib.import_module(module.name)


def from_dict(data: Mapping[str, Any]) -> Optional[Problem]:
    """A problem back from :meth:`Problem.as_dict`; ``None`` for a code no longer in the catalogue."""
    code = data.get("code", "")
    if code not in _KINDS:
        _every_library_code()
    kind = _KINDS.get(code)
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
    """Every code: the MR library's and those of the modules imported so far (the harvest's, the site check's)."""
    _every_library_code()
    return dict(_KINDS)
