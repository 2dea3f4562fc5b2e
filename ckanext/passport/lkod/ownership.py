"""Who owns each field of a record harvested from another LKOD, and how a re-harvest merges into it.

The same idea as ``mapping.DATASET_OWNERS`` for MR records, with the same owner words. The fields the DCAT-AP-CZ
mapping fills (``graph_in.DATASET_FIELDS`` / ``RESOURCE_FIELDS``, what the ``dcat_ap_cz`` profile's
``parse_dataset`` returns) are the harvester's: every harvest writes them as the source states them, an empty one
included, so the record says what the other catalog says. The dataset and distribution IRIs (``lkod_iri``) are the
record's identity, kept by the ``passport_mr_identity`` guard on every other edit path. Any other field is the
curator's: no harvest writes it, and a resource without an IRI is one the curator added.
"""
from __future__ import annotations

import json
from typing import Any

from ckanext.passport.lkod.graph_in import DATASET_FIELDS, RESOURCE_FIELDS
from ckanext.passport.harvest.mapping import HARVESTER, MR_IDENTITY

IRI_FIELD = "lkod_iri"

DATASET_OWNERS: dict[str, str] = {name: MR_IDENTITY if name == IRI_FIELD else HARVESTER for name in DATASET_FIELDS}
RESOURCE_OWNERS: dict[str, str] = {name: MR_IDENTITY if name == IRI_FIELD else HARVESTER for name in RESOURCE_FIELDS}

_DATASET_KEYS = tuple(name for name in DATASET_OWNERS if name != "resources")


def harvested_part(dataset: dict[str, Any]) -> dict[str, Any]:
    """The fields of a parsed dataset a harvest writes (anything else a profile adds is dropped)."""
    part = {key: dataset[key] for key in _DATASET_KEYS if key in dataset}
    part["resources"] = [
        {key: resource[key] for key in RESOURCE_OWNERS if key in resource} for resource in dataset.get("resources") or []
    ]
    return part


def merge_harvested(existing: dict[str, Any], harvested: dict[str, Any]) -> dict[str, Any]:
    """The record to store on re-harvest: the harvester's fields from ``harvested``, every other field kept."""
    merged = dict(existing, **{key: harvested[key] for key in _DATASET_KEYS if key in harvested})
    merged["resources"] = merge_resources(existing.get("resources") or [], harvested.get("resources") or [])
    return merged


def merge_resources(stored: list[dict[str, Any]], harvested: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The distributions in the source's order, each keeping its stored resource (id, the curator's fields) when
    their IRIs match; then the resources the curator added. A distribution the source no longer lists is dropped."""
    by_iri = {resource[IRI_FIELD]: resource for resource in stored if resource.get(IRI_FIELD)}
    merged = [dict(by_iri.get(resource.get(IRI_FIELD) or "", {}), **resource) for resource in harvested]
    return merged + [resource for resource in stored if not resource.get(IRI_FIELD)]


def harvested_differs(existing: dict[str, Any], harvested: dict[str, Any]) -> bool:
    """Whether storing ``harvested`` would change anything a re-harvest writes."""
    return comparable(merge_harvested(existing, harvested)) != comparable(existing)


def comparable(dataset: dict[str, Any]) -> dict[str, Any]:
    """The facts a re-harvest writes, in a form two reads of the same facts compare equal in."""
    facts: dict[str, Any] = {key: _fact(key, dataset.get(key)) for key in _DATASET_KEYS}
    facts["tags"] = sorted(t["name"] if isinstance(t, dict) else t for t in dataset.get("tags") or [])
    facts["resources"] = [{k: _fact(k, r.get(k)) for k in RESOURCE_OWNERS} for r in dataset.get("resources") or []]
    return facts


def _fact(key: str, value: Any) -> str:
    if value in (None, "", []):
        return ""
    if not isinstance(value, str):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    # CKAN stores a resource format in its own spelling (``csv`` becomes ``CSV``).
    return value.casefold() if key == "format" else value
