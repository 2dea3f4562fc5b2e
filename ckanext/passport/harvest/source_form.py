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
from typing import Any

TEMPLATES = Path(__file__).resolve().parents[1] / "templates" / "harvest_source"

# A short example per source type: the placeholder of the box and the help's example. Each is a valid config
# (tests/harvester/test_source_form.py).
EXAMPLES: dict[str, dict[str, Any]] = {
    "passport": {"formats": ["meta.json", "meta.csv"], "on_missing": "withdraw", "fetch_structures": True},
    "lkod": {"rdf_format": "turtle", "on_missing": "withdraw"},
}

DOCS_PAGE = "docs/harvest-source.md"


def override_source_form(config: Any) -> None:
    """Put our source form before ckanext-harvest's (see the module's note)."""
    folder = str(TEMPLATES)
    paths = [p for p in (config.get("extra_template_paths") or "").split(",") if p]
    if folder not in paths:
        config["extra_template_paths"] = ",".join(paths + [folder])


def _schema(source_type: str) -> dict[str, Any]:
    if source_type == "lkod":
        from ckanext.passport.lkod import harvest_config  # the lkod type's config builds on this room's
    else:
        from . import config as harvest_config
    return harvest_config.SCHEMA


def config_help(source_type: str) -> dict[str, Any]:
    """What the form says about one of our source types' config: its keys and an example; ``{}`` for a type of
    another extension."""
    if source_type not in EXAMPLES:
        return {}
    return {
        "keys": list(_schema(source_type)["properties"]),
        "example": json.dumps(EXAMPLES[source_type], ensure_ascii=False),
        "docs": DOCS_PAGE,
    }


def helpers() -> dict[str, Any]:
    return {"passport_source_config_help": config_help}
