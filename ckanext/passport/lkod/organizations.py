"""One catalog per organization: the organization's IČO, its catalog's description, and which have one.

A municipality or a ministry registers its own catalog in NKOD, named for itself as the publisher. Each
organization a sysadmin gave an IČO (the organization field ``ico``, kept among CKAN's group extras, which both
CKAN 2.11's ``group_extra`` rows and 2.12's JSONB column keep; catalog.people.publishers) has a catalog at
``/lkod/organization/<name>/catalog``: the portal catalog's stream narrowed to its listed records, its IRI that
URL, its publisher the organization's IČO, its title and description the organization's; contact and home page
are the site's, as the portal catalog's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.catalog.people.publishers import ICO_FIELD
from ckanext.passport.catalog.record.validators import ico_error
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.publish import search

from . import catalog_stream, iris

# organization_list's cap on full dictionaries per call (CKAN's group_and_organization_list_all_fields_max default).
ORGANIZATIONS_PER_CALL = 25


# --- the organization's IČO (set by a sysadmin: catalog.people.publishers) ---------------------------------------------------


def organization_ico(organization: Mapping[str, Any]) -> str:
    """The IČO of an organization dict: the field ``organization_show`` gives, else its extra (lists give extras)."""
    if organization.get(ICO_FIELD):
        return str(organization[ICO_FIELD]).strip()
    for extra in organization.get("extras") or []:
        if extra.get("key") == ICO_FIELD:
            return str(extra.get("value") or "").strip()
    return ""


def ico_problem(organization: Mapping[str, Any]) -> Optional[Problem]:
    """Why the organization has no catalog of its own, or ``None`` when it has one."""
    ico = organization_ico(organization)
    if not ico:
        return problem("lkod.organization_no_ico")
    if ico_error(ico):
        return problem("lkod.organization_bad_ico", ico=ico)
    return None


# --- its catalog -----------------------------------------------------------------------------------------------


def catalog_dict(organization: Mapping[str, Any]) -> dict[str, str]:
    """The ``catalog_dict`` of the organization's catalog: the site's, with its IRI, publisher, title, description."""
    catalog = settings.lkod_catalog()
    catalog.update(
        iri=iris.organization_catalog_iri(organization["name"]),
        publisher_ico=organization_ico(organization),
        title=(organization.get("title") or organization["name"]).strip(),
        description=(organization.get("description") or "").strip() or catalog["description"],
    )
    return catalog


def records_filter(organization: Mapping[str, Any]) -> str:
    """The Solr filter narrowing the listed records to the organization's (by id: a renamed one keeps them)."""
    return f"+owner_org:{search.solr_literal(organization['id'])}"


def shown(name: str) -> Optional[dict[str, Any]]:
    """The active organization called ``name`` (or of that id), as the anonymous visitor sees it."""
    try:
        found = tk.get_action("organization_show")(
            search.anonymous_context(),
            # Only the organization's own fields and extras: no search for its datasets' count, no members.
            {"id": name, "include_datasets": False, "include_dataset_count": False, "include_users": False,
             "include_followers": False, "include_groups": False, "include_tags": False,
             "include_member_count": False},
        )
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return None
    return found if found.get("state") == "active" and found.get("is_organization") else None


# --- which organizations have one: the /lkod/ page -------------------------------------------------------------


@dataclass(frozen=True)
class OrganizationCatalog:
    """An organization with listed records: its catalog's URL and count, or why it has no catalog (``reason``)."""

    name: str
    title: str
    count: int
    url: Optional[str]
    reason: Optional[str]
    code: Optional[str]


def listing() -> list[OrganizationCatalog]:
    """Every organization with at least one listed record, by title: those with a valid IČO have a catalog to
    register; the others say why not, in the reader's language."""
    counts = catalog_stream.counts_by_organization()
    translate = reader_translate()
    found: list[OrganizationCatalog] = []
    for organization in _organizations(sorted(counts)):
        reason = ico_problem(organization)
        found.append(OrganizationCatalog(
            name=organization["name"],
            title=organization.get("title") or organization["name"],
            count=counts[organization["name"]],
            url=None if reason else iris.organization_catalog_iri(organization["name"]),
            reason=reason.message(translate) if reason else None,
            code=reason.code if reason else None,
        ))
    return sorted(found, key=lambda item: (item.title.casefold(), item.name))


def _organizations(names: list[str]) -> Iterator[dict[str, Any]]:
    """The organizations of ``names`` with their extras, a capped call's worth at a time."""
    for start in range(0, len(names), ORGANIZATIONS_PER_CALL):
        chunk = names[start:start + ORGANIZATIONS_PER_CALL]
        yield from tk.get_action("organization_list")(search.anonymous_context(), {
            "organizations": chunk, "all_fields": True, "include_extras": True,
            "include_dataset_count": False, "limit": ORGANIZATIONS_PER_CALL,
        })
