"""ckanext-harvest's source form as our users meet it: organizations by their titles, and the Configuration box
saying which keys each of our source types takes, with an example (the keys' meaning, defaults and who may set
them: docs/harvest-source.md).

ckanext-harvest's ``source/new_source_form.html`` lists organizations by their URL names and leaves the box
blank; the organization picker is in no block, so the override (templates/harvest_source/) is a copy of that
form with these changes. Plugins' template folders are searched in the order the plugins are listed and
ckanext-harvest is listed first: the folder goes with the site's ``extra_template_paths``, which come before
every plugin's (after the site's own, so a site's theme still wins).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from ckan.plugins import PluginImplementations
from ckanext.harvest.interfaces import IHarvester

from ckanext.passport import settings, source_types

# Our copy of ckanext-harvest's form, which passport_harvester puts before ckanext-harvest's templates.
TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "harvest_source"

# The page on a source's config (docs/harvest-source.md) in the built documentation site (settings.docs_url).
DOCS_PAGE = "harvest-source/"


def _our_harvester(source_type: str) -> Optional[Any]:
    """The loaded harvester of a source type, asked by its ``info()["name"]`` as ckanext-harvest's own helpers
    ask; ``None`` for a type not loaded, or one that declares no config schema (another extension's)."""
    for harvester in PluginImplementations(IHarvester):
        if harvester.info()["name"] == source_type and hasattr(harvester, "config_schema"):
            return harvester
    return None


def config_help(source_type: str) -> dict[str, Any]:
    """What the form says about one of our source types' config: its keys and an example, as its harvester
    declares them (``config_schema``, ``config_example``); ``{}`` for a type of another extension."""
    harvester = _our_harvester(source_type)
    if harvester is None:
        return {}
    return {
        "keys": list(harvester.config_schema()["properties"]),
        "example": json.dumps(harvester.config_example(), ensure_ascii=False),
        "docs_url": settings.docs_page_url(DOCS_PAGE),
    }


def placeholder_example() -> str:
    """The Configuration box's example: the MR type's, whatever order the plugins list the types in."""
    return config_help(source_types.PASSPORT).get("example", "")


def helpers() -> dict[str, Any]:
    return {"passport_source_config_help": config_help, "passport_source_config_example": placeholder_example}
