"""Who may start the openness check."""
from __future__ import annotations

from typing import Any

import ckan.plugins.toolkit as tk


def openness_check_auth(context: dict, data_dict: dict) -> dict[str, Any]:
    """Curators (who may edit the dataset) and sysadmins."""
    try:
        tk.check_access("package_update", context, {"id": data_dict.get("id")})
    except tk.NotAuthorized:
        return {"success": False, "msg": tk._("Only the dataset's curators may run the openness check")}
    return {"success": True}


def auth_functions() -> dict[str, Any]:
    return {"passport_openness_check": openness_check_auth}
