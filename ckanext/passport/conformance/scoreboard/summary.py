"""A finished job of a ``passport`` source, summarized once into ``passport_job_summary``.

The numbers are the job's report's (``conformance.harvest.report``, summed by ``conformance.shape.summary``): the
summary is made from the same document the source's Conformance tab shows, so the two can never disagree. Made when
ckanext-harvest marks the job finished (``conformance.finished_jobs``), or later for older jobs by
``ckan passport scoreboard summarize``; the scoreboard reads only these rows.
"""
from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from typing import Any, Iterable, Optional

import ckan.model as model
import sqlalchemy as sa
from ckanext.harvest.model import HarvestJob, HarvestSource
from sqlalchemy.dialects.postgresql import insert

from ckanext.passport import settings, source_types
from ckanext.passport.catalog.people.publishers import organization_holding_inn
from ckanext.passport.harvest.config import HarvestConfig, load_config
from ckanext.passport.catalog.record.mapping import inn_of
from ckanext.passport.harvest.publishers import harvests_for
from ckanext.passport.mr.model import Severity

from ..harvest import report as harvest_report
from .. import shape
from .model import FAILED, FINISHED, JobSummary

log = logging.getLogger(__name__)

# The gather findings that mean the job could not read its registry at all: such a job is "failed", and its
# failure_code is the first of them. The one place that says so (harvest.job_timeout: a job past
# ckan.harvest.timeout, marked finished by ckanext-harvest).
FAILURE_CODES = frozenset({
    "registry.not_discovered",
    "registry.address_not_registry",
    "registry.unreadable",
    "registry.unknown_form",
    "config.invalid",
    "harvest.registry_empty",
    "harvest.gather_unexpected",
    "harvest.job_timeout",
})
ORGANIZATION_KEY = "org:"  # a publisher's key: "org:<organization id>" (see publisher)


def summarize(job_id: str) -> Optional[JobSummary]:
    """The job's summary, written (or written again: the same job gives the same row) and committed; ``None`` for a
    job that is not a finished job of a ``passport`` source."""
    job = HarvestJob.get(job_id) if job_id else None
    if job is None or job.status != "Finished":
        return None
    source = HarvestSource.get(job.source_id)
    if source is None or source.type != source_types.PASSPORT:
        return None
    row = values(job, source)
    statement = insert(JobSummary.__table__).values(**row)
    statement = statement.on_conflict_do_update(
        index_elements=["job_id"], set_={key: statement.excluded[key] for key in row if key != "job_id"})
    model.Session.execute(statement)
    model.Session.commit()
    summary = JobSummary.get(job.id)
    model.Session.refresh(summary)
    return summary


def previous(summary: JobSummary) -> Optional[JobSummary]:
    """The summary of the same source's finished job before ``summary``'s, or ``None`` (its first)."""
    return (
        model.Session.query(JobSummary)
        .filter(JobSummary.source_id == summary.source_id, JobSummary.finished < summary.finished)
        .order_by(JobSummary.finished.desc())
        .first()
    )


def unsummarized(limit: int) -> list[str]:
    """Up to ``limit`` finished jobs of ``passport`` sources without a summary (jobs finished before summaries
    existed), oldest first."""
    query = (
        model.Session.query(HarvestJob.id)
        .join(HarvestSource, HarvestSource.id == HarvestJob.source_id)
        .outerjoin(JobSummary, JobSummary.job_id == HarvestJob.id)
        .filter(HarvestJob.status == "Finished", HarvestSource.type == source_types.PASSPORT,
                JobSummary.job_id.is_(None))
        .order_by(HarvestJob.finished.nulls_first(), HarvestJob.created)
        .limit(limit)
    )
    return [job_id for (job_id,) in query]


def values(job: HarvestJob, source: HarvestSource) -> dict[str, Any]:
    """The summary's columns for ``job``, from its report: counted as the report counts its passports, from their
    entries alone (a finished job of thousands of passports is summarized without reading one)."""
    entries = list(harvest_report.counted_entries(job))
    counted = [entry.as_entry() for entry in entries]
    report = {"problems": [shape.finding(found) for found in harvest_report.gather_problems(job.id)],
              "passports": counted, "summary": shape.summary(counted)}
    counts = report["summary"]
    organization_id = _organization_of(source.id)
    key, name = publisher(entries, source, organization_id)
    failure = failure_code(report["problems"], listed=counts["passports"])
    return {
        "job_id": job.id,
        "source_id": source.id,
        "organization_id": organization_id,
        "publisher_key": key,
        "publisher_name": name,
        "finished": _finished(job),
        "status": FAILED if failure else FINISHED,
        "failure_code": failure,
        "listed": counts["passports"],
        "read": counts["read"],
        "conformant": counts["conformant"],
        "refused": counts["refused"],
        "mean_score": counts["mean_score"],
        "errors": _errors(report),
        "codes": codes(report),
    }


def failure_code(site_findings: list[dict[str, Any]], listed: int) -> Optional[str]:
    """Why the job failed: the first gather finding of ``FAILURE_CODES``; or, when the job listed no passport, its
    first error about the site (nothing was read, whatever the reason); ``None`` when it did not fail."""
    for found in site_findings:
        if found["code"] in FAILURE_CODES:
            return found["code"]
    if not listed:
        for found in site_findings:
            if found["severity"] == Severity.ERROR.value:
                return found["code"]
    return None


def codes(report: dict[str, Any]) -> dict[str, int]:
    """{code: count}: the passports with each code (the report's ``by_code``), and each finding about the site."""
    counted = Counter(report["summary"]["by_code"])
    counted.update(found["code"] for found in report["problems"])
    return dict(counted)


def publisher(stored: Iterable[harvest_report.Counted], source: HarvestSource,
              organization_id: Optional[str]) -> tuple[str, str]:
    """(key, name): ``org:<organization id>`` and the title of the organization the job speaks for.

    That is the organization holding the INN most of the job's passport identifiers start with (ties: the
    smallest) when the source publishes for it (``harvest.publishers.harvests_for``: its own, the one its records go
    to, those a sysadmin listed), else the source's organization (``organization_id``). An INN read from a registry
    never makes a publisher of its own, and a creator a passport names never names one: anyone may list identifiers
    under a ministry's INN on their own site.
    """
    inns = Counter(inn for entry in stored if (inn := inn_of(entry.identifier or "")))
    holder = organization_holding_inn(min(inns, key=lambda value: (-inns[value], value))) if inns else None
    if holder is not None and holder in harvests_for(organization_id, _config(source)):
        organization_id = holder
    organization = model.Group.get(organization_id) if organization_id else None
    return (ORGANIZATION_KEY + (organization_id or ""),
            (organization.title or organization.name) if organization is not None else "")


def _config(source: HarvestSource) -> HarvestConfig:
    try:
        return load_config(source.config, settings.site_fetch_options())
    except (ValueError, TypeError):  # a config its own job refused (config.invalid) lets it speak for no one else
        return HarvestConfig()


def _errors(report: dict[str, Any]) -> int:
    error = Severity.ERROR.value
    return (sum(1 for found in report["problems"] if found["severity"] == error)
            + sum(1 for entry in report["passports"] for found in entry["findings"] if found["severity"] == error))


def _organization_of(source_id: str) -> Optional[str]:
    return model.Session.execute(
        sa.select(model.Package.owner_org).where(model.Package.id == source_id)).scalar()


def _finished(job: HarvestJob) -> dt.datetime:
    # ckanext-harvest sets ``finished`` as text on the object it holds; the database gives a datetime.
    value = job.finished or job.gather_finished or job.created
    return dt.datetime.fromisoformat(value) if isinstance(value, str) else value
