"""What happens when a job of a ``passport`` source finishes: it is summarized for the scoreboard
(``scoreboard.summary``), then whoever must be told is told (``conformance.notices``).

ckanext-harvest marks jobs finished only in ``harvest_jobs_run`` (what ``ckan harvester run`` calls from cron);
passport_harvester's chain of it (``harvest.recovery``) announces each job it finished by the signal
``recovery.job_finished``, to which this plugin subscribes through CKAN's ``ISignal`` (:func:`signal_subscriptions`).
Nothing done here may make the run fail: a job that could not be summarized is logged, and summarized later by
``ckan passport scoreboard summarize``.
"""
from __future__ import annotations

import logging
from typing import Any

import ckan.model as model

from ckanext.passport import source_types
from ckanext.passport.harvest import recovery

from . import notices
from .scoreboard import summary

log = logging.getLogger(__name__)


def on_job_finished(job_id: str, source_type: str, **_: Any) -> None:
    """A finished job of our source types, as ``recovery.job_finished`` announces it: a passport job's summary and
    notices."""
    if source_type == source_types.PASSPORT:
        job_finished(job_id)


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


def signal_subscriptions() -> dict[Any, list[Any]]:
    return {recovery.job_finished: [on_job_finished]}
