"""The one list of MR publication forms: the names a parse gives what it read (``ParseResult.form``).

Harvest objects, reports and exports keep these names as text, so a value never changes. Where MR names a file
after its form (``meta.json``, ``list.csv``…) the value is that file's name too.
"""
from __future__ import annotations

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
