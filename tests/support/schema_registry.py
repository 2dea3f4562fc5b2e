"""The norm's JSON Schemas, resolved locally: a ``referencing`` registry and validators over it.

The schemas refer to each other and to two schemas of the Czech basic data types (ofn.gov.cz, "základní
datové typy"): a text in several languages (a language map of strings) and several texts (a language map of
arrays of strings). Those two are written here from the norm's description; tests never reach the internet.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz" / "schémata"
BASE = "https://ofn.gov.cz/dcat-ap-cz-rozhraní-katalogů-otevřených-dat/2024-05-28/schémata/"
BASIC_TYPES = "https://ofn.gov.cz/základní-datové-typy/2020-07-01/schémata/"
_LANGUAGE_TAG = {"pattern": "^[a-zA-Z]{2,3}(-[a-zA-Z0-9]+)*$"}

TEXT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASIC_TYPES + "text.json",
    "title": "Text",
    "type": "object",
    "minProperties": 1,
    "propertyNames": _LANGUAGE_TAG,
    "additionalProperties": {"type": "string"},
}
TEXTS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASIC_TYPES + "více-textů.json",
    "title": "Více textů",
    "type": "object",
    "minProperties": 1,
    "propertyNames": _LANGUAGE_TAG,
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}


@lru_cache(maxsize=1)
def registry() -> Registry:
    resources = [TEXT, TEXTS] + [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted(SCHEMAS.glob("*.json"))
    ]
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012)) for schema in resources
    )


def validator(name: str) -> Draft202012Validator:
    """A validator of one of the norm's schemas (``datová-sada.json`` …), checking formats too."""
    schema = registry().contents(BASE + name)
    return Draft202012Validator(schema, registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(name: str, document: Any) -> list[str]:
    """Every error of ``document`` against schema ``name``, as ``path: message`` lines (empty: valid)."""
    return sorted(
        f"{'/'.join(str(part) for part in error.absolute_path)}: {error.message}"
        for error in validator(name).iter_errors(document)
    )
