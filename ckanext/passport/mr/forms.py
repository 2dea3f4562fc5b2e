"""The MR publication forms, and the one table of what each form is and may do.

A form's name is what a parse gives what it read (``ParseResult.form``). Harvest objects, reports and exports keep
these names as text, so a value never changes. Where MR names a file after its form (``meta.json``, ``list.csv``…)
the value is that file's name too.

Every capability of a form is a column of :data:`TRAITS`; readers, writers, the harvest source's choices, the
published files, the byte budgets and the downloads all ask :func:`forms` instead of keeping lists of their own. A new
form is one reader module and one row here.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum


class Form(str, Enum):
    """A form of a passport or of a registry; each member is its name as text (``Form.META_CSV == "meta.csv"``)."""

    RDFA = "rdfa"
    """A page: the dataset's with its RDFa passport, or ``/opendata/`` with the RDFa registry."""
    HTML_TABLE = "html-table"
    """A dataset page without an RDFa passport, read from its table of characteristics."""
    META_CSV = "meta.csv"
    MR23_CSV = "mr23.csv"
    """MR 2.x's three-column CSV passport."""
    META_XML = "meta.xml"
    META_JSON = "meta.json"
    REGISTRY_ENTRY = "registry-entry"
    """No passport was read: one was made from the registry entry that links a data file."""
    LIST_CSV = "list.csv"
    OPENDATALIST_CSV = "opendatalist.csv"
    LIST_XML = "list.xml"
    LIST_JSON = "list.json"

    def __str__(self) -> str:
        # As StrEnum (Python 3.11) would, for 3.10: text, f-strings and CSV cells carry the name stored today.
        return self.value


@dataclass(frozen=True)
class Traits:
    """What a form is and what the project does with it. Every flag defaults to "no"."""

    passport_reader: str = ""
    """The module of ``mr.passport`` whose ``parse(data, url)`` reads a passport in this form."""
    registry_reader: str = ""
    """The module of ``mr.registry`` whose ``parse(data, url)`` reads a registry in this form."""
    writer: str = ""
    """The function of ``mr.writers.passport`` or ``mr.writers.registry`` that writes it: the portal publishes it."""
    media_type: str = ""
    """What a file in this form is served and downloaded as."""
    page: bool = False
    """An HTML page, read within the page byte budget."""
    fixed_file: bool = False
    """MR 3.0's machine-readable passport file at a fixed name in the dataset's folder: probed, and corrected."""
    source_may_ask: bool = False
    """A harvest source may list it among the passport forms it reads (its ``formats``)."""
    undeclared_encoding: bool = False
    """A text file with no declared encoding: a source's ``encoding`` applies to it."""


# Rows in preference order: the MR 3.0 files first (exact), then MR 2.3's, then pages, which need pyRdfa and are
# often decorative; registries in the order the portal lists its own.
TRAITS: dict[Form, Traits] = {
    Form.META_JSON: Traits(passport_reader="meta_json", writer="meta_json", media_type="application/json; charset=utf-8",
                           fixed_file=True, source_may_ask=True),
    Form.META_XML: Traits(passport_reader="meta_xml", writer="meta_xml", media_type="application/xml; charset=utf-8",
                          fixed_file=True, source_may_ask=True),
    Form.META_CSV: Traits(passport_reader="meta_csv", writer="meta_csv", media_type="text/csv; charset=utf-8",
                          fixed_file=True, source_may_ask=True, undeclared_encoding=True),
    Form.MR23_CSV: Traits(passport_reader="mr23_csv", media_type="text/csv; charset=utf-8", source_may_ask=True,
                          undeclared_encoding=True),
    Form.RDFA: Traits(passport_reader="rdfa", registry_reader="rdfa", media_type="text/html; charset=utf-8", page=True,
                      source_may_ask=True),
    Form.HTML_TABLE: Traits(passport_reader="html_table", media_type="text/html; charset=utf-8", page=True),
    Form.REGISTRY_ENTRY: Traits(),
    Form.LIST_CSV: Traits(registry_reader="csv_list", writer="iter_list_csv", media_type="text/csv; charset=utf-8"),
    Form.LIST_XML: Traits(registry_reader="list_xml", writer="iter_list_xml", media_type="application/xml; charset=utf-8"),
    Form.LIST_JSON: Traits(registry_reader="list_json", writer="iter_list_json", media_type="application/json; charset=utf-8"),
    Form.OPENDATALIST_CSV: Traits(registry_reader="csv_opendatalist", writer="iter_opendatalist_csv",
                                  media_type="text/csv; charset=utf-8"),
}
_FLAGS = {field.name for field in fields(Traits)}


def forms(**wanted: object) -> tuple[Form, ...]:
    """The forms, in the table's order, whose traits are as ``wanted``; a text trait is wanted as ``True`` when it
    is set (``forms(passport_reader=True, writer=True)``: the passport forms the portal publishes)."""
    unknown = set(wanted) - _FLAGS
    if unknown:
        raise TypeError(f"no trait {', '.join(sorted(unknown))}")
    return tuple(form for form, traits in TRAITS.items()
                 if all(bool(getattr(traits, name)) == bool(value) for name, value in wanted.items()))
