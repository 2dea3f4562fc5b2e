"""A ``passport`` harvest source's configuration: its JSON Schema, readable errors and effective values.

Site-wide defaults come from the ``ckanext.passport.*`` options (read through :mod:`ckanext.passport.settings`);
a source's JSON config overrides them.
"""
from __future__ import annotations

import codecs
import json
from dataclasses import dataclass, field
from typing import Any, Optional

import jsonschema

from ckanext.passport import settings
from ckanext.passport.catalog.workflow import STARTING_STATES
from ckanext.passport.mr.fetch import FetchPolicy

PASSPORT_FORMS = ("meta.json", "meta.xml", "meta.csv", "mr23.csv", "rdfa")
INDEX_COMMITS = ("soft", "hard")

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "registry_url": {"type": "string", "pattern": "^https?://", "maxLength": 2000},
        "formats": {
            "type": "array",
            "items": {"enum": list(PASSPORT_FORMS)},
            "uniqueItems": True,
            "minItems": 1,
        },
        "user_agent": {"type": "string", "minLength": 1, "maxLength": 500},
        "timeout": {"type": "number", "exclusiveMinimum": 0, "maximum": 600},
        "max_file_size": {"type": "integer", "minimum": 1024},
        "encoding": {"type": "string", "minLength": 1, "maxLength": 40},
        "allow_private_addresses": {"type": "boolean"},
        "organization": {"type": "string", "minLength": 1},
        "create_organizations": {"type": "boolean"},
        "default_editorial_state": {"enum": list(STARTING_STATES)},
        "delete_missing": {"type": "boolean"},
        "on_missing": {"enum": ["delete", "withdraw"]},
        "max_delete_ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "fetch_structures": {"type": "boolean"},
        "user": {"type": "string", "minLength": 1},
        "index_commit": {"enum": list(INDEX_COMMITS)},
    },
    "not": {"required": ["organization", "create_organizations"], "properties": {"create_organizations": {"const": True}}},
}

_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# Options a source may only lower: the site's setting bounds what any source may ask of the portal's workers.
SITE_LIMITS = ("timeout", "max_file_size")


def config_errors(text: str) -> list[str]:
    """Readable problems with a source config (empty when it is valid). Never raises."""
    if not (text or "").strip():
        return []
    try:
        data = json.loads(text)
    except ValueError as error:
        return [f"not valid JSON: {error}"]
    errors = []
    for error in sorted(_VALIDATOR.iter_errors(data), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in error.absolute_path)
        if error.validator == "not":
            errors.append("use either 'organization' or 'create_organizations', not both")
        elif error.validator == "additionalProperties":
            errors.append(f"unknown option: {error.message.split(chr(39))[1]}")
        else:
            errors.append(f"{where or 'config'}: {error.message}")
    if isinstance(data, dict) and isinstance(data.get("encoding"), str):
        try:
            codecs.lookup(data["encoding"])
        except LookupError:
            errors.append(f"encoding: unknown encoding {data['encoding']!r}")
    return errors


def above_site_limits(data: dict[str, Any], site: dict[str, Any]) -> list[tuple[str, float, str]]:
    """``(option, site limit, site option)`` for each option of a valid config set above the site's setting;
    ``site`` holds the site's fetch options (:func:`settings.site_fetch_options`)."""
    found = []
    for option in SITE_LIMITS:
        setting = settings.FETCH_OVERRIDES[option]
        limit = settings.site_number(site, setting)
        if option in data and data[option] > limit:
            found.append((option, limit, setting))
    return found


@dataclass(frozen=True)
class HarvestConfig:
    registry_url: str = ""
    formats: tuple[str, ...] = PASSPORT_FORMS
    encoding: str = ""
    organization: str = ""
    create_organizations: bool = False
    default_editorial_state: str = ""
    delete_missing: bool = True
    on_missing: str = "delete"
    max_delete_ratio: float = 0.5
    fetch_structures: bool = False
    user: str = ""
    index_commit: str = "soft"
    policy: FetchPolicy = field(default_factory=FetchPolicy)


def load_config(text: Optional[str], site: dict[str, Any]) -> HarvestConfig:
    """Effective config of a source; ``site`` holds the site's fetch options (:func:`settings.site_fetch_options`)."""
    data: dict[str, Any] = json.loads(text) if (text or "").strip() else {}
    policy = settings.fetch_policy(site, {key: data[key] for key in settings.FETCH_OVERRIDES if key in data})
    return HarvestConfig(
        registry_url=data.get("registry_url", ""),
        formats=tuple(data.get("formats", PASSPORT_FORMS)),
        encoding=data.get("encoding", ""),
        organization=data.get("organization", ""),
        create_organizations=bool(data.get("create_organizations", False)),
        default_editorial_state=data.get("default_editorial_state", ""),
        delete_missing=bool(data.get("delete_missing", True)),
        on_missing=data.get("on_missing", "delete"),
        max_delete_ratio=float(data.get("max_delete_ratio", 0.5)),
        fetch_structures=bool(data.get("fetch_structures", False)),
        user=data.get("user", ""),
        index_commit=data.get("index_commit", "soft"),
        policy=policy,
    )
