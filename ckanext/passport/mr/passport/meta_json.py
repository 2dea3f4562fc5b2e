"""MR 3.0 ``meta.json``: the passport as JSON, checked against ``meta-schema.json``.

Like ``meta.xml``, schema violations are reported and the rest is read. Keys are read loosely
(``"standard version"``, ``email`` for ``mbox``), and JSON with a missing brace is salvaged pair by pair,
since the MR 3.0 appendix's own example is such a file.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

import jsonschema

from ..dates import parse_date
from ..forms import Form
from ..jsontext import TooDeep, load_json
from ..decode import decode_bytes
from ..fields import (
    clean_mbox,
    clean_phone,
    described_by_newest,
    field_key,
    file_format,
    newest_first,
    plain_text,
    resolve,
    salvage_json,
    split_subject,
    standard_version,
    structure_name,
    version_names,
)
from ..model import DataVersion, ParseResult, Passport, Problem, Publisher, StructureVersion
from ..problems import problem
from ..schema_rules import reason

FORM = Form.META_JSON


_DATA_KEYS = frozenset({"source", "created", "provenance", "valid", "structure", "format"})
_SECTIONS = {
    "data": ("array", _DATA_KEYS),
    "structure": ("array", frozenset({"source", "created", "format"})),
    "publisher": ("object", frozenset({"name", "phone", "mbox"})),
}


@lru_cache(maxsize=1)
def meta_schema() -> dict:
    return json.loads(resources.files("ckanext.passport.mr").joinpath("schemas/meta-schema.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def json_schema_validator() -> jsonschema.protocols.Validator:
    schema = meta_schema()
    return jsonschema.validators.validator_for(schema)(schema)


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    decoded = decode_bytes(data, url)
    problems = list(decoded.problems)
    try:
        document, loaded = load_json(decoded.text, url)
    except TooDeep as error:
        return ParseResult(None, problems + [error.problem], form=FORM, encoding=decoded.encoding)
    except ValueError as error:
        problems.append(problem("passport.json_damaged", url=url or None, line=getattr(error, "lineno", None), detail=str(error)))
        document = salvage_json(decoded.text, _SECTIONS)
        if not document:
            return ParseResult(None, problems, form=FORM, encoding=decoded.encoding)
    else:
        problems.extend(loaded)
        if not isinstance(document, dict):
            problems.append(problem("passport.json_not_object", url=url or None))
            return ParseResult(None, problems, form=FORM, encoding=decoded.encoding)
        problems.extend(schema_problems(document, url))
    passport = _passport(_normalise(document), url, problems)
    return ParseResult(passport, problems, form=FORM, encoding=decoded.encoding)


def schema_problems(document: Any, url: str = "") -> list[Problem]:
    return [
        problem(
            "schema.json_violation",
            url=url or None,
            element="/" + "/".join(str(part) for part in error.absolute_path),
            detail=reason(error),
        )
        for error in json_schema_validator().iter_errors(document)
    ]


def _normalise(value: Any, depth: int = 3) -> Any:
    """Keys as MR means them down to the version items (all a passport has); the first spelling wins.

    The depth is bounded so that hostile nesting cannot exhaust the stack.
    """
    if depth == 0:
        return value
    if isinstance(value, dict):
        result: dict = {}
        for key, item in value.items():
            result.setdefault(field_key(str(key)), _normalise(item, depth - 1))
        return result
    if isinstance(value, list):
        return [_normalise(item, depth - 1) for item in value]
    return value


def _passport(document: dict, url: str, problems: list[Problem]) -> Passport:
    standard, standard_problems = standard_version(plain_text(document.get("standardversion")), area="passport", url=url)
    problems.extend(standard_problems)
    published = document.get("publisher")
    publisher: dict = published if isinstance(published, dict) else {}
    passport = Passport(
        standard_version=standard,
        identifier=plain_text(document.get("identifier")),
        title=plain_text(document.get("title")),
        description=plain_text(document.get("description")),
        creator=plain_text(document.get("creator")),
        created=parse_date(plain_text(document.get("created"))),
        modified=parse_date(plain_text(document.get("modified"))),
        valid=parse_date(plain_text(document.get("valid"))),
        subject=split_subject(plain_text(document.get("subject"))),
        format=plain_text(document.get("format")).lower(),
        provenance=plain_text(document.get("provenance")),
        publisher=Publisher(
            name=plain_text(publisher.get("name")),
            phone=clean_phone(plain_text(publisher.get("phone"))),
            mbox=clean_mbox(plain_text(publisher.get("mbox"))),
        ),
        data_versions=newest_first(_data_versions(document.get("data"), url, problems)),
        structure_versions=newest_first(_structure_versions(document.get("structure"), url)),
    )
    return described_by_newest(passport)


def _items(value: Any) -> Iterator[dict]:
    if isinstance(value, dict):
        value = [value]
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, dict))


def _data_versions(value: Any, url: str, problems: list[Problem]) -> Iterator[DataVersion]:
    for index, item in enumerate(_items(value)):
        source = resolve(plain_text(item.get("source")), url)
        if not source:
            problems.append(problem("passport.version_without_source", url=url or None, element=f"/data/{index}"))
            continue
        version, named_structure = version_names(source)
        yield DataVersion(
            source=source,
            version=version,
            structure_version=plain_text(item.get("structure")) or named_structure,
            created=parse_date(plain_text(item.get("created"))),
            provenance=plain_text(item.get("provenance")),
            valid=parse_date(plain_text(item.get("valid"))),
            format=plain_text(item.get("format")).lower() or file_format(source),
        )


def _structure_versions(value: Any, url: str) -> Iterator[StructureVersion]:
    for item in _items(value):
        source = resolve(plain_text(item.get("source")), url)
        if source:
            yield StructureVersion(
                source=source,
                version=structure_name(source) or plain_text(item.get("created")),
                created=parse_date(plain_text(item.get("created"))),
                format=plain_text(item.get("format")).lower() or file_format(source),
            )
