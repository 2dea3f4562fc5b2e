"""Scoreboard state written directly: passport sources (a harvest source and its dataset) and their jobs' summaries,
for tests about the scoreboard's arithmetic rather than about harvesting."""
from __future__ import annotations

import datetime as dt
from typing import Any, Optional

import ckan.model as model
from ckan.model.types import make_uuid
from ckanext.harvest.model import HarvestSource

from ckanext.passport.conformance.scoreboard.model import FINISHED, JobSummary

NOW = dt.datetime.utcnow()


def add_source(name: str, owner_org: Optional[str] = None, private: bool = False, title: str = "") -> str:
    """A ``passport`` harvest source named ``name`` (no job, no network read); its id."""
    package = model.Package(id=make_uuid(), name=name, title=title or name.title(), type="harvest",
                            state="active", private=private, owner_org=owner_org)
    model.Session.add(package)
    model.Session.flush()
    model.Session.add(HarvestSource(id=package.id, url=f"http://example.org/{name}/", type="passport", active=True,
                                    created=NOW))
    model.Session.commit()
    return package.id


def add_summary(source_id: str, publisher: str, days_ago: float, mean_score: Optional[float], listed: int = 10,
                read: Optional[int] = None, conformant: int = 0, name: str = "", **columns: Any) -> JobSummary:
    """One finished job's summary of ``source_id``, ``days_ago`` days before the tests started."""
    summary = JobSummary(
        job_id=make_uuid(), source_id=source_id, organization_id=columns.pop("organization_id", None),
        publisher_key=publisher, publisher_name=name or publisher, finished=NOW - dt.timedelta(days=days_ago),
        status=columns.pop("status", FINISHED), listed=listed, read=listed if read is None else read,
        conformant=conformant, refused=0, mean_score=mean_score, errors=columns.pop("errors", 0),
        codes=columns.pop("codes", {}), **columns)
    model.Session.add(summary)
    model.Session.commit()
    return summary
