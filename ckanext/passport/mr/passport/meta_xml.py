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
    clean_mbox,
    clean_phone,
    described_by_newest,
    file_format,
    newest_first,
    resolve,
    split_subject,
    standard_version,
    structure_name,
    version_names,
)
from ..forms import Form
from ..model import DataVersion, ParseResult, Passport, Problem, Publisher, StructureVersion
from ..problems import problem
from ..safexml import child, child_texts, children, local_name, make_parser, parse_xml

FORM = Form.META_XML


_PASSPORT_FIELDS = frozenset({
    "standardversion", "identifier", "title", "description", "creator", "created", "modified", "valid",
    "subject", "format", "provenance",
})


@lru_cache(maxsize=1)
def xml_schema() -> etree.XMLSchema:
    text = resources.files("ckanext.passport.mr").joinpath("schemas/meta-schema.xsd").read_bytes()
    # Our own file, read the one hardened way all the same.
    return etree.XMLSchema(etree.fromstring(text, make_parser()))


def parse(data: bytes, url: str = "") -> ParseResult[Passport]:
    root, problems = parse_xml(data, url)
    if root is None:
        return ParseResult(None, problems, form=FORM)
    encoding = (root.getroottree().docinfo.encoding or "utf-8").lower()
    if local_name(root) != "meta":
        problems.append(problem("passport.unexpected_root", url=url or None, line=root.sourceline, root=local_name(root)))
        return ParseResult(None, problems, form=FORM, encoding=encoding)
    problems.extend(schema_problems(root, url))
    texts = child_texts(root, _PASSPORT_FIELDS)
    standard, standard_problems = standard_version(texts.get("standardversion", ""), area="passport", url=url)
    problems.extend(standard_problems)
    publisher = child(root, "publisher")
    published = child_texts(publisher) if publisher is not None else {}
    passport = Passport(
        standard_version=standard,
        identifier=texts.get("identifier", ""),
        title=texts.get("title", ""),
        description=texts.get("description", ""),
        creator=texts.get("creator", ""),
        created=parse_date(texts.get("created")),
        modified=parse_date(texts.get("modified")),
        valid=parse_date(texts.get("valid")),
        subject=split_subject(texts.get("subject", "")),
        format=texts.get("format", "").lower(),
        provenance=texts.get("provenance", ""),
        publisher=Publisher(
            name=published.get("name", ""),
            phone=clean_phone(published.get("phone", "")),
            mbox=clean_mbox(published.get("mbox") or published.get("email", "")),
        ),
        data_versions=newest_first(_data_versions(root, url, problems)),
        structure_versions=newest_first(_structure_versions(root, url)),
    )
    return ParseResult(described_by_newest(passport), problems, form=FORM, encoding=encoding)


def schema_problems(root: etree._Element, url: str = "") -> list[Problem]:
    schema = xml_schema()
    try:
        if schema.validate(root):
            return []
    except etree.Error as error:
        # libxml2 gives up on trees it cannot check, e.g. ones holding unexpanded entity references.
        return [problem("schema.xsd_violation", url=url or None, detail=str(error) or type(error).__name__)]
    return [
        problem("schema.xsd_violation", url=url or None, line=error.line or None, element=error.path or None,
                detail=error.message)
        for error in schema.error_log
    ]


def _data_versions(root: etree._Element, url: str, problems: list[Problem]) -> Iterator[DataVersion]:
    for data in children(root, "data"):
        for item in children(data, "dataversion"):
            texts = child_texts(item)
            source = resolve(texts.get("source", ""), url)
            if not source:
                problems.append(problem("passport.version_without_source", url=url or None, line=item.sourceline))
                continue
            version, named_structure = version_names(source)
            yield DataVersion(
                source=source,
                version=version,
                structure_version=texts.get("structure") or named_structure,
                created=parse_date(texts.get("created")),
                provenance=texts.get("provenance", ""),
                valid=parse_date(texts.get("valid")),
                format=texts.get("format", "").lower() or file_format(source),
            )


def _structure_versions(root: etree._Element, url: str) -> Iterator[StructureVersion]:
    for structure in children(root, "structure"):
        for item in children(structure, "structureversion"):
            texts = child_texts(item)
            source = resolve(texts.get("source", ""), url)
            if source:
                yield StructureVersion(
                    source=source,
                    version=structure_name(source) or texts.get("created", ""),
                    created=parse_date(texts.get("created")),
                    format=texts.get("format", "").lower() or file_format(source),
                )
