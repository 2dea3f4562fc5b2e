"""The weekly digest: one mail per organization with notified ``passport`` sources, to its admins, summing up each
source's week from its job summaries (``scoreboard``). Sent by ``ckan passport notices digest``, which cron runs
once a week; a second run within six days sends an organization's admins nothing again. An organization whose
digest cannot be made or sent is logged, and the next one is mailed all the same.
"""
from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict
from typing import Any, Optional

import ckan.model as model
from ckanext.harvest.model import HarvestSource

from ckanext.passport import source_types
from ckanext.passport.language import site_translate
from ckanext.passport.mr.model import Translate

from ..scoreboard.model import JobSummary
from . import compose, send
from .jobs import choices, source_dict
from .model import DIGEST, now, sent_since

log = logging.getLogger(__name__)

WEEK = dt.timedelta(days=7)
# A digest run again sooner than this (a cron retried, run by hand) sends nothing twice.
REPEAT_AFTER = dt.timedelta(days=6)


def notified_sources() -> dict[str, list[dict[str, Any]]]:
    """organization id → its active passport sources that are notified (their config over the site's option)."""
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    query = model.Session.query(HarvestSource).filter(
        HarvestSource.type == source_types.PASSPORT, HarvestSource.active.is_(True))
    for source in query.order_by(HarvestSource.title, HarvestSource.id):
        shown = source_dict(source.id)
        if shown and shown["organization_id"] and choices(source).notify:
            found[shown["organization_id"]].append(shown)
    return found


def week_of(source_id: str, since: dt.datetime) -> list[JobSummary]:
    return (model.Session.query(JobSummary)
            .filter(JobSummary.source_id == source_id, JobSummary.finished >= since)
            .order_by(JobSummary.finished).all())


def send_digests(moment: Optional[dt.datetime] = None) -> int:
    """Mail each organization's weekly digest; the number of mails sent (0 without ``smtp.server``)."""
    if not send.enabled():
        return 0
    moment = moment or now()
    translate = site_translate()
    sent = 0
    for organization_id, sources in notified_sources().items():
        try:
            sent += organization_digests(organization_id, sources, moment, translate)
        except Exception:
            # One organization's digest that cannot be made (whatever its data holds) costs the others theirs.
            log.exception("Could not mail the weekly digest of the organization %s", organization_id)
            model.Session.rollback()
    return sent


def organization_digests(organization_id: str, sources: list[dict[str, Any]], moment: dt.datetime,
                         translate: Translate) -> int:
    """Mail one organization's digest to each of its admins not mailed it lately; the number sent."""
    organization = model.Group.get(organization_id)
    if organization is None:
        return 0
    weeks = [(source, week_of(source["id"], moment - WEEK)) for source in sources]
    shown = {"name": organization.name, "title": organization.title}
    sent = 0
    for address in send.organization_admins(organization_id):
        if sent_since(address, DIGEST, moment - REPEAT_AFTER, about=organization_id):
            continue
        subject, body = compose.digest(shown, weeks, address, translate)
        sent += send.mail(address, subject, body, DIGEST, organization_id)
    return sent
