"""Text that storage accepts: what PostgreSQL, XML and CSV cannot hold is replaced where text is read.

PostgreSQL refuses NUL in text, XML 1.0 holds no C0 control character but tab, LF and CR, nor U+FFFE and
U+FFFF, and no encoder writes a lone surrogate (JSON's ``\\ud800`` makes one). Published text carries them:
a stray byte in a CMS field, a ``\\u0000`` escape. They are replaced by U+FFFD once, by the decoder and the
JSON loader, and counted in one finding, so that the model, ``serialize`` and the writers never see them.
"""
from __future__ import annotations

import re
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

from .model import Problem
from .problems import problem


REPLACEMENT = "\ufffd"
UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

T = TypeVar("T")


def storable(text: str) -> tuple[str, int]:
    """``text`` with every character storage refuses replaced, and how many there were."""
    return UNSTORABLE.subn(REPLACEMENT, text)


def storable_json(value: Any) -> tuple[Any, int]:
    """A loaded JSON value with its keys and strings storable; its depth is bounded by the loader."""
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list):
        items = [storable_json(item) for item in value]
        return [item for item, _ in items], sum(count for _, count in items)
    if isinstance(value, dict):
        result: dict = {}
        replaced = 0
        for key, item in value.items():
            key_text, key_count = storable(key) if isinstance(key, str) else (key, 0)
            item_value, item_count = storable_json(item)
            result.setdefault(key_text, item_value)
            replaced += key_count + item_count
        return result, replaced
    return value, 0


def storable_value(value: T) -> tuple[T, int]:
    """A parsed value (a passport, a registry, a problem: dataclasses, lists, mappings and text) made storable.

    The last net behind the decoder and the JSON loader, for text a markup parser made of character
    references; it returns the value itself when nothing had to change.
    """
    if isinstance(value, str):
        return storable(value)  # type: ignore[return-value]
    if isinstance(value, list):
        items = [storable_value(item) for item in value]
        replaced = sum(count for _, count in items)
        return ([item for item, _ in items] if replaced else value), replaced  # type: ignore[return-value]
    if isinstance(value, dict):
        pairs = {key: storable_value(item) for key, item in value.items()}
        replaced = sum(count for _, count in pairs.values())
        return ({key: item for key, (item, _) in pairs.items()} if replaced else value), replaced  # type: ignore[return-value]
    if is_dataclass(value) and not isinstance(value, type):
        changes = {}
        replaced = 0
        for item in fields(value):
            cleaned, count = storable_value(getattr(value, item.name))
            if count:
                changes[item.name] = cleaned
                replaced += count
        return (replace(value, **changes) if changes else value), replaced
    return value, 0


def replaced_finding(count: int, url: str = "") -> list[Problem]:
    """The one finding for ``count`` replaced characters (none for none)."""
    return [problem("text.control_characters", url=url or None, count=count)] if count else []
