"""JSON text to values for every JSON form (passports, registries, structures, data heads), never recursing deep.

``json.loads`` recurses once per level of nesting, and so do ``jsonschema`` and any walk of the value: a
published document nested a few hundred levels deep raises ``RecursionError`` far from the reader. MR
documents are flat (a passport is three levels deep, a JSON Schema of a structure a handful), so a document
nested deeper than :data:`MAX_DEPTH` is refused before it is loaded, by a linear scan of its brackets outside
strings. What is loaded is made storable (:mod:`.storable`): JSON escapes spell NUL and lone surrogates.
"""
from __future__ import annotations

import json
import re
from typing import Any

from .model import Problem, Severity
from .problems import N_, define, problem
from .storable import replaced_finding, storable_json

MAX_DEPTH = 64

TOO_DEEP = define(
    "json.too_deep", Severity.ERROR,
    N_("The JSON is nested more than {limit} levels deep; it was not read"),
)

_TOKEN = re.compile(r'[\[\]{}"\\]')
_OPENING = frozenset("[{")
_CLOSING = frozenset("]}")


class TooDeep(ValueError):
    """The text nests deeper than :data:`MAX_DEPTH`; ``problem`` says so."""

    def __init__(self, found: Problem) -> None:
        super().__init__(found.code)
        self.problem = found


def nesting_exceeds(text: str, limit: int = MAX_DEPTH, start: int = 0) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` anywhere from ``start``; linear, no recursion.

    An unterminated string hides what follows it, as it would from a JSON parser.
    """
    depth = 0
    in_string = False
    skip_to = -1
    for token in _TOKEN.finditer(text, start):
        at = token.start()
        if at < skip_to:
            continue
        char = token.group()
        if in_string:
            if char == "\\":
                skip_to = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif char in _CLOSING:
            depth = max(depth - 1, 0)
    return False


def load_json(text: str, url: str = "") -> tuple[Any, list[Problem]]:
    """The value of JSON ``text`` and the finding of any character replaced in it.

    Raises :class:`TooDeep` (a ``ValueError``) for text nested deeper than :data:`MAX_DEPTH`, and
    ``ValueError`` for text that is not JSON, as ``json.loads`` does.
    """
    if nesting_exceeds(text):
        raise TooDeep(problem(TOO_DEEP, url=url or None, limit=MAX_DEPTH))
    value, replaced = storable_json(json.loads(text))
    return value, replaced_finding(replaced, url)


def decode_at(text: str, index: int, url: str = "") -> tuple[Any, list[Problem]]:
    """The JSON value starting at ``index`` of ``text`` (what follows it is ignored); raises as :func:`load_json`."""
    if nesting_exceeds(text, start=index):
        raise TooDeep(problem(TOO_DEEP, url=url or None, limit=MAX_DEPTH))
    value, _end = json.JSONDecoder().raw_decode(text, index)
    cleaned, replaced = storable_json(value)
    return cleaned, replaced_finding(replaced, url)
