"""Passports in every MR form: which form a publication is, where a passport lives, and reading it.

Forms (``ParseResult.form``, stable names that harvest records and reports keep):

- ``rdfa``: the dataset page;
- ``html-table``: the dataset page without an RDFa passport, read from its table of characteristics (with the
  finding ``passport.rdfa_missing``);
- ``meta.csv``: MR 3.0 ``property,value`` rows;
- ``mr23.csv``: MR 2.x three-column CSV;
- ``meta.xml`` and ``meta.json``: MR 3.0 files;
- ``registry-entry``: no passport was read; :func:`passport_from_entry` made one from the registry entry
  that links a data file.

The content decides the form; the URL only when the content cannot (MR 2.x passports are published as
``meta.csv`` too, RDFa pages as ``index.php``).
"""
from __future__ import annotations

import re
from dataclasses import fields, replace
from importlib import import_module
from types import ModuleType
from typing import Optional
from urllib.parse import urlunsplit

from .. import urls
from ..fields import (
    file_format,
    identifier_from_link,
    is_data_file_name,
    is_passport_file_name,
    last_segment,
    resolve,
    version_names,
)
from ..forms import TRAITS, Form, forms
from ..guarded import never_raising
from ..limits import DEFAULT_LIMITS, ReadLimits, too_large
from ..model import DataVersion, ParseResult, Passport, RegistryEntry
from ..problems import problem
from ..rdfagraph import read_page
from ..registry.rdfa import registry_subject
from ..sniff import sniff
from . import html_table, rdfa

# Each form's reader: a module whose ``parse(data, url)`` reads it (the forms table names it).
FORMS: dict[Form, ModuleType] = {
    form: import_module(f"{__name__}.{TRAITS[form].passport_reader}") for form in forms(passport_reader=True)
}
# MR 3.0 machine-readable files, in the table's preference order; the page comes after them (needs pyRdfa, and is
# often decorative).
MR30_FILES = forms(fixed_file=True)


_DATA_EXTENSIONS = frozenset({
    "zip", "rar", "7z", "gz", "bz2", "xz", "tar", "xls", "xlsx", "ods", "geojson", "kml", "kmz", "shp",
    "dbf", "pdf", "doc", "docx", "rtf", "txt",
})
_MR23_HEADER = re.compile(r"^(?:№|n|no|\d+[;,\t])|характеристик", re.I)
_MR30_CSV_START = ("property", "standardversion", "identifier")


def detect_passport_form(data: bytes, url: str = "", content_type: str = "") -> Optional[Form]:
    sniffed = sniff(data)
    if sniffed.kind == "empty":
        return None
    if sniffed.kind == "json":
        return Form.META_JSON
    if sniffed.kind == "html":
        return Form.RDFA
    if sniffed.kind == "xml":
        return Form.META_XML if sniffed.root == "meta" else None
    if "html" in content_type.lower():
        return Form.RDFA
    name = last_segment(url).lower()
    if name in (Form.META_JSON, Form.META_XML):
        return Form(name)
    if sniffed.first_line.startswith(_MR30_CSV_START):
        return Form.META_CSV
    if _MR23_HEADER.search(sniffed.first_line):
        return Form.MR23_CSV
    return Form.META_CSV


def parse_passport(data: bytes, url: str = "", form: Optional[str] = None,
                   limits: ReadLimits = DEFAULT_LIMITS) -> ParseResult[Passport]:
    """The passport in ``data``, read as ``form`` or, without one, as its content says; never raises.

    A page (detected, not asked for as ``rdfa``) is read for RDFa first, then for its table of characteristics.
    A passport larger than its form's cap in ``limits`` is refused unread (``fetch.too_large``).
    """
    return never_raising(lambda: _parse_passport(data, url, form, limits),
                         lambda error: problem("passport.unreadable", url=url or None, error=error), url, form or "")


def _parse_passport(data: bytes, url: str, form: Optional[str], limits: ReadLimits) -> ParseResult[Passport]:
    if not data.strip():
        return ParseResult(None, [problem("passport.empty", url=url or None)], form=form or "")
    # A page the content names is read for RDFa, then for its table; one asked for as ``rdfa`` for RDFa only.
    page = False
    if form is None:
        form = detect_passport_form(data, url)
        page = form == Form.RDFA
    refused = too_large(len(data), limits.passport_limit(form or ""), url)
    if refused is not None:
        return ParseResult(None, [refused], form=form or "")
    if page:
        return read_page_passport(data, url)
    if form not in FORMS:
        return ParseResult(None, [problem("passport.unknown_form", url=url or None)], form=form or "")
    return FORMS[form].parse(data, url)


def read_page_passport(data: bytes, url: str = "") -> ParseResult[Passport]:
    """A dataset page: its RDFa passport, else the passport its table of characteristics states.

    A page holding an RDFa registry is the ``/opendata/`` list, never a passport, whatever its tables say;
    a page whose tables name no passport keeps the RDFa reader's answer (``rdfa.not_found``). An RDFa passport
    that links no data file (a page marking up its simple fields but not its versions) is completed from the
    page's table when the table links some.
    """
    page = read_page(data, url)
    read = rdfa.from_page(page, url)
    if (read.value is not None and read.value.data_versions) or (
            read.value is None and registry_subject(page.graph, url) is not None):
        return read
    table = html_table.from_page(page, data, url, rdfa_passport=read.value is not None)
    if table.value is None:
        return read
    if read.value is not None:
        if not table.value.data_versions:
            return read
        incomplete = problem("passport.rdfa_incomplete", url=url or None)
        return ParseResult(_completed(read.value, table.value), read.problems + [incomplete], form=read.form,
                           encoding=read.encoding)
    return table


def _completed(stated: Passport, table: Passport) -> Passport:
    """The RDFa passport with what it leaves empty taken from the page's table (the RDFa wins where it speaks)."""
    values = {
        item.name: getattr(stated, item.name) or getattr(table, item.name)
        for item in fields(Passport) if item.name != "publisher"
    }
    publisher = replace(stated.publisher, **{
        item.name: getattr(stated.publisher, item.name) or getattr(table.publisher, item.name)
        for item in fields(stated.publisher)
    })
    return Passport(**values, publisher=publisher)


def passport_locations(link: str) -> list[tuple[Form, str]]:
    """Where the passport beside a registry link may be, as ``(expected form, URL)`` in preference order.

    The form is what MR puts there; the content still decides (``parse_passport(form=None)``), since MR 2.x
    sites publish ``meta.csv`` files in the 2.x layout. Data-file links have no passport: see
    :func:`passport_from_entry`.
    """
    link = link.strip()
    if not link or looks_like_data_file(link):
        return []
    name = last_segment(link)
    if is_passport_file_name(link):
        folder = urls.join(link, "./")
        linked = (Form(name.lower()), link)
        return [linked] + [(form, urls.join(folder, form)) for form in MR30_FILES if form != name.lower()] + [
            (Form.RDFA, folder)
        ]
    extension = file_format(link)
    if extension == "csv":
        # MR 2.3's file passport, named after the dataset: <site>/opendata/<id>.csv
        return [(Form.MR23_CSV, link), (Form.RDFA, _without_extension(link))]
    if extension in ("xml", "json") and name.lower() != f"meta.{extension}":
        return [(Form.RDFA, _without_extension(link))]
    folder = _as_folder(link)
    files = [(form, urls.join(folder, form)) for form in MR30_FILES]
    parts = urls.split(link)
    if parts is None or parts.path.endswith("/"):
        return files + [(Form.RDFA, link)]
    # MR 2.3 links name the dataset page; its file passport sits beside it as <page>.csv or inside it.
    return [(Form.RDFA, link)] + files + [(Form.MR23_CSV, _with_path_suffix(link, ".csv"))]


def looks_like_data_file(link: str, format: str = "") -> bool:
    """True for links at data rather than passports: ``data-…-structure-…`` files and archives/documents."""
    if not link.strip() or is_passport_file_name(link):
        return False
    if is_data_file_name(link):
        return True
    extension = file_format(link)
    return extension in _DATA_EXTENSIONS or (bool(format) and extension == format.strip().lower()
                                             and extension not in ("csv", "xml", "json", "html", "htm", "php"))


def passport_from_entry(entry: RegistryEntry, url: str = "") -> ParseResult[Passport]:
    """A minimal passport for a registry entry that links a data file (fedstat does): one version, no guesses."""
    link = resolve(entry.link, url)
    version, structure = version_names(link)
    data_version = DataVersion(
        source=link,
        version=version,
        structure_version=structure,
        format=file_format(link) or entry.format.lower(),
    )
    passport = Passport(
        identifier=entry.identifier or identifier_from_link(link),
        title=entry.title,
        format=entry.format.lower() or data_version.format,
        data_versions=[data_version],
    )
    return ParseResult(passport, [problem("passport.link_is_data_file", url=link, element=entry.identifier or None)],
                       form=Form.REGISTRY_ENTRY)


def _as_folder(link: str) -> str:
    parts = urls.split(link)
    if parts is None:
        return link
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit(parts._replace(path=path, query="", fragment=""))


def _with_path_suffix(link: str, suffix: str) -> str:
    parts = urls.split(link)
    if parts is None:
        return link
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + suffix, query="", fragment=""))


def _without_extension(link: str) -> str:
    parts = urls.split(link)
    if parts is None:
        return link
    path = parts.path
    return urlunsplit(parts._replace(path=path[: path.rfind(".")] if "." in path.rsplit("/", 1)[-1] else path))
