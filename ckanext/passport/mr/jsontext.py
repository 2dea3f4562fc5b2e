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
from itertools import accumulate
from typing import Any

from .model import Problem
from .problems import problem
from .storable import replaced_finding, storable_json

MAX_DEPTH = 64


# A JSON string: its quote, runs of plain characters and escapes, its quote, each run taken whole (possessive),
# so that matching never backtracks: an unterminated 50 MB string costs one linear scan and no memory per
# character (the alternation ``(?:[^"\\]|\\.)*`` keeps a backtracking entry per character: gigabytes).
JSON_STRING_OPENED = r'"[^"\\]*+(?:\\.[^"\\]*+)*+'
JSON_STRING = JSON_STRING_OPENED + '"'
# A string, or an unterminated one to the end of the text (a lone backslash may end it), kept as group 1. A
# search for strings alone would start again at each later quote of an unterminated string, each read to the
# end: quadratic in a run of quote-backslash pairs. No string after an unterminated one can close (each of its
# quotes is escaped in the first one's reading).
_STRING = re.compile(rf'{JSON_STRING}|({JSON_STRING_OPENED}\\?)\Z', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooDeep(ValueError):
    """The text nests deeper than :data:`MAX_DEPTH`; ``problem`` says so."""

    def __init__(self, found: Problem) -> None:
        super().__init__(found.code)
        self.problem = found


def nesting_depth(text: str) -> int:
    """How deep brackets outside strings nest; linear, no recursion, the scan itself in C.

    Where brackets close more than they opened a parser has stopped already, so the running sum is not
    clamped. An unterminated string hides nothing: what follows its quote is counted, as damage is.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub(r"\1", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def load_json(text: str, url: str = "") -> tuple[Any, list[Problem]]:
    """The value of JSON ``text`` and the finding of any character replaced in it.

    Raises :class:`TooDeep` (a ``ValueError``) for text nested deeper than :data:`MAX_DEPTH`, and
    ``ValueError`` for text that is not JSON, as ``json.loads`` does.
    """
    if nesting_depth(text) > MAX_DEPTH:
        raise TooDeep(problem("json.too_deep", url=url or None, limit=MAX_DEPTH))
    value, replaced = storable_json(json.loads(text))
    return value, replaced_finding(replaced, url)


def decode_at(text: str, index: int, url: str = "") -> tuple[Any, list[Problem]]:
    """The JSON value starting at ``index`` of ``text`` (what follows it is ignored); raises as :func:`load_json`."""
    if nesting_depth(text[index:]) > MAX_DEPTH:
        raise TooDeep(problem("json.too_deep", url=url or None, limit=MAX_DEPTH))
    value, _end = json.JSONDecoder().raw_decode(text, index)
    cleaned, replaced = storable_json(value)
    return cleaned, replaced_finding(replaced, url)


class DepthGauge:
    """:func:`nesting_depth` for text that arrives in pieces (a stream read as it comes): fed each piece in turn, it
    knows how deep the brackets outside strings have nested so far, a string cut between two pieces included.

    A reader that streams feeds each piece here before it decodes any value of it, so nothing deeper than
    :data:`MAX_DEPTH` is ever decoded, as :func:`load_json` refuses it whole.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.deepest = 0
        # An unterminated string at the end of what came so far, read again with the next piece: its quote may
        # come in it, after a backslash that escapes the next piece's first character.
        self._open = ""

    def feed(self, text: str) -> int:
        """Take the next piece; the deepest nesting so far."""
        opened: list[str] = []

        def strip(found: re.Match) -> str:
            if found.group(1) is not None:
                opened.append(found.group(1))
            return ""

        brackets = _NOT_BRACKET.sub("", _STRING.sub(strip, self._open + text))
        self._open = opened[0] if opened else ""
        steps = list(accumulate(map(_STEP.__getitem__, brackets), initial=self.depth))
        self.depth = steps[-1]
        self.deepest = max(self.deepest, max(steps))
        return self.deepest


def value_cut(text: str) -> bool:
    """Whether the JSON value ``text`` starts with runs on past its end: an array or object whose brackets do not close
    within it (its open strings aside), a string with no closing quote, a number or literal up to the end.

    A reader of a stream asks it when a value does not decode: a cut value waits for more text (or, at the end of a
    sample, is no fault of the file), one that ends within the text is broken.
    """
    start = text[:1]
    if start in ("[", "{"):
        brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
        return all(depth > 0 for depth in accumulate(map(_STEP.__getitem__, brackets)))
    if start == '"':
        return re.match(JSON_STRING, text) is None
    return _TOKEN_TO_END.fullmatch(text) is not None


_TOKEN_TO_END = re.compile(r"[\w.+\-]*")
