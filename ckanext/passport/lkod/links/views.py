"""Template helpers: a record's link check on its page (its curators only) and the sum per organization on
``/lkod/`` (everyone: the links of listed records are public)."""
from __future__ import annotations

from typing import Any, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport.mr.urls import web_link

from . import summary, targets


def field_label(field: str) -> str:
    labels = {
        targets.DOWNLOAD_URL: tk._("Download URL"),
        targets.ACCESS_URL: tk._("Access URL (data service)"),
        targets.CONFORMS_TO: tk._("Schema"),
        targets.DOCUMENTATION: tk._("Documentation"),
        targets.TERMS_OF_USE: tk._("Terms of use"),
    }
    return labels.get(field, field)


def record_link_check(pkg_dict: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The record's latest link check for whoever may edit it, ``None`` for everyone else and before any check."""
    user = tk.current_user.name if tk.current_user and tk.current_user.is_authenticated else ""
    try:
        found = tk.get_action("passport_link_check_show")({"user": user}, {"id": pkg_dict.get("id")})
    except (tk.NotAuthorized, tk.ObjectNotFound):
        return None
    if not found["links"]:
        return None
    for link in found["links"]:
        link["field_label"], link["href"] = field_label(link["field"]), web_link(link["url"])
    return found


def organization_sums() -> dict[str, Any]:
    """Broken links of listed records per organization, and their total."""
    organizations = summary.broken_by_organization()
    return {"organizations": organizations, "broken": sum(item.broken for item in organizations)}


def helpers() -> dict[str, Any]:
    return {"passport_link_check": record_link_check, "passport_link_check_sums": organization_sums}
