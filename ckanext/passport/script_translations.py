"""CKAN's JavaScript messages in a language CKAN files under its region: Czech is ``cs_CZ`` in CKAN, ``cs`` here.

CKAN serves a page's JavaScript messages (upload, link, remove, confirm, "no matches found"…) from
``/api/i18n/<locale>``: the file it built for that locale from every catalog in a folder of that name. CKAN's Czech
is in ``cs_CZ``, so the file of ``cs`` holds only our messages and the resource form's buttons were English on
``/cs/`` pages. For such a locale this route answers first (a rule without a variable outranks CKAN's
``/api/i18n/<lang>``) with CKAN's regional messages and ours over them.
"""
from __future__ import annotations

import json
import os
from typing import Any, Optional

import ckan.plugins.toolkit as tk
from ckan.lib import i18n
from flask import Blueprint, Response


def regional_catalog(locale: str) -> Optional[str]:
    """The locale of CKAN's own catalog for ``locale`` when CKAN has none under that name but exactly one under
    its region (``cs`` → ``cs_CZ``); ``None`` otherwise."""
    folder = i18n.get_ckan_i18n_dir()
    if os.path.isdir(os.path.join(folder, locale)):
        return None
    regional = [name for name in os.listdir(folder) if name.startswith(f"{locale}_")]
    return regional[0] if len(regional) == 1 else None


def _messages(locale: str) -> dict[str, Any]:
    path = os.path.join(i18n.get_js_translations_dir(), f"{locale}.js")
    try:
        with open(path, encoding="utf-8") as built:
            return json.load(built)
    except (OSError, ValueError):
        return {}


def _served(locale: str, regional: str) -> Response:
    merged = _messages(regional) | _messages(locale)
    return Response(json.dumps(merged, ensure_ascii=False), mimetype="application/json")


def blueprints() -> list[Blueprint]:
    blueprint = Blueprint("passport_script_translations", __name__)
    for locale in {str(code) for code in tk.config.get("ckan.locales_offered") or []}:
        regional = regional_catalog(locale)
        if regional is not None:
            blueprint.add_url_rule(f"/api/i18n/{locale}", f"messages_{locale}",
                                   lambda locale=locale, regional=regional: _served(locale, regional))
    return [blueprint]
