"""A protected INN lands only through its holder's sources: whose an MR identifier is, and which sources may import it.

An organization holding an INN (catalog.people.publishers) is that INN's publisher. An identifier under it (its INN prefix,
catalog.record.mapping.inn_of) lands through a source of that organization, a source whose config sends its records
there (``organization``), or a source a sysadmin lets harvest for it (``publisher_organizations``: an aggregator of its
subordinate bodies); any other source's entry is refused (``harvest.inn_protected``), read or not. An identifier
under no organization's INN harvests as before.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from sqlalchemy import func

import ckan.model as model

from ckanext.passport import settings, source_types
from ckanext.passport.catalog.people.publishers import organization_holding_inn
from ckanext.passport.harvest import records
from ckanext.passport.harvest.config import HarvestConfig, load_config
from ckanext.passport.catalog.record.mapping import inn_of
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem


def inn_refusal(identifier: str, source_organization: Optional[str], config: HarvestConfig) -> Optional[Problem]:
    """The refusal of ``identifier`` for a source of ``source_organization`` with ``config``, or ``None`` when the
    source may import it."""
    holder = protected_holder(identifier)
    if holder is None or holder.id in harvests_for(source_organization, config):
        return None
    return problem("harvest.inn_protected", identifier=identifier.strip(), inn=inn_of(identifier),
                   organization=holder.title or holder.name)


def protected_holder(identifier: str) -> Optional[model.Group]:
    """The active organization holding the INN ``identifier`` starts with, or ``None``."""
    inn = inn_of(identifier)
    holder_id = organization_holding_inn(inn) if inn else None
    return model.Group.get(holder_id) if holder_id else None


def harvests_for(source_organization: Optional[str], config: HarvestConfig) -> set[str]:
    """The ids of the organizations a source publishes for: its own, the one its records go to, and those a
    sysadmin listed."""
    named = [config.organization, *config.publisher_organizations]
    found = {group.id for group in (model.Group.get(name) for name in named if name) if group is not None}
    return found | ({source_organization} if source_organization else set())


@dataclass(frozen=True)
class WouldRefuse:
    """A source holding or listing identifiers under an INN another organization holds: its next harvest refuses
    ``count`` of its entries (``ckan passport publishers check``)."""

    source: str
    inn: str
    holder: str
    count: int


def would_refuse() -> list[WouldRefuse]:
    """Every active ``passport`` source whose current records or newest job's entries fall under an INN its
    organization may not harvest for, by source and INN."""
    from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource

    newest = (model.Session.query(HarvestJob.source_id, func.max(HarvestJob.created).label("created"))
              .group_by(HarvestJob.source_id).subquery())
    newest_jobs = (model.Session.query(HarvestJob.id).join(
        newest, (HarvestJob.source_id == newest.c.source_id) & (HarvestJob.created == newest.c.created)))
    rows = (model.Session.query(HarvestSource, model.Package.name, HarvestObject.guid)
            .join(HarvestObject, HarvestObject.harvest_source_id == HarvestSource.id)
            .join(model.Package, model.Package.id == HarvestSource.id)
            .filter(HarvestSource.active.is_(True), HarvestSource.type == source_types.PASSPORT, model.Package.state == "active",
                    (HarvestObject.current.is_(True)) | HarvestObject.harvest_job_id.in_(newest_jobs))
            .distinct())
    counts: dict[tuple[str, str, str], int] = {}
    allowed: dict[str, set[str]] = {}
    for source, name, guid in rows:
        holder = protected_holder(guid or "")
        if holder is None:
            continue
        if source.id not in allowed:
            config = load_config(source.config, settings.site_fetch_options())
            allowed[source.id] = harvests_for(records.source_organization(source), config)
        if holder.id not in allowed[source.id]:
            key = (name, inn_of(guid), holder.title or holder.name)
            counts[key] = counts.get(key, 0) + 1
    return [WouldRefuse(source, inn, holder, count) for (source, inn, holder), count in sorted(counts.items())]
