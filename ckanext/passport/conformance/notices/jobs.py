"""A finished job of a ``passport`` source that got worse: mailed once to its organization's admins, and to the MR
publisher's contact at most once a week (``conformance.finished_jobs`` calls :func:`job_finished` after the job is
summarized).

Whether a source is notified, how far its score must drop and whether its publisher hears of it are the site's
options (``settings.notify_*``), each overridden by the source's config (``harvest.config``), except that no source
mails publishers while the site does not: they are outside the portal (``harvest.config_authority`` lets only a
sysadmin ask for it, or for a drop below the site's).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Optional

import ckan.model as model
from ckanext.harvest.model import HarvestJob, HarvestSource

from ckanext.passport import settings
from ckanext.passport.harvest.config import HarvestConfig, load_config
from ckanext.passport.language import site_translate

from ..harvest import fixed
from ..harvest import report as harvest_report
from ..scoreboard.model import JobSummary
from . import changes, compose, send
from .model import JOB, PUBLISHER, now, sent_about, sent_count, sent_since, without_opted_out

# A publisher's contact hears from the portal at most this often.
PUBLISHER_INTERVAL = dt.timedelta(days=7)
# The jobs of one source mail at most ``notify_publishers_per_day`` publishers' contacts in this long.
PUBLISHER_DAY = dt.timedelta(days=1)
# The addresses come from the harvested passports, that is from whoever writes the registry: one job mails at most
# this many contacts (the first in registry order), so a registry naming thousands cannot make the portal a sender
# of bulk mail.
MAX_PUBLISHER_CONTACTS = 10


@dataclass(frozen=True)
class Choices:
    """What a source asked for, its config over the site's options."""

    notify: bool
    score_drop: float
    publisher: bool


def choices(source: HarvestSource) -> Choices:
    try:
        config = load_config(source.config, settings.site_fetch_options())
    except ValueError:
        # A config saved before it was validated: the site's options hold.
        config = HarvestConfig()
    return Choices(
        notify=settings.notify_sources() if config.notify is None else config.notify,
        score_drop=settings.notify_score_drop() if config.notify_score_drop is None else config.notify_score_drop,
        publisher=settings.notify_publishers() and config.notify_publisher is not False,
    )


def source_dict(source_id: str) -> Optional[dict[str, Any]]:
    """The source's name, title and address (its dataset's name is what the Conformance tab's path names)."""
    package = model.Package.get(source_id)
    source = HarvestSource.get(source_id)
    if package is None or source is None:
        return None
    return {"id": source_id, "name": package.name, "title": package.title or source.title or package.name,
            "url": source.url, "organization_id": package.owner_org}


def job_finished(job_id: str) -> None:
    """Mail whoever must hear that the finished job ``job_id`` got worse than its source's previous one."""
    if not send.enabled():
        return
    current = JobSummary.get(job_id)
    source = HarvestSource.get(current.source_id) if current is not None else None
    shown = source_dict(source.id) if source is not None else None
    if current is None or source is None or shown is None:
        return
    wanted = choices(source)
    if not wanted.notify or sent_about(JOB, job_id):
        return
    before = changes.baseline(current)
    worse = changes.worse(current, before, wanted.score_drop)
    if not worse.reasons:
        return
    translate = site_translate()
    broken = changes.broken(current, before)
    for address in send.organization_admins(current.organization_id or shown["organization_id"] or ""):
        subject, body = compose.job_notice(worse, shown, broken, address, translate)
        send.mail(address, subject, body, JOB, job_id)
    if wanted.publisher:
        mail_publishers(current, shown)


def mail_publishers(current: JobSummary, source: dict[str, Any]) -> None:
    """Each contact (``publishermbox``) of the job's passports with errors, unless mailed in the last week, while
    the source's publishers' mails of the last day are fewer than the site allows: those passports, their findings
    and their corrected files."""
    job = HarvestJob.get(current.job_id)
    if job is None:
        return
    by_contact: dict[str, list[harvest_report.StoredPassport]] = defaultdict(list)
    failing = [entry.object_id for entry in harvest_report.counted_entries(job) if not changes.conforms(entry)]
    for stored in harvest_report.with_passports(harvest_report.entries(failing, job.source_id)):
        contact = changes.publisher_mbox(stored)
        if contact:
            by_contact[contact.lower()].append(stored)
    if not by_contact:
        return
    translate = site_translate()
    fixer = fixed.fixer(source["name"])
    since = now() - PUBLISHER_INTERVAL
    left = settings.notify_publishers_per_day() - sent_count(PUBLISHER, source["id"], now() - PUBLISHER_DAY)
    for address in without_opted_out(by_contact)[:MAX_PUBLISHER_CONTACTS]:
        if left <= 0:
            return
        if sent_since(address, PUBLISHER, since):
            continue
        subject, body = compose.publisher_notice(source, by_contact[address], fixer, address, translate)
        if send.mail(address, subject, body, PUBLISHER, source["id"]):
            left -= 1
