"""The one ownership engine: who writes each field of a harvested record, for both record kinds.

An :class:`Ownership` is a record kind's owner tables together with everything that reads them: what a harvest
keeps of a parsed record (:meth:`Ownership.harvested_part`), how a re-harvest merges into the stored record
(:meth:`Ownership.merge_harvested`), whether it changes anything (:meth:`Ownership.harvested_differs`) and which
fields the edit guard keeps (:meth:`Ownership.fields` of :data:`MR_IDENTITY`, the rule
:meth:`Ownership.edit_writes_identity`). Its two instances are :data:`MR` (here) and ``lkod.ownership.LKOD``;
where MR and LKOD differ, the difference is a named parameter (docs/catalog-record.md lists each one's values).
A field no table names is the curator's: no harvest ever writes it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Optional

HARVESTER = "harvester"  # every harvest writes it; a curator may edit it in between (the next harvest wins)
MR_IDENTITY = "mr_identity"  # every harvest writes it; any other edit path keeps the stored value
FIRST_HARVEST = "first_harvest"  # the first harvest fills it; from then on it is the curator's

# What a re-harvest writes: FIRST_HARVEST fields and the curator's are written only when the record is created.
REHARVESTED = (HARVESTER, MR_IDENTITY)
# Lists of keywords, compared as sets (``Ownership.comparable``).
UNORDERED = frozenset({"tags", "keywords_en"})


@dataclass(frozen=True)
class Ownership:
    """One record kind's ownership: its owner tables and the rules that differ between kinds.

    ``dataset_owners`` / ``resource_owners``: field → owner word (:data:`HARVESTER`, :data:`MR_IDENTITY`,
    :data:`FIRST_HARVEST`), in the order comparisons list them; ``"resources"`` in the dataset table makes the
    resources harvested.

    ``resource_key``: what matches a harvested resource to the stored one it re-harvests (the stored one keeps its
    id and the curator's fields). ``None`` matches nothing: a stored resource without a key is one the curator
    added and is always kept; a stored one with a key that no harvested resource matches is dropped.

    ``empty_harvested_value_keeps_curator_text``: whether a re-harvested field the source leaves empty (``""``,
    ``None``, ``[]``) keeps a non-empty stored value instead of clearing it.
    """

    kind: str
    dataset_owners: Mapping[str, str]
    resource_owners: Mapping[str, str]
    resource_key: Callable[[dict[str, Any]], Optional[Hashable]]
    empty_harvested_value_keeps_curator_text: bool

    def fields(self, table: Mapping[str, str], *owners: str) -> tuple[str, ...]:
        """The fields of ``table`` (this kind's dataset or resource owners) one of ``owners`` holds, in order."""
        return tuple(name for name, owner in table.items() if owner in owners)

    @staticmethod
    def edit_writes_identity(*, harvesting: bool, sent_by_sysadmin: bool) -> bool:
        """Whether an edit writes an :data:`MR_IDENTITY` field: only a harvest, or a sysadmin's explicit value.

        Anyone else's edit keeps the stored value, whatever it sends: the exports and permanent links (MR) and the
        record's provenance (LKOD) are built from it, and the forms do not carry it.
        """
        return harvesting or sent_by_sysadmin

    def harvested_part(self, dataset: dict[str, Any]) -> dict[str, Any]:
        """The fields of a parsed record any harvest writes; anything else a parser adds is dropped."""
        part = {key: dataset[key] for key in self.dataset_owners if key != "resources" and key in dataset}
        part["resources"] = [
            {key: resource[key] for key in self.resource_owners if key in resource}
            for resource in dataset.get("resources") or []
        ]
        return part

    def merge_harvested(self, existing: dict[str, Any], harvested: dict[str, Any]) -> dict[str, Any]:
        """The record to store on re-harvest: the re-harvested fields from ``harvested``, every other field kept.

        Resources are merged one by one (:meth:`merge_resources`).
        """
        keys = (key for key in self.fields(self.dataset_owners, *REHARVESTED) if key != "resources")
        merged = self._overlay(existing, harvested, keys)
        merged["resources"] = self.merge_resources(existing.get("resources") or [], harvested.get("resources") or [])
        return merged

    def merge_resources(self, stored: list[dict[str, Any]], harvested: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The resources in the source's order, then the ones the curator added.

        A harvested resource takes the first unmatched stored one of its key: it keeps the stored id and every
        field the curator owns, and takes the re-harvested fields. A new one is added as harvested.
        """
        unmatched = [resource for resource in stored if self.resource_key(resource) is not None]
        keys = self.fields(self.resource_owners, *REHARVESTED)
        merged: list[dict[str, Any]] = []
        for resource in harvested:
            key = self.resource_key(resource)
            index = next((i for i, old in enumerate(unmatched) if key is not None and self.resource_key(old) == key),
                         None)
            merged.append(dict(resource) if index is None else self._overlay(unmatched.pop(index), resource, keys))
        return merged + [resource for resource in stored if self.resource_key(resource) is None]

    def _overlay(self, stored: dict[str, Any], harvested: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
        merged = dict(stored)
        for key in keys:
            if key not in harvested:
                continue
            value = harvested[key]
            if self.empty_harvested_value_keeps_curator_text and _empty(value) and not _empty(stored.get(key)):
                continue
            merged[key] = value
        return merged

    def harvested_differs(self, existing: dict[str, Any], harvested: dict[str, Any]) -> bool:
        """Whether storing ``harvested`` would change anything a re-harvest writes."""
        return self.comparable(self.merge_harvested(existing, harvested)) != self.comparable(existing)

    def comparable(self, dataset: dict[str, Any]) -> dict[str, Any]:
        """The facts a re-harvest writes, in a form two reads of the same facts compare equal in (:func:`fact`).

        Tags compare as a set of names: CKAN returns them in its own order, as dicts. Keywords in English
        (``keywords_en``) likewise: an RDF graph keeps no order of a dataset's keywords.
        """
        resource_keys = self.fields(self.resource_owners, *REHARVESTED)
        facts: dict[str, Any] = {}
        for key in self.fields(self.dataset_owners, *REHARVESTED):
            value = dataset.get(key)
            if key in UNORDERED:
                facts[key] = sorted(t["name"] if isinstance(t, dict) else t for t in value or [])
            elif key == "resources":
                facts[key] = [{k: fact(k, r.get(k)) for k in resource_keys} for r in value or []]
            else:
                facts[key] = fact(key, value)
        return facts


def fact(key: str, value: Any) -> str:
    """One value as compared, the same rule for both kinds: empty as ``""``, text as is, anything else as sorted
    JSON (an extra CKAN returns as text compares equal to the number a parser gave)."""
    if _empty(value):
        return ""
    if not isinstance(value, str):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    # CKAN stores a resource format in its own spelling (``csv`` becomes ``CSV``).
    return value.casefold() if key == "format" else value


def _empty(value: Any) -> bool:
    return value in ("", None, [])


# Resources an MR harvest made are the passport's versions.
VERSION_TYPES = ("data", "structure")


def version_key(resource: dict[str, Any]) -> Optional[tuple[str, str]]:
    """An MR resource's version, ``None`` for a resource the curator added."""
    if resource.get("resource_type") not in VERSION_TYPES:
        return None
    return (resource["resource_type"], (resource.get("mr_version") or "").strip())


MR = Ownership(
    kind="MR",
    dataset_owners={
        "title": HARVESTER,
        "notes": HARVESTER,
        "maintainer": HARVESTER,
        "maintainer_email": HARVESTER,
        "tags": HARVESTER,
        "resources": HARVESTER,
        "mr_identifier": MR_IDENTITY,
        "mr_standard_version": MR_IDENTITY,
        "mr_conformance": MR_IDENTITY,
        "mr_publisher_phone": MR_IDENTITY,
        "mr_created": MR_IDENTITY,
        "mr_modified": MR_IDENTITY,
        "mr_valid": MR_IDENTITY,
        "mr_format": MR_IDENTITY,
        "mr_provenance": MR_IDENTITY,
        "mr_periodicity": MR_IDENTITY,
        # The publisher is seeded from the passport (an INN), then the curator's: a Czech record needs its IČO.
        "publisher_id": FIRST_HARVEST,
        "publisher_id_scheme": FIRST_HARVEST,
        "publisher_name": FIRST_HARVEST,
        "record_language": FIRST_HARVEST,
        # The EU frequency read from the passport's periodicity text where it is recognisable; then the curator's.
        "accrual_periodicity": FIRST_HARVEST,
    },
    # Every other field of a version (description, language, mimetype, schema_urls, …) is the curator's.
    resource_owners={
        "url": HARVESTER,
        "name": HARVESTER,
        "format": HARVESTER,
        "resource_type": MR_IDENTITY,
        "mr_version": MR_IDENTITY,
        "mr_structure_version": MR_IDENTITY,
        "mr_created": MR_IDENTITY,
        "mr_provenance": MR_IDENTITY,
        "mr_valid": MR_IDENTITY,
        "mr_fields": MR_IDENTITY,
    },
    resource_key=version_key,
    # Passports often leave a field out that a curator then fills: a gap in the source is no news.
    empty_harvested_value_keeps_curator_text=True,
)
