"""Corrected MR files of a harvested passport: their links in a report, and their bytes.

A passport is corrected from what the harvest read (the object's content), never fetched again, with
``mr.corrections``: the links name the object that read it, so a link keeps giving the same file after later
harvests, and the report lists the corrections beside the links.
"""
from __future__ import annotations

from typing import Optional

import ckan.plugins.toolkit as tk
from ckanext.harvest.model import HarvestObject

from ckanext.passport.harvest import stored
from ckanext.passport.mr import serialize
from ckanext.passport.mr.corrections import FIXED_FILES, correct, corrected_file
from ckanext.passport.mr.model import Passport, Problem

from .report import Fixer

# The blueprint endpoint serving one fixed file (harvest.views).
ENDPOINT = "passport_harvest_conformance.fixed_file"


def fixer(source_name: str) -> Fixer:
    """Fixed-file links (absolute: API readers take them elsewhere) and corrections of a source's passports."""

    # One route build per report, not three per passport: ids are UUIDs and names fixed, so they fill it in.
    pattern = tk.url_for(ENDPOINT, source=source_name, object_id="OBJECT-ID", name="FILE-NAME", _external=True)

    def fix(object_id: str, passport: Passport, url: str) -> tuple[dict[str, str], list[Problem]]:
        _, corrections = correct(passport, url)
        links = {name: pattern.replace("OBJECT-ID", object_id).replace("FILE-NAME", name) for name in FIXED_FILES}
        return links, corrections

    return fix


def fixed_bytes(harvest_object: HarvestObject, name: str) -> Optional[bytes]:
    """File ``name`` of the passport ``harvest_object`` read, corrected; ``None`` if it read none or no such file."""
    content = stored.MrContent.from_json(harvest_object.content or "{}")
    if not content.read:
        return None
    url = stored.extras_of(harvest_object).get(stored.PASSPORT_URL) or ""
    return corrected_file(serialize.passport_from_jsonable(content.passport), url, name)
