"""A JSON Schema violation said in the reader's language, by the kind of rule broken, naming the field.

jsonschema's own messages are English ("'mbox' is a required property") and would stand inside Czech and
Russian findings. A violation is told as one of these problems instead, held as the ``detail`` of the form's
schema finding, so it is rendered in each reader's language when shown; a rule not named here keeps
jsonschema's text.
"""
from __future__ import annotations

from typing import Any

from jsonschema import ValidationError

from .model import Problem, Severity
from .problems import N_, Nn_, define, problem

REQUIRED = define(
    "schema.rule.required", Severity.WARNING, N_("the field {field} is missing"),
    meaning=N_("A required field is missing"),
)
TYPES = {
    "string": define(
        "schema.rule.type_string", Severity.WARNING, N_("{field} must be text"),
        meaning=N_("A field that holds text has another kind of value"),
    ),
    "array": define(
        "schema.rule.type_array", Severity.WARNING, N_("{field} must be a list"),
        meaning=N_("A field that holds a list has another kind of value"),
    ),
    "object": define(
        "schema.rule.type_object", Severity.WARNING, N_("{field} must be a group of fields"),
        meaning=N_("A field that holds a group of fields has another kind of value"),
    ),
    "number": define(
        "schema.rule.type_number", Severity.WARNING, N_("{field} must be a number"),
        meaning=N_("A field that holds a number has another kind of value"),
    ),
    "integer": define(
        "schema.rule.type_integer", Severity.WARNING, N_("{field} must be a whole number"),
        meaning=N_("A field that holds a whole number has another kind of value"),
    ),
    "boolean": define(
        "schema.rule.type_boolean", Severity.WARNING, N_("{field} must be true or false"),
        meaning=N_("A field that holds true or false has another kind of value"),
    ),
}
# A type rule allowing several types, or null.
TYPE = define(
    "schema.rule.type", Severity.WARNING, N_("{field} has a value of the wrong type"),
    meaning=N_("A field has a value of the wrong type"),
)
MIN_ITEMS = define("schema.rule.min_items", Severity.WARNING,
                   Nn_("{field} must hold at least {count} item", "{field} must hold at least {count} items"),
                   meaning=N_("A list holds fewer items than the schema asks for"))
PATTERN = define(
    "schema.rule.pattern", Severity.WARNING, N_("{field} does not have the required form {pattern}"),
    meaning=N_("A field does not have the form the schema asks for"),
)
ENUM = define(
    "schema.rule.enum", Severity.WARNING, N_("{field} must be one of: {allowed}"),
    meaning=N_("A field has a value outside the schema's choices"),
)
FORMAT = define(
    "schema.rule.format", Severity.WARNING, N_("{field} is not in the format {format}"),
    meaning=N_("A field is not in the format the schema asks for"),
)
OTHER = define(
    "schema.rule.other", Severity.WARNING, N_("{field}: {detail}"),
    meaning=N_("A field breaks a rule of the schema"),
)


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
        return problem(REQUIRED, field=_field(path + [_missing(error)]))
    field = _field(path)
    if rule == "type":
        return problem(TYPES.get(expected, TYPE) if isinstance(expected, str) else TYPE, field=field)
    if rule == "minItems":
        return problem(MIN_ITEMS, field=field, count=expected)
    if rule == "pattern":
        return problem(PATTERN, field=field, pattern=expected)
    if rule == "enum":
        return problem(ENUM, field=field, allowed=", ".join(str(value) for value in expected))
    if rule == "format":
        return problem(FORMAT, field=field, format=expected)
    return problem(OTHER, field=field, detail=error.message)
