"""Which records the LKOD lists, and the catalog document as a stream of text.

A record is in the catalog when the anonymous visitor may see it (``publish.search``'s rule: never
``ignore_auth``) and ``eligibility.reasons`` finds nothing against it. The verdict is indexed with the
record (``index_eligibility``), so the catalog pages through Solr for dataset ids alone, counts itself with
one query and never holds more than one page: constant memory whatever the catalog's size.

The documents are written as text, the catalog header from ``lkod.jsonld`` first, then one dataset IRI at a
time; nothing here builds the list of datasets.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Callable, Iterator, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.catalog.record.validators import ico_error
from ckanext.passport.mr.model import Problem
from ckanext.passport.publish import search

from . import eligibility, iris, jsonld, norms

# Solr field of the verdict (CKAN's ``*`` dynamic string field), set on every dataset the index sees.
ELIGIBLE_INDEX_FIELD = "passport_lkod_eligible"
DATASETS_KEY = "datová_sada"  # dcat:dataset in the norm's context
DCAT_DATASET = "http://www.w3.org/ns/dcat#dataset"
# What a catalog page asks of Solr: the ids to list, the names pages are cut by.
ID_FIELDS = ["id", "name"]
# The options the catalog cannot be published without (the norm requires a publisher, a title, a description).
REQUIRED = ("publisher_ico", "title", "description")


def index_eligibility(pkg_dict: dict[str, Any]) -> dict[str, Any]:
    """``before_dataset_index``: whether the record, as validated, may be listed (visibility aside)."""
    if pkg_dict.get("type") != search.PUBLISHED_TYPE:
        return pkg_dict
    dataset = json.loads(pkg_dict["validated_data_dict"])
    pkg_dict[ELIGIBLE_INDEX_FIELD] = str(not eligibility.reasons(dataset)).lower()
    return pkg_dict


# --- the records ---------------------------------------------------------------------------------------------


def _eligible_search(fq: str = "", **params: Any) -> dict[str, Any]:
    """``package_search`` over the listed records: eligible, and visible to the anonymous visitor."""
    params["fq"] = f"+{ELIGIBLE_INDEX_FIELD}:true {fq}".strip()
    return tk.get_action("package_search")(search.anonymous_context(), params)


def iter_dataset_ids(within: str = "") -> Iterator[str]:
    """The ids of every listed record, by name, one page at a time; ``within``, a Solr filter, narrows them
    (an organization's catalog: lkod.organizations.records_filter)."""

    def find(fq: str = "", **params: Any) -> dict[str, Any]:
        return _eligible_search(f"{within} {fq}".strip(), **params)

    return (found["id"] for found in search.paged(find, fl=ID_FIELDS))


def freshness(within: str = "") -> tuple[int, Optional[str]]:
    """How many records are listed (``within`` that filter) and when the newest of them changed."""
    result = _eligible_search(within, q="*:*", sort="metadata_modified desc", rows=1, fl=["metadata_modified"])
    newest = result["results"][0]["metadata_modified"] if result["results"] else None
    return result["count"], newest


def counts_by_organization() -> dict[str, int]:
    """How many records each organization has listed, by organization name (one faceted query)."""
    result = _eligible_search(q="*:*", rows=0, **{"facet.field": ["organization"], "facet.limit": -1})
    return {name: count for name, count in result["facets"].get("organization", {}).items() if count}


def is_listed(dataset_id: str) -> bool:
    return _eligible_search(q="*:*", fq=f"+id:{search.solr_literal(dataset_id)}", rows=0)["count"] == 1


def _left_out_fq() -> str:
    return f"+dataset_type:{search.PUBLISHED_TYPE} -{ELIGIBLE_INDEX_FIELD}:true"


def public_left_out_count() -> int:
    """How many records the anonymous visitor may see are left out (public, yet not eligible)."""
    params = {"q": "*:*", "fq": _left_out_fq(), "rows": 0}
    return tk.get_action("package_search")(search.anonymous_context(), params)["count"]


def iter_left_out() -> Iterator[tuple[dict[str, Any], list[Problem]]]:
    """Every record the current user may see (private and unpublished ones included) that the catalog leaves
    out, with the reasons, by name, one page at a time."""

    def reader_search(fq: str = "", **params: Any) -> dict[str, Any]:
        params.update(fq=f"{_left_out_fq()} {fq}".strip(), include_private=True)
        return tk.get_action("package_search")({}, params)

    for dataset in search.paged(reader_search):
        yield dataset, eligibility.reasons(dataset)


# --- the catalog ---------------------------------------------------------------------------------------------


def missing_settings(catalog: dict[str, str]) -> list[str]:
    """The catalog options that must be set (or are not valid) before the catalog can be published."""
    options = settings.lkod_options()
    missing = [options[key] for key in REQUIRED if not catalog[key]]
    if catalog["publisher_ico"] and ico_error(catalog["publisher_ico"]):
        missing.append(options["publisher_ico"])
    return missing


def catalog_tag(
    form: str, catalog: dict[str, str], count: int, newest: Optional[str], norm: str = norms.DEFAULT
) -> str:
    """The catalog document's ETag: what changes it (the listed records' count and newest change, the
    catalog's options, its IRI, the norm it is written in), never the document itself, which is not held."""
    parts = (form, norm, str(count), newest or "", iris.catalog_iri(), *(catalog[key] for key in sorted(catalog)))
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def jsonld_chunks(catalog: dict[str, str], dataset_ids: Iterator[str], norm: str = norms.DEFAULT) -> Iterator[str]:
    """The catalog's JSON-LD document in ``norm``: the header's members, then ``datová_sada`` written one IRI at
    a time (series included: the norm's catalog lists them as datasets)."""
    header = {key: value for key, value in jsonld.catalog_header(catalog, norm).items() if key != DATASETS_KEY}
    opening = json.dumps(header, ensure_ascii=False)[:-1]
    yield f"{opening}{', ' if header else ''}{json.dumps(DATASETS_KEY, ensure_ascii=False)}: ["
    separator = "\n  "
    for dataset_id in dataset_ids:
        yield separator + json.dumps(iris.dataset_iri(dataset_id), ensure_ascii=False)
        separator = ",\n  "
    yield "\n]}\n"


def turtle_chunks(catalog: dict[str, str], dataset_ids: Iterator[str], norm: str = norms.DEFAULT) -> Iterator[str]:
    """The catalog in Turtle: the header, then one ``dcat:dataset`` triple per record, in full IRIs so that
    they hold whatever prefixes the header declares."""
    yield jsonld.catalog_header_turtle(catalog, norm).rstrip("\n") + "\n\n"
    subject = turtle_iri(catalog.get("iri") or iris.catalog_iri())
    for dataset_id in dataset_ids:
        yield f"{subject} <{DCAT_DATASET}> {turtle_iri(iris.dataset_iri(dataset_id))} .\n"


def turtle_iri(iri: str) -> str:
    """``iri`` as a Turtle IRIREF; our IRIs are URLs built from ids, but nothing may break the statement."""
    escaped = "".join(f"\\u{ord(ch):04X}" if ch in '<>"{}|^`\\' or ord(ch) <= 0x20 else ch for ch in iri)
    return f"<{escaped}>"


DOCUMENTS: dict[str, Callable[[dict[str, str], Iterator[str], str], Iterator[str]]] = {
    "jsonld": jsonld_chunks,
    "ttl": turtle_chunks,
}
