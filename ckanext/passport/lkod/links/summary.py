"""Broken links summed per organization, over the records the catalog lists (what ``/lkod/`` shows everyone).

The database counts each record's broken links (active, public records only); the search index then says which
of those records the catalog lists, a page of ids per query, so the sum never holds more than one page of ids
besides the counts of the records that have a broken link at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport.lkod.catalog_stream import ELIGIBLE_INDEX_FIELD
from ckanext.passport.publish import search

from . import model as link_model

# Ids per index query (Solr's default maxBooleanClauses is 1024).
PAGE = 500


@dataclass(frozen=True)
class OrganizationLinks:
    name: str
    title: str
    records: int  # listed records with a broken link
    broken: int  # their broken links


def broken_by_organization() -> list[OrganizationLinks]:
    """Each organization with a broken link in a listed record, most broken links first."""
    counts = {row.package_id: (row.owner_org, row.broken)
              for row in model.Session.execute(link_model.broken_by_record())}
    totals: dict[str, list[int]] = {}
    for package_id in _listed(counts):
        owner, broken = counts[package_id]
        total = totals.setdefault(owner or "", [0, 0])
        total[0] += 1
        total[1] += broken
    groups = {group.id: group for group in model.Session.query(model.Group).filter(model.Group.id.in_(totals))}
    found = [OrganizationLinks(groups[key].name if key in groups else "", groups[key].title if key in groups else "",
                               records, broken)
             for key, (records, broken) in totals.items()]
    return sorted(found, key=lambda item: (-item.broken, item.title or item.name))


def _listed(package_ids: Iterable[str]) -> Iterator[str]:
    """Those of ``package_ids`` the catalog lists (eligible and visible to the anonymous visitor)."""
    ids = list(package_ids)
    for start in range(0, len(ids), PAGE):
        page = ids[start:start + PAGE]
        terms = " OR ".join(search.solr_literal(package_id) for package_id in page)
        found = tk.get_action("package_search")(search.anonymous_context(), {
            "q": "*:*", "fq": f"+{ELIGIBLE_INDEX_FIELD}:true +id:({terms})", "fl": ["id"], "rows": len(page),
        })
        yield from (result["id"] for result in found["results"])
