"""The conditions of use of a record (the Czech "podmínky užití"): the one rule of which value holds.

Each of the six ``use_*`` fields is stated on the dataset and may be overridden on a resource (a distribution).
Where neither states it, the dataset's licence decides it when it can: CC BY 4.0 licenses the author work and
the database as an author work, CC0 waives the database maker's special right, the Czech "bez podmínek užití"
says none of the three holds. What no licence decides (personal data, for one) stays undecided (``""``). The DCAT-AP-CZ profile, the ``/lkod/`` views, the form and the record
page all read the values through :func:`effective_conditions`; this module imports nothing from CKAN.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

AUTHOR_WORK = "use_author_work"
AUTHOR = "use_author"
DATABASE_WORK = "use_database_work"
DATABASE_AUTHOR = "use_database_author"
DATABASE_RIGHT = "use_database_right"
PERSONAL_DATA = "use_personal_data"
FIELDS = (AUTHOR_WORK, AUTHOR, DATABASE_WORK, DATABASE_AUTHOR, DATABASE_RIGHT, PERSONAL_DATA)

CC_BY_4 = "cc-by-4.0"
CC0 = "cc0"
# The allowed values of each choice field (the schema's choices; the profile maps each to its IRI).
CHOICES: dict[str, tuple[str, ...]] = {
    AUTHOR_WORK: ("no-copyright-work", CC_BY_4),
    DATABASE_WORK: ("not-copyright-database", CC_BY_4),
    DATABASE_RIGHT: ("not-protected", CC0),
    PERSONAL_DATA: ("no-personal-data", "contains-personal-data", "unspecified"),
}
# A work licensed under CC BY 4.0 names its author: the name field of each licensed part.
AUTHOR_OF = {AUTHOR_WORK: AUTHOR, DATABASE_WORK: DATABASE_AUTHOR}

# CKAN's licence ids (ckan/model/license.py: "cc-by" is CC BY 4.0 in its register, "cc-zero" CC0 1.0) and the
# Open Definition ids a site's own licence list (``licenses_group_url``) may use for the same licences.
_CC_BY_IDS = frozenset({"cc-by", "cc-by-4.0"})
_CC0_IDS = frozenset({"cc-zero", "cc0-1.0"})
# The Czech "bez podmínek užití" of the shipped list (catalog/vocabularies/licences.json): no author work, no
# database as an author work, no special right of the database maker. Whether it holds personal data is no
# licence's to say.
NO_CONDITIONS_ID = "cz-no-conditions"


def licence_defaults(license_id: Optional[str]) -> dict[str, str]:
    """The conditions the licence decides, by field (only those it decides; author names are not the licence's)."""
    key = (license_id or "").strip().lower()
    if key in _CC_BY_IDS:
        return {AUTHOR_WORK: CC_BY_4, DATABASE_WORK: CC_BY_4}
    if key in _CC0_IDS:
        return {DATABASE_RIGHT: CC0}
    if key == NO_CONDITIONS_ID:
        return {AUTHOR_WORK: "no-copyright-work", DATABASE_WORK: "not-copyright-database",
                DATABASE_RIGHT: "not-protected"}
    return {}


def _stated(record: Optional[Mapping[str, Any]], name: str) -> str:
    value = (record or {}).get(name)
    return value.strip() if isinstance(value, str) else ""


def effective_conditions(dataset: Mapping[str, Any], resource: Optional[Mapping[str, Any]] = None) -> dict[str, str]:
    """The six ``use_*`` values that hold for ``resource`` of ``dataset`` (or for the dataset itself).

    Each is the resource's own value, else the dataset's, else the licence's, else ``""``. The author of a part
    licensed under CC BY 4.0 is the one stated, else the record's provider (``publisher_name``).
    """
    derived = licence_defaults(dataset.get("license_id"))
    values = {
        name: _stated(resource, name) or _stated(dataset, name) or derived.get(name, "") for name in FIELDS
    }
    for work, author in AUTHOR_OF.items():
        if values[work] == CC_BY_4 and not values[author]:
            values[author] = _stated(dataset, "publisher_name")
    return values


def derived_fields(dataset: Mapping[str, Any], resource: Optional[Mapping[str, Any]] = None) -> frozenset[str]:
    """The fields whose effective value nobody stated: taken from the licence or the provider's name."""
    return frozenset(
        name for name, value in effective_conditions(dataset, resource).items()
        if value and not _stated(resource, name) and not _stated(dataset, name)
    )
