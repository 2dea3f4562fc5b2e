"""JSON Schema validation for the few draft-04 keywords MR's schemas use, in plain Python.

``jsonschema`` builds a validator object per subschema and per array item; for a passport that is most
of the time spent reading ``meta.json``. MR's ``meta-schema.json`` only uses ``type``, ``properties``,
``required``, ``items`` (one schema for all items) and ``minItems``, so these are checked here directly,
with jsonschema's own messages, paths and order (``tests/mr/test_schemacheck.py`` holds the two to each
other). A schema using any other keyword is refused: :func:`compile_schema` then returns ``None`` and the
caller keeps using jsonschema.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Union

Path = tuple[Union[str, int], ...]
Error = tuple[Path, str]
# A compiled keyword appends the errors of an instance at a path to a list: plain calls, no generators, since
# a passport's document is walked node by node on every harvest.
Check = Callable[[Any, Path, list[Error]], None]

_ANNOTATIONS = frozenset({"$schema", "id", "title", "description", "default"})
_TYPES: dict[str, Union[type, tuple[type, ...]]] = {"string": str, "object": dict, "array": list}


def compile_schema(schema: dict) -> Optional[Callable[[Any], list[Error]]]:
    """A function giving ``(path, message)`` for each violation, or ``None`` if the schema is beyond this."""
    check = _compile(schema)
    if check is None:
        return None

    def errors(instance: Any) -> list[Error]:
        found: list[Error] = []
        check(instance, (), found)
        return found

    return errors


def _compile(schema: Any) -> Optional[Check]:
    if not isinstance(schema, dict):
        return None
    checks: list[Check] = []
    # jsonschema applies keywords in the schema's own order; so do we.
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _keyword(keyword, value)
        if check is None:
            return None
        checks.append(check)
    if len(checks) == 1:
        return checks[0]

    def run(instance: Any, path: Path, found: list[Error]) -> None:
        for check in checks:
            check(instance, path, found)

    return run


def _keyword(keyword: str, value: Any) -> Optional[Check]:
    if keyword == "type" and isinstance(value, str) and value in _TYPES:
        return _type(value)
    if keyword == "required" and isinstance(value, list):
        return _required(value)
    if keyword == "minItems" and isinstance(value, int):
        return _min_items(value)
    if keyword == "properties" and isinstance(value, dict):
        compiled = {name: _compile(subschema) for name, subschema in value.items()}
        if any(check is None for check in compiled.values()):
            return None
        return _properties({name: (_only_type(value[name]), check) for name, check in compiled.items()})  # type: ignore[misc]
    if keyword == "items" and isinstance(value, dict):
        item = _compile(value)
        return _items(item) if item is not None else None
    return None


def _type(name: str) -> Check:
    expected = _TYPES[name]

    def check(instance: Any, path: Path, found: list[Error]) -> None:
        if not isinstance(instance, expected):
            found.append((path, f"{instance!r} is not of type {name!r}"))

    return check


def _required(names: list[str]) -> Check:
    def check(instance: Any, path: Path, found: list[Error]) -> None:
        if isinstance(instance, dict):
            for name in names:
                if name not in instance:
                    found.append((path, f"{name!r} is a required property"))

    return check


def _min_items(least: int) -> Check:
    message = "should be non-empty" if least == 1 else "is too short"

    def check(instance: Any, path: Path, found: list[Error]) -> None:
        if isinstance(instance, list) and len(instance) < least:
            found.append((path, f"{instance!r} {message}"))

    return check


def _only_type(schema: dict) -> Optional[str]:
    """The type a subschema asks for when that is all it asks (most of MR's leaves)."""
    keywords = [keyword for keyword in schema if keyword not in _ANNOTATIONS]
    return schema["type"] if keywords == ["type"] else None


def _properties(compiled: dict[str, tuple[Optional[str], Check]]) -> Check:
    # Leaves that only name a type are checked here, without a call or a path unless they fail.
    pairs = tuple(
        (name, _TYPES[only] if only else None, only, check) for name, (only, check) in compiled.items()
    )

    def check(instance: Any, path: Path, found: list[Error]) -> None:
        if isinstance(instance, dict):
            for name, expected, type_name, subcheck in pairs:
                if name in instance:
                    value = instance[name]
                    if expected is None:
                        subcheck(value, path + (name,), found)
                    elif not isinstance(value, expected):
                        found.append((path + (name,), f"{value!r} is not of type {type_name!r}"))

    return check


def _items(item: Check) -> Check:
    def check(instance: Any, path: Path, found: list[Error]) -> None:
        if isinstance(instance, list):
            for index, value in enumerate(instance):
                item(value, path + (index,), found)

    return check
