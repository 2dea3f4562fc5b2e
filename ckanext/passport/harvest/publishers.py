"""A protected INN lands only through its holder's sources: whose an MR identifier is, and which sources may import it.

An organization holding an INN (catalog.publishers) is that INN's publisher. An identifier under it (its INN prefix,
harvest.mapping.inn_of) lands through a source of that organization, a source whose config sends its records there
(``organization``), or a source a sysadmin lets harvest for it (``publisher_organizations``: an aggregator of its
subordinate bodies); any other source's entry is refused (``harvest.inn_protected``), read or not. An identifier
under no organization's INN harvests as before.
"""
from __future__ import annotations

from typing import Optional

import ckan.model as model

from ckanext.passport.catalog.publishers import organization_holding_inn
from ckanext.passport.harvest import problems as codes
from ckanext.passport.harvest.config import HarvestConfig
from ckanext.passport.harvest.mapping import inn_of
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem


def inn_refusal(identifier: str, source_organization: Optional[str], config: HarvestConfig) -> Optional[Problem]:
    """The refusal of ``identifier`` for a source of ``source_organization`` with ``config``, or ``None`` when the
    source may import it."""
    holder = protected_holder(identifier)
    if holder is None or holder.id in harvests_for(source_organization, config):
        return None
    return problem(codes.INN_PROTECTED, identifier=identifier.strip(), inn=inn_of(identifier),
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

