"""JSON Schema validation for the few draft-04 keywords MR's schemas use, in plain Python.

``jsonschema`` builds a validator object per subschema and per array item; for a passport that is most
of the time spent reading ``meta.json``. MR's ``meta-schema.json`` only uses ``type``, ``properties``,
``required``, ``items`` (one schema for all items) and ``minItems``, so these are checked here directly,
with jsonschema's own messages, paths and order (``tests/mr/test_schemacheck.py`` holds the two to each
other). A schema using any other keyword is refused: :func:`compile_schema` then returns ``None`` and the
caller keeps using jsonschema.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional, Union

Path = tuple[Union[str, int], ...]
Error = tuple[Path, str]
Check = Callable[[Any, Path], Iterator[Error]]

_ANNOTATIONS = frozenset({"$schema", "id", "title", "description", "default"})
_TYPES: dict[str, Union[type, tuple[type, ...]]] = {"string": str, "object": dict, "array": list}


def compile_schema(schema: dict) -> Optional[Callable[[Any], list[Error]]]:
    """A function giving ``(path, message)`` for each violation, or ``None`` if the schema is beyond this."""
    check = _compile(schema)
    if check is None:
        return None
    return lambda instance: list(check(instance, ()))


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

    def run(instance: Any, path: Path) -> Iterator[Error]:
        for check in checks:
            yield from check(instance, path)

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
        return _properties(compiled)  # type: ignore[arg-type]
    if keyword == "items" and isinstance(value, dict):
        item = _compile(value)
        return _items(item) if item is not None else None
    return None


def _type(name: str) -> Check:
    expected = _TYPES[name]

    def check(instance: Any, path: Path) -> Iterator[Error]:
        if not isinstance(instance, expected):
            yield path, f"{instance!r} is not of type {name!r}"

    return check


def _required(names: list[str]) -> Check:
    def check(instance: Any, path: Path) -> Iterator[Error]:
        if isinstance(instance, dict):
            for name in names:
                if name not in instance:
                    yield path, f"{name!r} is a required property"

    return check


def _min_items(least: int) -> Check:
    message = "should be non-empty" if least == 1 else "is too short"

    def check(instance: Any, path: Path) -> Iterator[Error]:
        if isinstance(instance, list) and len(instance) < least:
            yield path, f"{instance!r} {message}"

    return check


def _properties(compiled: dict[str, Check]) -> Check:
    def check(instance: Any, path: Path) -> Iterator[Error]:
        if isinstance(instance, dict):
            for name, subcheck in compiled.items():
                if name in instance:
                    yield from subcheck(instance[name], path + (name,))

    return check


def _items(item: Check) -> Check:
    def check(instance: Any, path: Path) -> Iterator[Error]:
        if isinstance(instance, list):
            for index, value in enumerate(instance):
                yield from item(value, path + (index,))

    return check
