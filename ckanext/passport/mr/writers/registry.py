"""Registry writers: MR 3.0 ``list.csv`` / ``list.xml`` / ``list.json`` and MR 2.3 ``opendatalist.csv``.

Each form has a streaming writer over any iterable of entries (``iter_*``: a web endpoint serves a registry
of any size with constant memory) and a whole-document writer built on it that returns UTF-8 bytes.
"""
from __future__ import annotations

import json
import re
from itertools import chain
from typing import Callable, Iterable, Iterator

from lxml import etree

from ..forms import TRAITS, Form, forms
from ..model import STANDARD_3_0, Registry, RegistryEntry
from .text import csv_lines, xml_text

LIST_CSV_HEADER = ("property", "title", "value", "format")
STANDARD_VERSION_TITLE = "Версия методических рекомендаций"
# MR 2.3 asks for number, title and passport link; identifier and format follow so that readers which take
# the first plain text after the number as the title still do.
OPENDATALIST_HEADER = ("№", "Наименование набора данных", "Ссылка на паспорт", "Идентификатор", "Формат")

# MR 2.3 forbids ";" and line breaks inside opendatalist.csv fields: a run of white space holding a line break
# becomes one space. The run is read from its start only (never from inside it), so a long run of spaces
# without a line break is read once.
_MR23_FORBIDDEN = re.compile(r"(?<!\s)(?:[^\S\r\n]*+[\r\n])++\s*+|;")


def iter_list_csv(entries: Iterable[RegistryEntry], standard_version: str = STANDARD_3_0) -> Iterator[str]:
    head = [LIST_CSV_HEADER, ("standardversion", STANDARD_VERSION_TITLE, standard_version, "")]
    yield from csv_lines(chain(head, map(_entry_row, entries)))


def iter_opendatalist_csv(entries: Iterable[RegistryEntry], standard_version: str = "") -> Iterator[str]:
    """MR 2.3 has no standard-version row; the parameter only keeps the ``iter_*`` signatures alike."""
    rows = (
        (str(number), entry.title, entry.link, entry.identifier, entry.format)
        for number, entry in enumerate(entries, start=1)
    )
    cleaned = ([_mr23_field(field) for field in row] for row in rows)
    yield from csv_lines(chain([OPENDATALIST_HEADER], cleaned), delimiter=";")


def iter_list_json(entries: Iterable[RegistryEntry], standard_version: str = STANDARD_3_0) -> Iterator[str]:
    yield '{\n  "standardversion": ' + _json(standard_version) + ',\n  "meta": ['
    separator = "\n    "
    for entry in entries:
        item = {"identifier": entry.identifier, "title": entry.title, "link": entry.link, "format": entry.format}
        yield separator + _json(item)
        separator = ",\n    "
    yield "\n  ]\n}\n"


def iter_list_xml(entries: Iterable[RegistryEntry], standard_version: str = STANDARD_3_0) -> Iterator[bytes]:
    sink = _Chunks()
    with etree.xmlfile(sink, encoding="utf-8") as xf:
        xf.write_declaration()
        with xf.element("list"):
            xf.write("\n  ")
            xf.write(_leaf("standardversion", standard_version))
            xf.write("\n  ")
            with xf.element("meta"):
                for entry in entries:
                    xf.write("\n    ")
                    xf.write(_item(entry))
                    xf.flush()
                    yield sink.drain()
                xf.write("\n  ")
            xf.write("\n")
    sink.write(b"\n")
    yield sink.drain()


def list_csv(registry: Registry) -> bytes:
    return _document(iter_list_csv, registry)


def opendatalist_csv(registry: Registry) -> bytes:
    return _document(iter_opendatalist_csv, registry)


def list_json(registry: Registry) -> bytes:
    return _document(iter_list_json, registry)


def list_xml(registry: Registry) -> bytes:
    return _document(iter_list_xml, registry)


# The forms table names each published registry form's writer among this module's functions.
STREAMS: dict[Form, Callable[[Iterable[RegistryEntry], str], Iterator]] = {
    form: globals()[TRAITS[form].writer] for form in forms(registry_reader=True, writer=True)
}


def write_registry(registry: Registry, form: str) -> bytes:
    """The registry in ``form`` (one of :data:`STREAMS`), as UTF-8 bytes."""
    return _document(STREAMS[form], registry)


def _document(stream: Callable[[Iterable[RegistryEntry], str], Iterator], registry: Registry) -> bytes:
    version = registry.standard_version or STANDARD_3_0
    return b"".join(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8")
                    for chunk in stream(registry.entries, version))


def _entry_row(entry: RegistryEntry) -> tuple[str, str, str, str]:
    return (entry.identifier, entry.title, entry.link, entry.format)


def _mr23_field(value: str) -> str:
    return _MR23_FORBIDDEN.sub(lambda match: "," if match.group() == ";" else " ", value)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _leaf(tag: str, text: str) -> etree._Element:
    element = etree.Element(tag)
    element.text = xml_text(text)
    return element


def _item(entry: RegistryEntry) -> etree._Element:
    item = etree.Element("item")
    for tag, text in zip(("identifier", "title", "link", "format"), _entry_row(entry)):
        item.append(_leaf(tag, text))
    etree.indent(item, space="  ", level=2)
    return item


class _Chunks:
    """A write-only file for ``lxml.etree.xmlfile`` whose content is taken out after each item."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self._parts.append(data)

    def drain(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data
