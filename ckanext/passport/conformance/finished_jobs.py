"""What happens when a job of a ``passport`` source finishes: it is summarized for the scoreboard
(``scoreboard.summary``), then whoever must be told is told (``conformance.notices``).

ckanext-harvest marks jobs finished only in ``harvest_jobs_run`` (what ``ckan harvester run`` calls from cron), so
that action is chained here: the running jobs of passport sources are noted before it runs, and those it finished
are handled after. The harvester plugin chains the same action (``harvest.recovery``); chains stack. Nothing done
here may make the run fail: a job that could not be summarized is logged, and summarized later by
``ckan passport scoreboard summarize``.
"""
from __future__ import annotations

import logging
from typing import Any, Collection, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckanext.harvest.model import HarvestJob, HarvestSource

from ckanext.passport.harvest import recovery

from . import notices
from .harvest.actions import PASSPORT_SOURCE_TYPE
from .scoreboard import summary

log = logging.getLogger(__name__)


@tk.chained_action
def harvest_jobs_run(up: Any, context: dict, data_dict: dict) -> Any:
    """ckanext-harvest's run; each passport job it marked finished then summarized and announced."""
    # The jobs the outer chain (harvest.recovery) ended past ckan.harvest.timeout were running when this run began.
    running = running_jobs(data_dict.get("source_id"), ended=context.get(recovery.ENDED_JOBS, ()))
    result = up(context, data_dict)
    for job_id in finished_of(running):
        job_finished(job_id)
    return result


def running_jobs(source_id: Optional[str] = None, ended: Collection[str] = ()) -> list[str]:
    """The ids of the running jobs of passport sources (of one source, or of all), and of the ``ended`` ones."""
    running = HarvestJob.status == "Running"
    query = (
        model.Session.query(HarvestJob.id)
        .join(HarvestSource, HarvestSource.id == HarvestJob.source_id)
        .filter(sa.or_(running, HarvestJob.id.in_(list(ended))) if ended else running,
                HarvestSource.type == PASSPORT_SOURCE_TYPE)
    )
    if source_id:
        query = query.filter(HarvestJob.source_id == source_id)
    return [job_id for (job_id,) in query]


def finished_of(job_ids: list[str]) -> list[str]:
    if not job_ids:
        return []
    query = model.Session.query(HarvestJob.id).filter(HarvestJob.id.in_(job_ids), HarvestJob.status == "Finished")
    return [job_id for (job_id,) in query]


def job_finished(job_id: str) -> None:
    """Summarize the finished job, then announce it; a failure of either is logged, never raised."""
    try:
        summary.summarize(job_id)
    except Exception:
        model.Session.rollback()
        log.exception("The finished harvest job %s could not be summarized for the scoreboard", job_id)
        return
    try:
        notices.job_finished(job_id)
    except Exception:
        model.Session.rollback()
        log.exception("The notices of the finished harvest job %s failed", job_id)


def actions() -> dict[str, Any]:
    return {"harvest_jobs_run": harvest_jobs_run}
