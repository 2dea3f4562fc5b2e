"""No harvest object left mid-stage: what a dead consumer or a dropped database connection left in FETCH or IMPORT
becomes an error, so that its job finishes and the next job can start.

ckanext-harvest marks a job finished only once every object is COMPLETE or ERROR. An object whose consumer was
killed, or whose import lost its database connection, keeps the state it had: RabbitMQ delivers its message again
to the next consumer, but Redis only after three minutes (and not at all once Redis restarted without its queues),
and a consumer that takes it again may be dead too. So ``harvest_jobs_run`` (what ``ckan harvester run`` calls from a
portal's cron) first turns every object of a running job of our source types that has been in FETCH or IMPORT for
longer than twice the object budget (``ckanext.passport.harvest_object_budget``: the fetches of one object end by
then) into an error, ``harvest.object_stalled``. What its stage had not committed was rolled back with the
connection; the next job reads the entry again (its content hash is the last current object's).

A job with no progress at all (no object finished: its gather or fetch consumers stopped) is ckanext-harvest's
``ckan.harvest.timeout``: past it, ``harvest_jobs_run`` marks the job finished with a plain-English gather error. For
our source types this run ends those jobs first, by the same rule, with the coded finding ``harvest.job_timeout``,
shown in each reader's language like every other finding and counted as a failed job.

Each job of our source types that this run finished, ended here or by ckanext-harvest, is then announced by the
signal :data:`job_finished` (``ckanext.passport.harvest_job_finished``; sender: the job's id, ``source_type`` its
source's type): whoever must act on a finished job (passport_conformance's summary and notices) subscribes through
CKAN's ``ISignal``, whatever the plugins' order.
"""
from __future__ import annotations

import datetime
import logging
from typing import Any, Iterable, Optional

import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckan import model
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource

from ckanext.passport import settings, source_types
from ckanext.passport.harvest.findings import save_gather_error, save_object_error
from ckanext.passport.mr.problems import problem

log = logging.getLogger(__name__)

_STAGES = {"FETCH": "Fetch", "IMPORT": "Import"}
# Sent once per job of our source types (source_types.OURS) that a harvest_jobs_run finished (sender: the job's id;
# source_type: its source's type). A receiver's failure is its own to log: it would otherwise fail the run.
job_finished = tk.signals.ckanext.signal("ckanext.passport.harvest_job_finished")


def stalled_after() -> datetime.timedelta:
    """How long an object may stay in one stage before it counts as stalled."""
    return datetime.timedelta(seconds=2 * settings.harvest_object_budget())


def release_stalled_objects(source_id: Optional[str] = None, now: Optional[datetime.datetime] = None) -> int:
    """Every stalled object of a running job (of one source, or of all) made an ERROR with
    ``harvest.object_stalled``; how many."""
    limit = stalled_after()
    cutoff = (now or datetime.datetime.utcnow()) - limit
    started = sa.func.greatest(HarvestObject.fetch_started, HarvestObject.import_started)
    stalled = (
        model.Session.query(HarvestObject)
        .join(HarvestJob, HarvestObject.harvest_job_id == HarvestJob.id)
        .join(HarvestSource, HarvestJob.source_id == HarvestSource.id)
        .filter(HarvestJob.status == "Running", HarvestSource.type.in_(source_types.OURS),
                HarvestObject.state.in_(list(_STAGES)), started < cutoff)
    )
    if source_id:
        stalled = stalled.filter(HarvestJob.source_id == source_id)
    count = 0
    for harvest_object in stalled.with_for_update(of=HarvestObject, skip_locked=True):
        stage = _STAGES[harvest_object.state]
        log.warning("Harvest object %s stalled in %s since %s: made an error", harvest_object.id, stage,
                    harvest_object.import_started or harvest_object.fetch_started)
        save_object_error(problem("harvest.object_stalled", seconds=int(limit.total_seconds())),
                          harvest_object, stage)
        harvest_object.state = "ERROR"
        harvest_object.report_status = "errored"
        harvest_object.add()
        count += 1
    model.Session.commit()
    return count


def last_action_text(when: datetime.datetime) -> str:
    """A job's last action time as the finding names it: UTC, to the minute, the same in every language."""
    return f"{when:%Y-%m-%d %H:%M} UTC"


def end_timed_out_jobs(source_id: Optional[str] = None, now: Optional[datetime.datetime] = None) -> list[str]:
    """Every running job of our source types with no progress for longer than ``ckan.harvest.timeout`` ended as
    ckanext-harvest would end it (status Finished, finished now), with the coded gather error
    ``harvest.job_timeout`` instead of its plain-English one; the ids of the jobs ended.

    The rule is ckanext-harvest's own (``HarvestJob.get_last_action_time`` against the same option), so a job is
    ended here exactly when ckanext-harvest would have ended it a moment later in this same run.
    """
    minutes = settings.harvest_timeout()
    if minutes is None:
        return []
    now = now or datetime.datetime.utcnow()
    running = (
        model.Session.query(HarvestJob)
        .join(HarvestSource, HarvestJob.source_id == HarvestSource.id)
        .filter(HarvestJob.status == "Running", HarvestSource.type.in_(source_types.OURS))
    )
    if source_id:
        running = running.filter(HarvestJob.source_id == source_id)
    ended: list[HarvestJob] = []
    for job in running.with_for_update(of=HarvestJob, skip_locked=True):
        last_action = job.get_last_action_time()
        if now - last_action <= datetime.timedelta(minutes=minutes):
            continue
        log.warning("Harvest job %s of source %s made no progress since %s: ended (ckan.harvest.timeout = %s)",
                    job.id, job.source_id, last_action, minutes)
        save_gather_error(problem("harvest.job_timeout", minutes=minutes, last_action=last_action_text(last_action)),
                          job)
        job.status = "Finished"
        job.finished = now
        job.add()
        ended.append(job)
    model.Session.commit()
    for job in ended:
        # As ckanext-harvest does for a job that finished: the source's indexed status shows its last job.
        tk.get_action("harvest_source_reindex")({"ignore_auth": True}, {"id": job.source_id})
    return [job.id for job in ended]


def running_jobs(source_id: Optional[str] = None) -> list[str]:
    """The ids of the running jobs of our source types (of one source, or of all)."""
    query = (
        model.Session.query(HarvestJob.id)
        .join(HarvestSource, HarvestSource.id == HarvestJob.source_id)
        .filter(HarvestJob.status == "Running", HarvestSource.type.in_(source_types.OURS))
    )
    if source_id:
        query = query.filter(HarvestJob.source_id == source_id)
    return [job_id for (job_id,) in query]


def announce_finished(job_ids: Iterable[str]) -> None:
    """:data:`job_finished` sent for each of these jobs that is finished now."""
    job_ids = list(job_ids)
    if not job_ids:
        return
    finished = (
        model.Session.query(HarvestJob.id, HarvestSource.type)
        .join(HarvestSource, HarvestSource.id == HarvestJob.source_id)
        .filter(HarvestJob.id.in_(job_ids), HarvestJob.status == "Finished")
        .all()
    )
    for job_id, source_type in finished:
        job_finished.send(job_id, source_type=source_type)


@tk.chained_action
def harvest_jobs_run(up: Any, context: dict, data_dict: dict) -> Any:
    """ckanext-harvest's run, after the stalled objects of the running jobs were made errors (so that those jobs can
    be marked finished by this very run) and the jobs past ``ckan.harvest.timeout`` were ended with a coded reason
    (ckanext-harvest then finds them finished and writes nothing of its own); then each job it finished announced
    (:data:`job_finished`)."""
    tk.check_access("harvest_jobs_run", context, data_dict)
    source_id = data_dict.get("source_id")
    release_stalled_objects(source_id)
    ended = end_timed_out_jobs(source_id)
    running = running_jobs(source_id)
    result = up(context, data_dict)
    announce_finished(ended + running)
    return result


def chained_actions() -> dict[str, Any]:
    return {"harvest_jobs_run": harvest_jobs_run}
