"""A user's earlier checks, with what their kept reports count, read without loading the reports.

A kept report runs to megabytes (``report.kept``); a list of checks needs only its counts, so PostgreSQL reads
them from the kept JSON and the rows are loaded without it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import ckan.model as model
from sqlalchemy import text
from sqlalchemy.orm import defer

from .model import SiteCheck


@dataclass(frozen=True)
class Counts:
    """A kept report's passports, those read and their mean score (``None`` when none was read)."""

    passports: int
    read: int
    mean_score: Optional[float]


# One row per check with a kept report; a report without passports (a site not reached) counts 0.
_COUNTS = text("""
    SELECT c.id, count(p.passport), count(p.passport ->> 'score'), avg((p.passport ->> 'score')::numeric)
    FROM passport_site_check AS c
    LEFT JOIN LATERAL json_array_elements(c.result::json -> 'passports') AS p(passport) ON true
    WHERE c.id = ANY(:ids) AND c.result IS NOT NULL
    GROUP BY c.id
""")


def own_checks(user_id: str, host: Optional[str], exclude: Optional[str],
               limit: int) -> list[tuple[SiteCheck, Optional[Counts]]]:
    """The checks ``user_id`` started, newest first, of ``host`` only when given, without ``exclude``; each with
    its report's counts (``None`` while it has no report)."""
    query = (model.Session.query(SiteCheck).options(defer(SiteCheck.result), defer(SiteCheck.failure))
             .filter(SiteCheck.user_id == user_id))
    if host:
        query = query.filter(SiteCheck.host == host)
    if exclude:
        query = query.filter(SiteCheck.id != exclude)
    checks = query.order_by(SiteCheck.created.desc(), SiteCheck.id).limit(limit).all()
    counts = _counts([check.id for check in checks])
    return [(check, counts.get(check.id)) for check in checks]


def _counts(ids: list[str]) -> dict[str, Counts]:
    if not ids:
        return {}
    rows = model.Session.execute(_COUNTS, {"ids": ids})
    # Rounded as shape.summary rounds a report's mean score, so the list and the report agree.
    return {id_: Counts(passports, read, round(float(mean), 1) if mean is not None else None)
            for id_, passports, read, mean in rows}
