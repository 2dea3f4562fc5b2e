"""The portal's harvest health, for sysadmins (``passport_harvest_health``): the sources of our types whose harvests
need someone's attention, each with a coded reason in the reader's language.

A source (``passport`` or ``lkod``, active) is listed in one state, the first that holds:

- ``stalled``: its last job is New or Running and has made no progress (ckanext-harvest's last action time: the last
  entry imported, else the end of the gather, else the last entry gathered, else the job's creation) for longer than
  ``ckan.harvest.timeout`` (or ``ckanext.passport.health_grace`` when that is unset); ``harvest.source_stalled``.
  With the timeout set, the next ``ckan harvester run`` ends such a job, so a stalled row says the cron or the
  consumers are down;
- ``failed``: its last job finished with a gather finding of the scoreboard's ``FAILURE_CODES`` (the registry
  unreadable, ``harvest.job_timeout``…); the reason is that finding, re-rendered;
- ``overdue``: its frequency (ckanext-harvest's ``frequency``; MANUAL never, ALWAYS as DAILY, MONTHLY as 31 days)
  asks for a harvest, yet its last finished job (or, never harvested, its creation) is older than the period plus
  the grace, and no job is under way; ``harvest.source_overdue``.

Healthy sources are not listed. One SQL query over the sources and their last jobs, whatever their number.
"""
from __future__ import annotations

import datetime as dt
import json
from typing import Any, Optional

import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckan import model

from ckanext.passport import settings, source_types
from ckanext.passport.harvest.recovery import last_action_text
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem, Translate
from ckanext.passport.mr.problems import from_dict, problem

from .summary import FAILURE_CODES

FAILED, STALLED, OVERDUE = "failed", "stalled", "overdue"
STATES = (STALLED, FAILED, OVERDUE)  # the order rows are listed in, then oldest first
# Days between harvests each frequency asks for (MONTHLY: the longest month, so no source is overdue early).
PERIOD_DAYS = {"ALWAYS": 1, "DAILY": 1, "WEEKLY": 7, "BIWEEKLY": 14, "MONTHLY": 31}

_HEALTH = sa.text("""
WITH src AS (
    SELECT s.id, s.type, s.frequency, s.created, p.name, p.title, p.owner_org
    FROM harvest_source s JOIN package p ON p.id = s.id
    WHERE s.active AND p.state = 'active' AND s.type IN :types
),
last_job AS (
    SELECT DISTINCT ON (j.source_id) j.source_id, j.id, j.status, j.created, j.gather_finished, j.finished
    FROM harvest_job j JOIN src ON src.id = j.source_id
    ORDER BY j.source_id, j.created DESC
),
last_finished AS (
    SELECT j.source_id, max(j.finished) AS finished
    FROM harvest_job j JOIN src ON src.id = j.source_id
    WHERE j.status = 'Finished'
    GROUP BY j.source_id
),
judged AS (
    SELECT src.*, g.name AS organization_name, g.title AS organization_title,
           lj.id AS job_id, lj.status, lj.finished AS job_finished, lf.finished AS last_finished,
           CASE WHEN lj.status IN ('New', 'Running') THEN COALESCE(
               (SELECT max(o.import_finished) FROM harvest_object o
                WHERE o.harvest_job_id = lj.id AND o.state = 'COMPLETE'),
               lj.gather_finished,
               (SELECT max(o.gathered) FROM harvest_object o WHERE o.harvest_job_id = lj.id),
               lj.created) END AS last_action,
           CASE WHEN lj.status = 'Finished' THEN
               (SELECT f.finding FROM harvest_gather_error e JOIN passport_harvest_finding f ON f.error_id = e.id
                WHERE e.harvest_job_id = lj.id AND f.code IN :failure_codes
                ORDER BY e.created, e.id LIMIT 1) END AS failure,
           (:periods)::jsonb ->> src.frequency AS period_days
    FROM src
    LEFT JOIN "group" g ON g.id = src.owner_org
    LEFT JOIN last_job lj ON lj.source_id = src.id
    LEFT JOIN last_finished lf ON lf.source_id = src.id
)
SELECT * FROM judged
WHERE (status IN ('New', 'Running') AND last_action < :stalled_before)
   OR failure IS NOT NULL
   OR (period_days IS NOT NULL AND (status IS NULL OR status NOT IN ('New', 'Running'))
       AND COALESCE(last_finished, created) + period_days::int * interval '1 day' < :overdue_before)
""").bindparams(sa.bindparam("types", expanding=True), sa.bindparam("failure_codes", expanding=True))


def harvest_health(now: Optional[dt.datetime] = None, translate: Optional[Translate] = None) -> list[dict[str, Any]]:
    """The sources needing attention as rows (see the module docstring), stalled first, then failed, then overdue,
    each oldest first."""
    now = now or dt.datetime.utcnow()
    translate = translate or reader_translate()
    stalled_minutes, grace = settings.health_stalled_after(), settings.health_grace()
    found = model.Session.execute(_HEALTH, {
        "types": list(source_types.OURS),
        "failure_codes": sorted(FAILURE_CODES),
        "periods": json.dumps(PERIOD_DAYS),
        "stalled_before": now - dt.timedelta(minutes=stalled_minutes),
        "overdue_before": now - dt.timedelta(minutes=grace),
    }).mappings().all()
    rows = [_row(source, now, stalled_minutes, grace, translate) for source in found]
    return sorted(rows, key=lambda row: (STATES.index(row["state"]), row["since"], row["source_name"]))


def _row(source: Any, now: dt.datetime, stalled_minutes: int, grace: int, translate: Translate) -> dict[str, Any]:
    state, since, reason = _judge(source, now, stalled_minutes)
    return {
        "source_id": source["id"], "source_name": source["name"], "source_title": source["title"],
        "source_type": source["type"], "frequency": source["frequency"],
        "organization_id": source["owner_org"], "organization_name": source["organization_name"],
        "organization_title": source["organization_title"],
        "state": state, "code": reason.code, "message": reason.message(translate),
        "since": since.isoformat(), "job_id": source["job_id"],
        "last_finished": source["last_finished"].isoformat() if source["last_finished"] else None,
    }


def _judge(source: Any, now: dt.datetime, stalled_minutes: int) -> tuple[str, dt.datetime, Problem]:
    """The row's state, since when it holds, and its coded reason; in the query's order of precedence."""
    if source["status"] in ("New", "Running"):
        last_action = source["last_action"]
        return STALLED, last_action, problem("harvest.source_stalled", minutes=stalled_minutes,
                                             last_action=last_action_text(last_action))
    failure = from_dict(json.loads(source["failure"])) if source["failure"] else None
    if failure is not None:
        return FAILED, source["job_finished"], failure
    days = int(source["period_days"])
    last = source["last_finished"] or source["created"]
    return OVERDUE, last + dt.timedelta(days=days), problem("harvest.source_overdue", days=days,
                                                            last=last_action_text(last))


def harvest_health_auth(context: dict, data_dict: dict) -> dict[str, Any]:
    """Sysadmins only (CKAN lets them past every auth function): the view names every source, private ones too."""
    return {"success": False, "msg": tk._("Only a sysadmin may see the portal's harvest health")}


@tk.side_effect_free
def passport_harvest_health(context: dict, data_dict: dict) -> dict[str, Any]:
    """The sources of our types whose last job failed, is stalled, or whose harvest is overdue (sysadmins only):
    ``{"count", "stalled_after", "grace", "rows"}``; each row names the source, its organization, the state, a coded
    reason (``code`` and ``message`` in the reader's language) and since when (UTC, ISO 8601)."""
    tk.check_access("passport_harvest_health", context, data_dict)
    rows = harvest_health()
    return {"count": len(rows), "stalled_after": settings.health_stalled_after(), "grace": settings.health_grace(),
            "rows": rows}


def actions() -> dict[str, Any]:
    return {"passport_harvest_health": passport_harvest_health}


def auth_functions() -> dict[str, Any]:
    return {"passport_harvest_health": harvest_health_auth}
