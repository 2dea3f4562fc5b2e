"""Who owns each field of a record harvested from another LKOD, and how a re-harvest merges into it.

The same idea as ``mapping.DATASET_OWNERS`` for MR records, with the same owner words: the fields the DCAT-AP-CZ
mapping fills (the ``dcat_ap_cz`` profile's ``parse_dataset``) are the harvester's and every harvest writes them; the
dataset and distribution IRIs are the record's identity (kept by the ``passport_mr_identity`` guard on every other
edit path); any field not named here is the curator's and no harvest writes it. A field the source leaves out does
not erase what is stored (``mapping``'s rule for MR records too).
"""
from __future__ import annotations

import json
from typing import Any

from ckanext.passport import mapping
from ckanext.passport.mapping import HARVESTER, MR_IDENTITY

# The condition-of-use fields, on a dataset and on each distribution.
CONDITIONS = (
    "use_author_work",
    "use_author",
    "use_database_work",
    "use_database_author",
    "use_database_right",
    "use_personal_data",
)

DATASET_OWNERS: dict[str, str] = {
    "title": HARVESTER,
    "notes": HARVESTER,
    "tags": HARVESTER,
    "publisher_id_scheme": HARVESTER,
    "publisher_id": HARVESTER,
    "publisher_name": HARVESTER,
    "publisher_email": HARVESTER,
    "data_themes": HARVESTER,
    "accrual_periodicity": HARVESTER,
    "temporal_start": HARVESTER,
    "temporal_end": HARVESTER,
    "documentation_url": HARVESTER,
    "hvd_category": HARVESTER,
    "eurovoc": HARVESTER,
    "spatial_area": HARVESTER,
    "license_id": HARVESTER,
    **{name: HARVESTER for name in CONDITIONS},
    "resources": HARVESTER,
    "lkod_iri": MR_IDENTITY,
}

# Distributions are matched by their IRI (``lkod_iri``); a resource without one is the curator's own.
RESOURCE_OWNERS: dict[str, str] = {
    "url": HARVESTER,
    "name": HARVESTER,
    "description": HARVESTER,
    "format": HARVESTER,
    "mimetype": HARVESTER,
    "mimetype_inner": HARVESTER,
    "schema_urls": HARVESTER,
    "source_type": HARVESTER,
    **{name: HARVESTER for name in CONDITIONS},
    "lkod_iri": MR_IDENTITY,
}

_REHARVESTED = mapping.owned_by(DATASET_OWNERS, HARVESTER, MR_IDENTITY)
_RESOURCE_REHARVESTED = mapping.owned_by(RESOURCE_OWNERS, HARVESTER, MR_IDENTITY)


def harvested_part(dataset: dict[str, Any]) -> dict[str, Any]:
    """The fields of a parsed dataset a harvest writes (what the profile fills beyond them is dropped)."""
    part = {key: dataset[key] for key in _REHARVESTED if key in dataset and key != "resources"}
    part["resources"] = [
        {key: resource[key] for key in _RESOURCE_REHARVESTED if key in resource}
        for resource in dataset.get("resources") or []
    ]
    return part


def merge_harvested(existing: dict[str, Any], harvested: dict[str, Any]) -> dict[str, Any]:
    """The record to store on re-harvest: the harvester's fields from ``harvested``, every other field kept."""
    merged = mapping._overlay(existing, harvested, (key for key in _REHARVESTED if key != "resources"))
    merged["resources"] = merge_resources(existing.get("resources") or [], harvested.get("resources") or [])
    return merged


def merge_resources(stored: list[dict[str, Any]], harvested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The distributions in the source's order, each keeping its stored resource (id, the curator's fields) when
    their IRIs match; then the resources the curator added. A distribution the source no longer lists is dropped."""
    by_iri = {resource["lkod_iri"]: resource for resource in stored if resource.get("lkod_iri")}
    merged = [
        mapping._overlay(by_iri[resource["lkod_iri"]], resource, _RESOURCE_REHARVESTED)
        if resource.get("lkod_iri") in by_iri
        else dict(resource)
        for resource in harvested
    ]
    return merged + [resource for resource in stored if not resource.get("lkod_iri")]


def harvested_differs(existing: dict[str, Any], harvested: dict[str, Any]) -> bool:
    """Whether storing ``harvested`` would change anything a re-harvest writes."""
    return comparable(merge_harvested(existing, harvested)) != comparable(existing)


def comparable(dataset: dict[str, Any]) -> dict[str, Any]:
    """The facts a re-harvest writes, in a form two reads of the same facts compare equal in."""
    facts: dict[str, Any] = {}
    for key in _REHARVESTED:
        value = dataset.get(key)
        if key == "tags":
            facts[key] = sorted(t["name"] if isinstance(t, dict) else t for t in value or [])
        elif key == "resources":
            facts[key] = [{k: _fact(k, r.get(k)) for k in _RESOURCE_REHARVESTED} for r in value or []]
        else:
            facts[key] = _fact(key, value)
    return facts


def _fact(key: str, value: Any) -> str:
    if value in (None, "", []):
        return ""
    if not isinstance(value, str):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    # CKAN stores a resource format in its own spelling (``csv`` becomes ``CSV``).
    return value.casefold() if key == "format" else value
