"""Who sees a harvest object: whoever may see its source.

ckanext-harvest lets anyone read any object (``harvest_object_show``: its content as fetched, its errors, its source
and job), a private source's included. An object is its source's: its auth function is chained to ask the source's
(``harvest_source_show``, CKAN's ``package_show`` of the source).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.harvest.model import HarvestObject


def _source_id(data_dict: dict[str, Any]) -> Optional[str]:
    """The source of the object the action would show (by ``id``, else the current object of ``dataset_id``)."""
    if data_dict.get("id"):
        found = model.Session.query(HarvestObject.harvest_source_id).filter(HarvestObject.id == data_dict["id"])
    elif data_dict.get("dataset_id"):
        package = model.Package.get(data_dict["dataset_id"])
        if package is None:
            return None
        found = (model.Session.query(HarvestObject.harvest_source_id)
                 .filter(HarvestObject.package_id == package.id, HarvestObject.current.is_(True)))
    else:
        return None
    row = found.first()
    return row[0] if row else None


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def harvest_object_show(next_auth: Callable[..., Any], context: dict[str, Any],
                        data_dict: dict[str, Any]) -> dict[str, Any]:
    source_id = _source_id(data_dict or {})
    if source_id is not None:
        try:
            tk.check_access("harvest_source_show", dict(context), {"id": source_id})
        except tk.NotAuthorized:
            return {"success": False, "msg": tk._("Not authorized to see this harvest source")}
    # An object not found is the action's to say (ObjectNotFound).
    return next_auth(context, data_dict)


def chained_auth_functions() -> dict[str, Callable[..., Any]]:
    return {"harvest_object_show": harvest_object_show}
