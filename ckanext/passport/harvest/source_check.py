"""An MR source saved through its form is read once, at once: when its address leads to no registry, the admin is
told on the page the form leads to, rather than finding it first among its first job's errors.

The source is read as its harvest reads it (the source's own fetch policy, through the one guarded fetch), every
fetch ending by :data:`SAVE_CHECK_SECONDS`; only the registry is fetched, no passport. The source is saved
whatever the check finds: a site may be down for a moment, and the admin may know better.
"""
from __future__ import annotations

from typing import Any, Optional

import ckan.plugins.toolkit as tk
from flask import has_request_context, request

from ckanext.passport import settings, source_types
from ckanext.passport.harvest.config import load_config
from ckanext.passport.harvest.findings import line
from ckanext.passport.harvest.mr_harvester import open_registry
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.model import Problem

SAVE_CHECK_SECONDS = 10


def registry_problem(source: dict[str, Any]) -> Optional[Problem]:
    """Why the source's address leads to no registry (its first problem), or ``None`` when a registry answers."""
    config = load_config(source.get("config"), settings.site_fetch_options())
    fetched, problems = open_registry(source.get("url") or "", config, source["id"],
                                      Deadline.after(SAVE_CHECK_SECONDS))
    if fetched is not None:
        return None
    return next(iter(problems), None)


def after_source_saved(source: dict[str, Any]) -> None:
    """Flash what reading a passport source's registry found, when it was saved from a page (not the API)."""
    if source.get("type") != "harvest" or source.get("source_type") != source_types.PASSPORT:
        return
    if not has_request_context() or request.path.startswith("/api/"):
        return
    found = registry_problem(source)
    if found is not None:
        tk.h.flash_error(tk._("The source is saved, but its address leads to no MR registry yet: {reason}").format(
            reason=line(found, translate=reader_translate())))
