"""A JSON Schema violation said in the reader's language, by the kind of rule broken, naming the field.

jsonschema's own messages are English ("'mbox' is a required property") and would stand inside Czech and
Russian findings. A violation is told as one of these problems instead, held as the ``detail`` of the form's
schema finding, so it is rendered in each reader's language when shown; a rule not named here keeps
jsonschema's text.
"""
from __future__ import annotations

from typing import Any

from jsonschema import ValidationError

from .model import Problem
from .problems import problem

TYPES = {
    "string": "schema.rule.type_string",
    "array": "schema.rule.type_array",
    "object": "schema.rule.type_object",
    "number": "schema.rule.type_number",
    "integer": "schema.rule.type_integer",
    "boolean": "schema.rule.type_boolean",
}


def _field(path: list[Any]) -> str:
    return "/".join(str(part) for part in path) or "/"


def _missing(error: ValidationError) -> str:
    """The property a ``required`` error is about: jsonschema names it only in its English message."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    missing = [name for name in error.validator_value if name not in instance]
    return next((name for name in missing if repr(name) in error.message), missing[0] if missing else "")


def reason(error: ValidationError) -> Problem:
    """The rule ``error`` broke, as a problem naming the field (its path from the document's root)."""
    path = list(error.absolute_path)
    rule, expected = error.validator, error.validator_value
    if rule == "required":
        return problem("schema.rule.required", field=_field(path + [_missing(error)]))
    field = _field(path)
    if rule == "type":
        return problem(TYPES.get(expected, "schema.rule.type") if isinstance(expected, str) else "schema.rule.type", field=field)
    if rule == "minItems":
        return problem("schema.rule.min_items", field=field, count=expected)
    if rule == "pattern":
        return problem("schema.rule.pattern", field=field, pattern=expected)
    if rule == "enum":
        return problem("schema.rule.enum", field=field, allowed=", ".join(str(value) for value in expected))
    if rule == "format":
        return problem("schema.rule.format", field=field, format=expected)
    return problem("schema.rule.other", field=field, detail=error.message)
