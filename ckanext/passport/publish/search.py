"""Datasets as an anonymous visitor sees them: every export is built here, so visibility rules
(private datasets, the editorial review scope through IPermissionLabels) apply without being repeated.

Never ``ignore_auth``: a dataset the anonymous user may not see must not reach a registry or passport.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterator, Optional

import ckan.plugins.toolkit as tk

from . import links

# Solr fields of the publication; CKAN's schema indexes unknown keys through its ``*`` dynamic string
# field, which matches exactly (``extras_*`` fields are tokenized text).
IDENTIFIER_INDEX_FIELD = "passport_identifier"
PUBLISHABLE_INDEX_FIELD = "passport_publishable"
FORMAT_INDEX_FIELD = "passport_format"
PAGE_ROWS = 1000
# Only datasets are publications: harvest sources and other package types are not.
PUBLISHED_TYPE = "dataset"


def anonymous_context() -> dict[str, Any]:
    """A fresh action context for the anonymous user, whoever is logged in to the current request."""
    return {"user": "", "auth_user_obj": None, "ignore_auth": False}


def index_publication(pkg_dict: dict[str, Any]) -> dict[str, Any]:
    """``before_dataset_index``: index the identifier the dataset is published under, whether it can be, and
    its format (the registry's statistics count datasets by it).

    The passport is mapped from the validated dataset (resources included, which the index flattens away),
    so the index and the exports judge a dataset by the same mapping.
    """
    if pkg_dict.get("type") != PUBLISHED_TYPE:
        return pkg_dict
    passport = links.listed_passport(json.loads(pkg_dict["validated_data_dict"]))
    pkg_dict[IDENTIFIER_INDEX_FIELD] = passport.identifier
    pkg_dict[PUBLISHABLE_INDEX_FIELD] = str(links.is_publishable(passport)).lower()
    pkg_dict[FORMAT_INDEX_FIELD] = passport.format
    return pkg_dict


def solr_literal(value: str) -> str:
    """``value`` as a quoted Solr term, safe in an ``fq``."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def search(fq: str = "", **params: Any) -> dict[str, Any]:
    """``package_search`` over the publishable datasets an anonymous visitor may see."""
    params["fq"] = f"+{PUBLISHABLE_INDEX_FIELD}:true {fq}".strip()
    return tk.get_action("package_search")(anonymous_context(), params)


# Should two datasets ever be published under one identifier (the catalog refuses new claims, but a record
# made before that rule may remain), the oldest answers, whichever Solr happens to rank first.
RESOLUTION_ORDER = "metadata_created asc, id asc"


def find_dataset(identifier: str) -> Optional[dict[str, Any]]:
    """The visible, publishable dataset published as ``identifier``; its name or id also finds it."""
    found = search(
        q="*:*", fq=f"+{IDENTIFIER_INDEX_FIELD}:{solr_literal(identifier)}", sort=RESOLUTION_ORDER, rows=1
    )["results"]
    if found:
        return found[0]
    try:
        dataset = tk.get_action("package_show")(anonymous_context(), {"id": identifier})
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return None
    publishable = dataset["type"] == PUBLISHED_TYPE and links.is_publishable(links.listed_passport(dataset))
    return dataset if publishable else None


def is_public(dataset_id: str) -> bool:
    """Whether an anonymous visitor may see the dataset (its passport files then exist)."""
    try:
        tk.check_access("package_show", anonymous_context(), {"id": dataset_id})
    except (tk.NotAuthorized, tk.ObjectNotFound):
        return False
    return True


def iter_datasets(q: str = "") -> Iterator[dict[str, Any]]:
    """Every visible publishable dataset (matching ``q``), by name, one page in memory at a time."""
    return paged(search, q)


def paged(find: Callable[..., dict[str, Any]], q: str = "", **params: Any) -> Iterator[dict[str, Any]]:
    """Every result of ``find`` (a ``package_search`` taking ``fq`` and search params), by name, one page in
    memory at a time; ``params`` (e.g. ``fl``, which must then hold ``name``) go to every page's search.

    Pages are cut by name rather than by offset, so each page costs Solr the same however deep it is and a
    dataset created while we page is never seen twice.
    """
    after: Optional[str] = None
    while True:
        fq = f"+name:{{{solr_literal(after)} TO *]" if after is not None else ""
        page = find(q=q or "*:*", fq=fq, sort="name asc", rows=PAGE_ROWS, **params)["results"]
        yield from page
        if len(page) < PAGE_ROWS:
            return
        after = page[-1]["name"]


def freshness() -> tuple[int, Optional[str]]:
    """How many datasets are visible and when the newest changed: what a registry's validators hang on."""
    result = search(q="*:*", sort="metadata_modified desc", rows=1)
    newest = result["results"][0]["metadata_modified"] if result["results"] else None
    return result["count"], newest
