"""An unowned record is its curator's: whoever created it (``states.is_curator``), or a sysadmin.

CKAN lets any signed-in user edit a dataset of no organization while ``ckan.auth.create_unowned_dataset`` and
``create_dataset_if_not_in_organization`` are on, and an editor of any organization whatever they say; on a portal
of many organizations that is everyone's record. Updates, patches, deletions and the resource actions all end in
``package_update``'s check (the workflow's transitions ask ``states.is_curator`` themselves); a collaborator CKAN
lets edit the record still may.
"""
from __future__ import annotations

from typing import Any, Callable

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.logic.auth import get_package_object

from . import states


def _collaborator(user_name: str, package: model.Package) -> bool:
    user = model.User.get(user_name) if user_name else None
    return (
        user is not None
        and bool(authz.check_config_permission("allow_dataset_collaborators"))
        and authz.user_is_collaborator_on_dataset(user.id, package.id, ["admin", "editor"])
    )


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def package_update(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    package = get_package_object(context, data_dict)
    user = context.get("user") or ""
    if package.owner_org or states.is_curator(user, package) or _collaborator(user, package):
        return next_auth(context, data_dict)
    return {"success": False, "msg": tk._("Only whoever created a record of no organization may change it")}


def chained_auth_functions() -> dict[str, Callable[..., Any]]:
    return {"package_update": package_update}
