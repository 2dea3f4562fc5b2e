"""The stored result's guard on the resource's ``openness_check`` field."""
from __future__ import annotations

from typing import Any

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing

from .assessment import FIELD


def keep_stored_result(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Resource edits never set the result: whatever is sent, the stored one (or none) is kept."""
    resource_id = data.get(key[:-1] + ("id",))
    resource = model.Resource.get(resource_id) if isinstance(resource_id, str) and resource_id else None
    stored = (resource.extras or {}).get(FIELD) if resource is not None else None
    if stored is None or stored is missing:
        data.pop(key, None)
        raise tk.StopOnError
    data[key] = stored


def validators() -> dict[str, Any]:
    return {"passport_openness_guard": keep_stored_result}
