"""A new record's name, free among the portal's: ckanext-harvest's rule, asked of the package table by exact names.

ckanext-harvest's ``HarvesterBase._ensure_name_is_unique`` lists every name that starts like the ideal one with an
``ILIKE``, which no index of ``package`` can answer: every record a harvest created read the whole table, 12.5 ms a
record in a portal of 20,000 records and 34 ms at 50,000 (bench/bench_portal_scale.py). Both source types use this
instead (``_gen_new_name``, ckanext-dcat's included, calls it through the class). The rule is theirs: the ideal name
if it is free, else the record's existing name when that already extends the ideal one, else the ideal name with the
first free number of 1 to 999 (``number-sequence``), or five random hex digits (``random-hex``). CKAN keeps names in
lower case, so names compared exactly are the names ``ILIKE`` found.
"""
from __future__ import annotations

import uuid
from typing import Iterable, Optional

import ckan.model as model
from ckan.model.package import PACKAGE_NAME_MAX_LENGTH

NUMBERS = range(1, 1000)
HEX_DIGITS = 5


def _taken(names: Iterable[str], existing_name: Optional[str]) -> set[str]:
    # Exact names, so the package name's unique index answers, whatever the portal's size.
    found = model.Session.query(model.Package.name).filter(model.Package.name.in_(list(names)))
    return {name for (name,) in found} - {existing_name}


def unique_name(ideal_name: str, existing_name: Optional[str] = None,
                append_type: str = "number-sequence") -> Optional[str]:
    """The name a record gets, or None when every numbered name is taken (ckanext-harvest's answer too)."""
    ideal = ideal_name[:PACKAGE_NAME_MAX_LENGTH]
    if existing_name == ideal:
        return ideal
    if append_type not in ("number-sequence", "random-hex"):
        raise NotImplementedError(f"append_type cannot be {append_type}")
    if not _taken([ideal], existing_name):
        return ideal
    if existing_name and existing_name.startswith(ideal):
        return existing_name
    if append_type == "random-hex":
        return ideal[:PACKAGE_NAME_MAX_LENGTH - HEX_DIGITS] + uuid.uuid4().hex[:HEX_DIGITS]
    numbered = [ideal[:PACKAGE_NAME_MAX_LENGTH - len(str(number))] + str(number) for number in NUMBERS]
    taken = _taken(numbered, existing_name)
    return next((name for name in numbered if name not in taken), None)
