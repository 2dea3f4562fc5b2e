"""The one config authority of every source type (``passport`` and ``lkod``): an option means the same in both,
and whatever reaches past the saver's organization is a sysadmin's to set.

A source's effective config is judged on every save: its ``validate_config`` judges the config a create or an update
sends, and :func:`package_update` (chained, so ``harvest_source_update``, ``package_update`` and ``package_patch``
of a source alike) makes an update that sends none send the stored one. An option only a sysadmin may set is kept
by whoever else saves the source, unchanged, as long as the source points where it did (its ``url``,
``source_type`` and organization); moving it is a sysadmin's too.
"""
from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan import authz
from ckanext.harvest.model import HarvestSource

from ckanext.passport import settings
from ckanext.passport.catalog.workflow import states
from ckanext.passport.harvest.config import above_site_limits
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

# What says where a source points: a non-sysadmin changing one of them keeps no option a sysadmin set.
PLACE_FIELDS = ("url", "source_type", "owner_org")


@dataclass(frozen=True)
class _Saving:
    """The update of a stored source in progress: who saves it, and the stored options they keep unchanged."""

    user: Optional[str]
    kept: dict[str, Any] = field(default_factory=dict)


# Set by package_update around ckanext-harvest's validation, whose validate_config gets the config text alone.
_SAVING: ContextVar[Optional[_Saving]] = ContextVar("passport_source_saving", default=None)


def checked_config(config: str, errors: list[Problem]) -> str:
    """``config`` when it is valid (``errors``: what its source type's schema finds wrong) and its saver may set
    every option in it; else a ValueError listing each refusal with its code, in the reader's language."""
    if errors:
        refusals = [problem("config.invalid", errors=error) for error in errors]
    else:
        saving = _SAVING.get() or _Saving(_acting_user())
        refusals = _config_refusals(_options(config), saving.user, saving.kept)
    if refusals:
        raise ValueError(_text(refusals))
    return config


@tk.chained_action
def package_update(up: Callable[..., Any], context: dict, data_dict: dict[str, Any]) -> Any:
    """CKAN's package_update; of a harvest source, with its stored config when none is sent, and refused when a
    non-sysadmin moves a source whose config holds options they may not set (``config.retarget_sysadmin_only``)."""
    source = _stored_source(data_dict)
    if source is None:
        return up(context, data_dict)
    tk.check_access("package_update", context, data_dict)
    if "config" not in data_dict and source.config:
        # Absent, ckanext-harvest keeps the source's config but package_update drops the dataset's copy of it,
        # which harvest_source_show reads.
        data_dict = {**data_dict, "config": source.config}
    user = context.get("user") or _acting_user()
    moved = _moved(source, data_dict)
    if moved and not _is_sysadmin(user):
        held = _beyond_rights(_options(data_dict.get("config")), user)
        if held:
            refusal = problem("config.retarget_sysadmin_only", options=", ".join(option for option, _ in held))
            raise tk.ValidationError({moved[0]: [_text([refusal])]})
    token = _SAVING.set(_Saving(user, {} if moved else _options(source.config)))
    try:
        return up(context, data_dict)
    finally:
        _SAVING.reset(token)


def chained_actions() -> dict[str, Any]:
    return {"package_update": package_update}


def _text(refusals: list[Problem]) -> str:
    """Each refusal on its own line: the source form lists them (templates/harvest_source), one per option."""
    translate = reader_translate()
    return "\n".join(f"[{found.code}] {found.message(translate)}" for found in refusals)


def _options(config: Optional[str]) -> dict[str, Any]:
    """A config's options; a stored config that is not a JSON object (saved before it was validated) holds none."""
    try:
        options = json.loads(config) if (config or "").strip() else {}
    except ValueError:
        return {}
    return options if isinstance(options, dict) else {}


def _stored_source(data_dict: dict[str, Any]) -> Optional[HarvestSource]:
    """The harvest source ``data_dict`` updates, or ``None`` when it updates another dataset."""
    package = model.Package.get(data_dict.get("id") or data_dict.get("name") or "")
    if package is None or package.type != "harvest":
        return None
    return HarvestSource.get(package.id)


def _moved(source: HarvestSource, data_dict: dict[str, Any]) -> list[str]:
    """Which of :data:`PLACE_FIELDS` the update changes (an absent one keeps the stored value)."""
    moved = []
    if "url" in data_dict and (data_dict["url"] or "").strip() != (source.url or "").strip():
        moved.append("url")
    if "source_type" in data_dict and data_dict["source_type"] != source.type:
        moved.append("source_type")
    if data_dict.get("owner_org"):
        owner = model.Group.get(data_dict["owner_org"])
        if owner is None or owner.id != model.Package.get(source.id).owner_org:
            moved.append("owner_org")
    return moved


def _acting_user() -> Optional[str]:
    """The logged-in user saving a source, or ``None`` for whoever runs code without one.

    Sources are created by logged-in users through the web and the API; with no user (the command line,
    internal calls) whoever runs the code already administers the site.
    """
    try:
        return getattr(tk.current_user, "name", None) or None
    except RuntimeError:
        return None


def _is_sysadmin(user: Optional[str]) -> bool:
    return user is None or authz.is_sysadmin(user)


def _config_refusals(options: dict[str, Any], user: Optional[str], kept: dict[str, Any]) -> list[Problem]:
    """What in a source's options ``user`` may not set, one finding each with its stable code; an option ``kept``
    unchanged from the stored config is not theirs to answer for, the site's own limits hold for everyone."""
    refusals = [] if _is_sysadmin(user) else [
        found for option, found in _beyond_rights(options, user) if option not in kept or kept[option] != options[option]
    ]
    state = options.get("default_editorial_state", states.DRAFT)
    if states.initial_state_refusal(state, True, settings.initial_states()) == "editorial_state_not_allowed":
        # Skipping review is the site's decision (ckanext.passport.initial_states), not a source's.
        refusals.append(problem("config.editorial_state_not_allowed", state=state))
    organization = options.get("organization")
    if organization and _organization(organization) is None:
        refusals.append(problem("config.organization_unknown", organization=organization))
    for listed in options.get("publisher_organizations") or []:
        if isinstance(listed, str) and _organization(listed) is None:
            refusals.append(problem("config.organization_unknown", organization=listed))
    for option, limit, setting in above_site_limits(options, settings.site_fetch_options()):
        refusals.append(problem("config.above_site_limit", option=option, limit=limit, setting=setting))
    return refusals


def _beyond_rights(options: dict[str, Any], user: Optional[str]) -> list[tuple[str, Problem]]:
    """Each option of ``options`` that only a sysadmin may set, and the refusal a non-sysadmin ``user`` gets for it:
    what reaches past their organization, or makes the portal mail outsiders more than the site does. Options of
    the wrong type are left to the source type's schema."""
    held = []
    if options.get("user"):
        held.append(("user", problem("config.user_sysadmin_only")))
    if options.get("create_organizations"):
        held.append(("create_organizations", problem("config.create_organizations_sysadmin_only")))
    if options.get("allow_private_addresses"):
        held.append(("allow_private_addresses", problem("config.private_addresses_sysadmin_only")))
    state = options.get("default_editorial_state", states.DRAFT)
    if isinstance(state, str) and states.initial_state_refusal(
            state, False, settings.initial_states()) == "editorial_state_sysadmin_only":
        held.append(("default_editorial_state", problem("config.editorial_state_sysadmin_only", state=state)))
    organization = options.get("organization")
    found = _organization(organization) if isinstance(organization, str) and organization else None
    if found is not None and not _may_create_datasets(user, found):
        held.append(("organization", problem("config.organization_not_allowed", organization=organization)))
    if options.get("notify_publisher"):
        held.append(("notify_publisher", problem("config.notify_publisher_sysadmin_only")))
    if options.get("publisher_organizations"):
        held.append(("publisher_organizations", problem("config.publisher_organizations_sysadmin_only")))
    if options.get("iri_hosts"):
        held.append(("iri_hosts", problem("config.iri_hosts_sysadmin_only")))
    drop, limit = options.get("notify_score_drop"), settings.notify_score_drop()
    if isinstance(drop, (int, float)) and not isinstance(drop, bool) and drop < limit:
        held.append(("notify_score_drop", problem("config.notify_score_drop_sysadmin_only", limit=limit)))
    return held


def _organization(name_or_id: str) -> Optional[model.Group]:
    found = model.Group.get(name_or_id)
    return found if found is not None and found.is_organization and found.state == "active" else None


def _may_create_datasets(user: Optional[str], organization: model.Group) -> bool:
    """Records land in the organization a source names: its saver must be able to create datasets there."""
    try:
        tk.check_access("package_create", {"user": user}, {"owner_org": organization.id})
    except tk.NotAuthorized:
        return False
    return True
