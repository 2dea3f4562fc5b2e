"""The one config authority of every source type (``passport`` and ``lkod``): an option means the same in both,
and whatever reaches past the saver's organization is a sysadmin's to set."""
from __future__ import annotations

import json
from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan import authz

from ckanext.passport import settings
from ckanext.passport.catalog import workflow
from ckanext.passport.harvest import problems as codes
from ckanext.passport.harvest.config import above_site_limits
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem


def checked_config(config: str, errors: list[Problem]) -> str:
    """``config`` when it is valid (``errors``: what its source type's schema finds wrong) and its saver may set
    every option in it; else a ValueError listing each refusal with its code, in the reader's language."""
    if errors:
        refusals = [problem(codes.CONFIG_INVALID, errors=error) for error in errors]
    else:
        refusals = _config_refusals(json.loads(config) if config else {}, _acting_user())
    if refusals:
        translate = reader_translate()
        raise ValueError(" ".join(f"[{found.code}] {found.message(translate)}" for found in refusals))
    return config


def _acting_user() -> Optional[str]:
    """The logged-in user saving a source, or ``None`` for whoever runs code without one.

    Sources are created by logged-in users through the web and the API; with no user (the command line,
    internal calls) whoever runs the code already administers the site.
    """
    try:
        return getattr(tk.current_user, "name", None) or None
    except RuntimeError:
        return None


def _config_refusals(options: dict[str, Any], user: Optional[str]) -> list[Problem]:
    """What in a source's options ``user`` may not set, one finding each with its stable code."""
    sysadmin = user is None or authz.is_sysadmin(user)
    refusals = []
    if not sysadmin:
        if options.get("user"):
            refusals.append(problem(codes.USER_SYSADMIN_ONLY))
        if options.get("create_organizations"):
            refusals.append(problem(codes.CREATE_ORGANIZATIONS_SYSADMIN_ONLY))
        if options.get("allow_private_addresses"):
            refusals.append(problem(codes.PRIVATE_ADDRESSES_SYSADMIN_ONLY))
    state = options.get("default_editorial_state", workflow.DRAFT)
    refused = workflow.initial_state_refusal(state, sysadmin, settings.initial_states())
    if refused == "editorial_state_not_allowed":
        # Skipping review is the site's decision (ckanext.passport.initial_states), not a source's.
        refusals.append(problem(codes.EDITORIAL_STATE_NOT_ALLOWED, state=state))
    elif refused == "editorial_state_sysadmin_only":
        refusals.append(problem(codes.EDITORIAL_STATE_SYSADMIN_ONLY, state=state))
    organization = options.get("organization")
    if organization:
        refusals += _organization_refusals(organization, user, sysadmin)
    for option, limit, setting in above_site_limits(options, settings.site_fetch_options()):
        refusals.append(problem(codes.ABOVE_SITE_LIMIT, option=option, limit=limit, setting=setting))
    return refusals


def _organization_refusals(organization: str, user: Optional[str], sysadmin: bool) -> list[Problem]:
    """Records land in the organization a source names: its saver must be able to create datasets there."""
    found = model.Group.get(organization)
    if found is None or not found.is_organization or found.state != "active":
        return [problem(codes.ORGANIZATION_UNKNOWN, organization=organization)]
    if sysadmin:
        return []
    try:
        tk.check_access("package_create", {"user": user}, {"owner_org": found.id})
    except tk.NotAuthorized:
        return [problem(codes.ORGANIZATION_NOT_ALLOWED, organization=organization)]
    return []
