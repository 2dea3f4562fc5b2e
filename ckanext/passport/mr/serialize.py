"""Lossless JSON for the MR model, so a parsed passport can wait in a harvest object between stages.

Unlike the MR writers (which speak the standard's formats and drop what the standard has no place for),
this keeps every field, the published date text beside its understood value included.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import fields, is_dataclass
from typing import Any, Optional

from .model import (
    DataVersion,
    MRDate,
    Passport,
    Problem,
    Publisher,
    RegistryEntry,
    Severity,
    StructureField,
    StructureVersion,
    Translate,
    english,
)


def to_jsonable(value: Any, translate: Translate = english) -> Any:
    """JSON-ready ``value``; problems carry their message in the language of ``translate``."""
    if isinstance(value, Problem):
        return value.as_dict(translate)
    if isinstance(value, MRDate):
        return {"text": value.text, "value": value.value.isoformat() if value.value else None}
    if isinstance(value, Severity):
        return value.value
    if is_dataclass(value):
        return {f.name: to_jsonable(getattr(value, f.name), translate) for f in fields(value)}
    if isinstance(value, list):
        return [to_jsonable(v, translate) for v in value]
    return value


def _date(data: Optional[dict]) -> Optional[MRDate]:
    if not data:
        return None
    raw = data.get("value")
    value: Any = None
    if raw:
        value = dt.datetime.fromisoformat(raw) if "T" in raw else dt.date.fromisoformat(raw)
    return MRDate(text=data.get("text", ""), value=value)


def passport_from_jsonable(data: dict) -> Passport:
    return Passport(
        **{k: v for k, v in data.items() if k not in _PASSPORT_NESTED},
        publisher=Publisher(**data.get("publisher", {})),
        created=_date(data.get("created")),
        modified=_date(data.get("modified")),
        valid=_date(data.get("valid")),
        data_versions=[
            DataVersion(**{**v, "created": _date(v.get("created")), "valid": _date(v.get("valid"))})
            for v in data.get("data_versions", [])
        ],
        structure_versions=[
            StructureVersion(
                **{
                    **s,
                    "created": _date(s.get("created")),
                    "fields": [StructureField(**f) for f in s.get("fields", [])],
                }
            )
            for s in data.get("structure_versions", [])
        ],
    )


_PASSPORT_NESTED = {"publisher", "created", "modified", "valid", "data_versions", "structure_versions"}


def entry_from_jsonable(data: dict) -> RegistryEntry:
    return RegistryEntry(**{f.name: data.get(f.name, "") for f in fields(RegistryEntry)})
