"""``passport_link_check_show``: a record's links as its latest check found them, for whoever may edit the record,
each finding in the reader's language."""
from __future__ import annotations

from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Translate
from ckanext.passport.mr.problems import stored_problem

from . import model as link_model
from .probe import BROKEN, UNCHECKED


@tk.side_effect_free
def passport_link_check_show(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """A record's links as its latest link check found them. The record's curators (who may edit it).

    :param id: the dataset's id or name
    :returns: ``id``, ``checked_at`` (the latest check, ISO; ``None`` before the first), ``broken`` and
        ``unchecked`` (counts), ``links``: each with ``url``, ``field`` (download_url, access_url, conforms_to,
        documentation, terms_of_use), ``resource_id`` (``None`` for the record's own), ``resource_name``,
        ``status`` (ok, broken, unchecked), ``code`` (``links.*``, ``None`` when ok), ``message`` (in the
        reader's language), ``http_status`` and ``checked_at``
    """
    package = model.Package.get(data_dict.get("id") or "")
    if package is None or package.state == "deleted":
        raise tk.ObjectNotFound(tk._("Dataset not found"))
    tk.check_access("passport_link_check_show", context, {"id": package.id})
    return record_links(package, reader_translate())


def record_links(package: model.Package, translate: Translate) -> dict[str, Any]:
    names = {resource.id: resource.name or resource.id for resource in package.resources_all}
    links = [_link(row, names, translate) for row in link_model.of_record(package.id)]
    checked: Optional[str] = max((link["checked_at"] for link in links), default=None)
    return {
        "id": package.id,
        "checked_at": checked,
        "broken": sum(1 for link in links if link["status"] == BROKEN),
        "unchecked": sum(1 for link in links if link["status"] == UNCHECKED),
        "links": links,
    }


def _link(row: link_model.LinkCheck, names: dict[str, str], translate: Translate) -> dict[str, Any]:
    stored = row.stored_finding()
    return {
        "url": row.url,
        "field": row.field,
        "resource_id": row.resource_id,
        "resource_name": names.get(row.resource_id) if row.resource_id else None,
        "status": row.status,
        "code": row.code,
        "message": stored_problem(stored).message(translate) if stored else None,
        "http_status": row.http_status,
        "checked_at": row.checked_at.isoformat(),
    }


def passport_link_check_show_auth(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Whoever may edit the record: its curators, and sysadmins."""
    try:
        tk.check_access("package_update", dict(context), {"id": data_dict.get("id")})
    except tk.NotAuthorized:
        return {"success": False, "msg": tk._("Only the record's curators may see its link check")}
    return {"success": True}


def actions() -> dict[str, Any]:
    return {"passport_link_check_show": passport_link_check_show}


def auth_functions() -> dict[str, Any]:
    return {"passport_link_check_show": passport_link_check_show_auth}
