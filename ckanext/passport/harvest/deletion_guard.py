"""The deletion guard of both source types: a record the listing no longer names is deleted only after a listing
read whole, not empty, and not shrunk past the source's ``max_delete_ratio`` of what it listed recently."""
from __future__ import annotations

from typing import Any, Optional

import ckan.model as model
import sqlalchemy as sa
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestObjectExtra

from ckanext.passport.harvest import stored
from ckanext.passport.harvest.findings import save_gather_error
from ckanext.passport.harvest.objects import add_object
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

_RECENT_JOBS = 10


def queue_deletions(
    job: Any, previous: dict[str, Optional[str]], listed: set[str], config: Any, damage: list[Problem]
) -> list[str]:
    """Delete objects for the source's records the read listing no longer lists, when the source deletes missing
    records and the guard lets it (else the refusal is a gather error and nothing is deleted)."""
    gone = [guid for guid in previous if guid not in listed]
    if not gone or not config.delete_missing:
        return []
    largest = max(len(previous), _largest_listing(job.source_id))
    refusal = deletion_refusal(len(listed), largest, len(gone), config.max_delete_ratio, damage)
    if refusal is not None:
        save_gather_error(refusal, job)
        return []
    ids = [add_object(job, guid, stored.DELETE, None, previous[guid]) for guid in gone]
    model.Session.commit()
    return ids


def _largest_listing(source_id: str) -> int:
    """The most entries the source's listing named in its last finished jobs (gathered objects, delete objects left
    out: every object of ours has its gather's status).

    Deletions are measured against this rather than against the last harvest alone, so that a registry cut a
    little more each time cannot delete the catalog step by step.
    """
    # The job ids are read first: given them as values, not as a subquery the planner cannot size, it reads the
    # jobs' objects by their index, and the rare delete extras by theirs, whatever the portal holds (issue 42).
    recent = [job_id for (job_id,) in
              model.Session.query(HarvestJob.id)
              .filter(HarvestJob.source_id == source_id, HarvestJob.status == "Finished")
              .order_by(HarvestJob.created.desc())
              .limit(_RECENT_JOBS)]
    if not recent:
        return 0
    deletes = sa.exists().where(HarvestObjectExtra.harvest_object_id == HarvestObject.id,
                                HarvestObjectExtra.key == stored.STATUS, HarvestObjectExtra.value == stored.DELETE)
    sizes = (
        model.Session.query(sa.func.count(sa.distinct(HarvestObject.guid)))
        .filter(HarvestObject.harvest_job_id.in_(recent), ~deletes)
        .group_by(HarvestObject.harvest_job_id)
    )
    return max((size for (size,) in sizes), default=0)


def deletion_refusal(kept: int, largest: int, gone: int, max_ratio: float, damage: list[Problem]) -> Optional[Problem]:
    """Why deleting ``gone`` datasets looks like a broken listing, or ``None``.

    ``kept`` is what the listing names now, ``largest`` the most it named in recent jobs, ``damage`` the
    ERROR-level problems met while reading it: a listing not read whole says nothing about what is missing.
    """
    if kept == 0:
        return problem("harvest.registry_empty", largest=largest)
    if damage:
        causes = ", ".join(dict.fromkeys(found.code for found in damage))
        return problem("harvest.registry_incomplete", codes=causes, gone=gone)
    lost = max(gone, largest - kept)
    if lost / largest > max_ratio:
        return problem("harvest.mass_deletion", gone=gone, kept=kept, largest=largest, max_ratio=max_ratio)
    return None
