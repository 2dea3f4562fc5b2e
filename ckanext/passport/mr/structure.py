"""Field lists of structure files: CSV descriptions, JSON Schemas and XSDs, as MR sites publish them.

Publishers fill the columns loosely (Rosstat swaps its Russian and English description columns), so a CSV
row gives a name, then its first text as the title and the second as the description, then a format.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from .csvrows import is_column_number_row, read_rows
from .decode import decode_bytes
from .guarded import never_raising
from .jsontext import TooDeep, load_json
from .limits import DEFAULT_LIMITS, too_large
from .model import ParseResult, StructureField
from .problems import problem
from .safexml import local_name, parse_xml
from .sniff import sniff


_HEADER_WORDS = re.compile(r"^(field|name|наименование|название|поле|имя|№|n|no)", re.I)
_SEQUENCE = re.compile(r"^\d+\.?$")
_XS = "{http://www.w3.org/2001/XMLSchema}"


def read_structure_fields(data: bytes, url: str = "",
                          max_bytes: int = DEFAULT_LIMITS.structure_bytes) -> ParseResult[list[StructureField]]:
    """The fields a structure file describes; never raises. A file over ``max_bytes`` is refused unread."""
    return never_raising(lambda: _read_structure_fields(data, url, max_bytes),
                         lambda error: problem("structure.unreadable", url=url or None, reason=error), url)


def _read_structure_fields(data: bytes, url: str, max_bytes: int) -> ParseResult[list[StructureField]]:
    refused = too_large(len(data), max_bytes, url)
    if refused is not None:
        return ParseResult(None, [refused])
    kind = sniff(data).kind
    if kind == "json":
        result = _from_json(data, url)
    elif kind == "xml":
        result = _from_xsd(data, url)
    else:
        result = _from_csv(data, url)
    if result.value == [] and not result.errors:
        result.problems.append(problem("structure.no_fields", url=url or None))
    return result


def _from_csv(data: bytes, url: str) -> ParseResult[list[StructureField]]:
    decoded = decode_bytes(data, url)
    table = read_rows(decoded.text, url)
    fields: list[StructureField] = []
    for index, row in enumerate(table.rows):
        cells = [c.strip() for c in row.cells]
        if is_column_number_row(cells) or (index == 0 and cells and _HEADER_WORDS.match(cells[0])):
            continue
        if cells and _SEQUENCE.match(cells[0]):
            cells = cells[1:]
        if not cells or not cells[0]:
            continue
        rest = cells[1:] + ["", "", ""]
        fields.append(StructureField(name=cells[0], title=rest[0], description=rest[1], format=rest[2]))
    return ParseResult(fields, decoded.problems + table.problems, form="csv", encoding=decoded.encoding)


def _from_json(data: bytes, url: str) -> ParseResult[list[StructureField]]:
    decoded = decode_bytes(data, url)
    try:
        schema, loaded = load_json(decoded.text, url)
    except TooDeep as error:
        return ParseResult(None, decoded.problems + [error.problem], form="json", encoding=decoded.encoding)
    except ValueError as error:
        return ParseResult(None, [problem("structure.unreadable", url=url or None, reason=str(error))], form="json")
    return ParseResult(list(_json_properties(schema)), decoded.problems + loaded, form="json",
                       encoding=decoded.encoding)


def _json_properties(schema: Any) -> Iterator[StructureField]:
    """Top-level fields of a JSON Schema; ``items`` holding fields directly (a common mistake) counts too."""
    if not isinstance(schema, dict):
        return
    node = schema.get("items", schema) if schema.get("type") == "array" or "items" in schema else schema
    properties = node.get("properties", node) if isinstance(node, dict) else {}
    for name, spec in properties.items():
        if isinstance(spec, dict) and name not in ("type", "required", "$schema"):
            yield StructureField(
                name=name,
                title=str(spec.get("title", "")),
                description=str(spec.get("description", "")),
                format=str(spec.get("type", "")),
            )


def _from_xsd(data: bytes, url: str) -> ParseResult[list[StructureField]]:
    root, problems = parse_xml(data, url)
    if root is None:
        return ParseResult(None, problems, form="xsd")
    fields = []
    for element in root.iter(f"{_XS}element"):
        name = element.get("name")
        if not name:
            continue
        docs = [d for d in element.iter() if local_name(d) == "documentation"]
        fields.append(
            StructureField(
                name=name,
                description=(docs[0].text or "").strip() if docs else "",
                format=(element.get("type") or "").split(":")[-1],
            )
        )
    return ParseResult(fields, problems, form="xsd")
