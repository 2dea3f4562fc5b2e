"""Passport writers: MR 3.0 ``meta.csv``, ``meta.xml`` and ``meta.json`` (Appendix 8), as UTF-8 bytes.

Dates are written in MR 3.0's basic form when that reads back to the same value, else as published, so a
write never loses what a parser read. MR 3.0 keeps ``provenance`` and ``valid`` at the top of ``meta.csv``
but inside each data version in XML and JSON; the newest (first) version and the passport lend each other
these values so that neither form drops them.
"""
from __future__ import annotations

import json
from typing import Callable, Optional

from lxml import etree

from ..dates import format_basic, parse_date
from ..fields import described_by_newest
from ..forms import TRAITS, Form, forms
from ..model import DataVersion, MRDate, Passport, StructureVersion
from .text import csv_lines, xml_text


def meta_csv(passport: Passport) -> bytes:
    passport = described_by_newest(passport)
    rows = [
        ("property", "value"),
        ("standardversion", passport.standard_version),
        ("identifier", passport.identifier),
        ("title", passport.title),
        ("description", passport.description),
        ("creator", passport.creator),
        ("created", date_text(passport.created)),
        ("modified", date_text(passport.modified)),
        ("subject", _subject(passport)),
        ("format", passport.format),
        ("provenance", passport.provenance),
        ("valid", date_text(passport.valid)),
        ("publishername", passport.publisher.name),
        ("publisherphone", passport.publisher.phone),
        ("publishermbox", passport.publisher.mbox),
    ]
    rows += [(data_key(version), version.source) for version in passport.data_versions]
    rows += [(structure_key(version), version.source) for version in passport.structure_versions]
    return "".join(csv_lines(rows)).encode("utf-8")


def meta_json(passport: Passport) -> bytes:
    return (json.dumps(_document(passport), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def meta_xml(passport: Passport) -> bytes:
    root = _xml_element("meta", _document(passport))
    etree.indent(root, space="  ")
    return etree.tostring(root, encoding="utf-8", xml_declaration=True, pretty_print=True)


# The forms table names each published passport form's writer among this module's functions.
WRITERS: dict[Form, Callable[[Passport], bytes]] = {
    form: globals()[TRAITS[form].writer] for form in forms(passport_reader=True, writer=True)
}


def write_passport(passport: Passport, form: str) -> bytes:
    """The passport in ``form`` (one of :data:`WRITERS`)."""
    return WRITERS[form](passport)


def date_text(date: Optional[MRDate]) -> str:
    """MR 3.0 basic form (``20130401``, ``20130401T0000``) when lossless, else the published text."""
    if date is None:
        return ""
    if date.value is not None:
        basic = format_basic(date.value)
        read_back = parse_date(basic)
        if read_back is not None and read_back.value == date.value:
            return basic
    return date.text


def data_key(version: DataVersion) -> str:
    """The ``meta.csv`` property of a data version: ``data-<version>-structure-<structure version>``."""
    return f"data-{version.version or date_text(version.created)}-structure-{version.structure_version}"


def structure_key(version: StructureVersion) -> str:
    return f"structure-{version.version or date_text(version.created)}"


def _subject(passport: Passport) -> str:
    return ",".join(passport.subject)


def _document(passport: Passport) -> dict:
    """The XML/JSON tree of Appendix 8, in ``meta-schema.xsd`` element order."""
    passport = described_by_newest(passport)
    return {
        "standardversion": passport.standard_version,
        "identifier": passport.identifier,
        "title": passport.title,
        "description": passport.description,
        "creator": passport.creator,
        "created": date_text(passport.created),
        "modified": date_text(passport.modified),
        "subject": _subject(passport),
        "format": passport.format,
        "data": [_data_version(version) for version in passport.data_versions],
        "structure": [_structure_version(version) for version in passport.structure_versions],
        "publisher": {
            "name": passport.publisher.name,
            "phone": passport.publisher.phone,
            "mbox": passport.publisher.mbox,
        },
    }


def _data_version(version: DataVersion) -> dict:
    return {
        "source": version.source,
        "created": date_text(version.created) or version.version,
        "provenance": version.provenance,
        "valid": date_text(version.valid),
        "structure": version.structure_version,
    }


def _structure_version(version: StructureVersion) -> dict:
    return {"source": version.source, "created": date_text(version.created) or version.version}


# XML element names of the repeated items inside the ``data`` and ``structure`` lists.
_XML_ITEM = {"data": "dataversion", "structure": "structureversion"}


def _xml_element(tag: str, value: object) -> etree._Element:
    element = etree.Element(tag)
    if isinstance(value, dict):
        element.extend(_xml_element(key, child) for key, child in value.items())
    elif isinstance(value, list):
        element.extend(_xml_element(_XML_ITEM[tag], child) for child in value)
    else:
        element.text = xml_text(str(value))
    return element
