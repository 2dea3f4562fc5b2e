"""MR 3.0 ``meta.xml``: the passport as XML, checked against ``meta-schema.xsd``.

Real passports break the schema (an empty ``<dataversion/>``, a version without ``<provenance>``), so schema
violations are reported, never fatal: whatever the file says is read.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Iterator

from lxml import etree

from ..dates import parse_date
from ..fields import (
    VERSION_WITHOUT_SOURCE,
    clean_mbox,
    clean_phone,
    file_format,
    newest_first,
    resolve,
    split_subject,
    standard_version,
    structure_name,
    version_names,
)
from ..model import DataVersion, ParseResult, Passport, Problem, Publisher, Severity, StructureVersion
from ..problems import define, problem
from ..safexml import child, child_text, children, local_name, parse_xml

FORM = "meta.xml"

SCHEMA_VIOLATION = define(
    "schema.xsd_violation",
    Severity.WARNING,
    "meta.xml не соответствует meta-schema.xsd: {detail}",
    "meta.xml does not match meta-schema.xsd: {detail}",
)
UNEXPECTED_ROOT = define(
    "passport.unexpected_root",
    Severity.ERROR,
    "Корневой элемент паспорта — <{root}>, ожидался <meta>",
    "The passport's root element is <{root}>, expected <meta>",
)


@lru_cache(maxsize=1)
def xml_schema() -> etree.XMLSchema:
    text = resources.files("ckanext.passport.mr").joinpath("schemas/meta-schema.xsd").read_bytes()
    return etree.XMLSchema(etree.fromstring(text))


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    root, problems = parse_xml(data, url)
    if root is None:
        return ParseResult(None, problems, form=FORM)
    encoding = (root.getroottree().docinfo.encoding or "utf-8").lower()
    if local_name(root) != "meta":
        problems.append(problem(UNEXPECTED_ROOT, url=url or None, line=root.sourceline, root=local_name(root)))
        return ParseResult(None, problems, form=FORM, encoding=encoding)
    problems.extend(schema_problems(root, url))
    standard, standard_problems = standard_version(child_text(root, "standardversion"), area="passport", url=url)
    problems.extend(standard_problems)
    publisher = child(root, "publisher")
    passport = Passport(
        standard_version=standard,
        identifier=child_text(root, "identifier"),
        title=child_text(root, "title"),
        description=child_text(root, "description"),
        creator=child_text(root, "creator"),
        created=parse_date(child_text(root, "created")),
        modified=parse_date(child_text(root, "modified")),
        valid=parse_date(child_text(root, "valid")),
        subject=split_subject(child_text(root, "subject")),
        format=child_text(root, "format").lower(),
        provenance=child_text(root, "provenance"),
        publisher=Publisher(
            name=child_text(publisher, "name"),
            phone=clean_phone(child_text(publisher, "phone")),
            mbox=clean_mbox(child_text(publisher, "mbox") or child_text(publisher, "email")),
        ) if publisher is not None else Publisher(),
        data_versions=newest_first(_data_versions(root, url, problems)),
        structure_versions=newest_first(_structure_versions(root, url)),
    )
    return ParseResult(passport, problems, form=FORM, encoding=encoding)


def schema_problems(root: etree._Element, url: str = "") -> list[Problem]:
    schema = xml_schema()
    try:
        if schema.validate(root):
            return []
    except etree.Error as error:
        # libxml2 gives up on trees it cannot check, e.g. ones holding unexpanded entity references.
        return [problem(SCHEMA_VIOLATION, url=url or None, detail=str(error) or type(error).__name__)]
    return [
        problem(SCHEMA_VIOLATION, url=url or None, line=error.line or None, element=error.path or None,
                detail=error.message)
        for error in schema.error_log
    ]


def _data_versions(root: etree._Element, url: str, problems: list[Problem]) -> Iterator[DataVersion]:
    for data in children(root, "data"):
        for item in children(data, "dataversion"):
            source = resolve(child_text(item, "source"), url)
            if not source:
                problems.append(problem(VERSION_WITHOUT_SOURCE, url=url or None, line=item.sourceline))
                continue
            version, named_structure = version_names(source)
            yield DataVersion(
                source=source,
                version=version,
                structure_version=child_text(item, "structure") or named_structure,
                created=parse_date(child_text(item, "created")),
                provenance=child_text(item, "provenance"),
                valid=parse_date(child_text(item, "valid")),
                format=child_text(item, "format").lower() or file_format(source),
            )


def _structure_versions(root: etree._Element, url: str) -> Iterator[StructureVersion]:
    for structure in children(root, "structure"):
        for item in children(structure, "structureversion"):
            source = resolve(child_text(item, "source"), url)
            if source:
                yield StructureVersion(
                    source=source,
                    version=structure_name(source) or child_text(item, "created"),
                    created=parse_date(child_text(item, "created")),
                    format=child_text(item, "format").lower() or file_format(source),
                )
