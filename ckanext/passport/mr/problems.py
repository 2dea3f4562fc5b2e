"""The catalogue of problem codes.

Each module that reports problems defines its codes here at import time with :func:`define`, so one
code always carries the same severity and wording, and :func:`catalogue` can list every code the library
may emit (the harvester UI and the documentation read it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .model import Location, Problem, Severity


@dataclass(frozen=True)
class ProblemKind:
    code: str
    severity: Severity
    message_ru: str
    message_en: str


_KINDS: dict[str, ProblemKind] = {}


def define(code: str, severity: Severity, message_ru: str, message_en: str) -> str:
    """Register a code; messages may hold ``{name}`` placeholders filled by :func:`problem`."""
    kind = ProblemKind(code, severity, message_ru, message_en)
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
        message_ru=_fill(kind.message_ru, params),
        message_en=_fill(kind.message_en, params),
        location=Location(url=url, line=line, element=element),
    )


def _fill(template: str, params: dict[str, Any]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def catalogue() -> dict[str, ProblemKind]:
    return dict(_KINDS)
