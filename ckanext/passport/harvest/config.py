"""A ``passport`` harvest source's configuration: its JSON Schema, readable errors and effective values.

Site-wide defaults come from the ``ckanext.passport.*`` options (read through :mod:`ckanext.passport.settings`);
a source's JSON config overrides them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

import jsonschema

from ckanext.passport import settings
from ckanext.passport.catalog.workflow.states import STARTING_STATES
from ckanext.passport.mr.decode import text_codec
from ckanext.passport.mr.fetch import FetchPolicy
from ckanext.passport.mr.forms import forms
from ckanext.passport.mr.limits import ReadLimits
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

PASSPORT_FORMS = forms(source_may_ask=True)
INDEX_COMMITS = ("soft", "hard")

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "registry_url": {"type": "string", "pattern": "^https?://", "maxLength": 2000},
        "formats": {
            "type": "array",
            # Plain text: jsonschema quotes the enum in its message, which would show Form members' repr.
            "items": {"enum": [form.value for form in PASSPORT_FORMS]},
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
        # The organizations (names or ids) whose INNs the source may harvest besides its own: an aggregator's.
        "publisher_organizations": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
        "default_editorial_state": {"enum": list(STARTING_STATES)},
        "delete_missing": {"type": "boolean"},
        "on_missing": {"enum": ["delete", "withdraw"]},
        "max_delete_ratio": {"type": "number", "minimum": 0, "maximum": 1},
        # A listed entry whose record someone deleted in the portal is brought back (else it stays deleted).
        "restore_deleted": {"type": "boolean"},
        "fetch_structures": {"type": "boolean"},
        "check_data": {"type": "boolean"},
        "user": {"type": "string", "minLength": 1},
        "index_commit": {"enum": list(INDEX_COMMITS)},
        # Conformance mails (conformance.notices): each overrides its site option.
        "notify": {"type": "boolean"},
        "notify_score_drop": {"type": "number", "minimum": 0, "maximum": 100},
        "notify_publisher": {"type": "boolean"},
    },
    "not": {"required": ["organization", "create_organizations"], "properties": {"create_organizations": {"const": True}}},
}

_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
# Options a source may only lower: the site's setting bounds what any source may ask of the portal's workers.
SITE_LIMITS = ("timeout", "max_file_size")


def config_errors(text: str, validator: jsonschema.Draft202012Validator = _VALIDATOR) -> list[Problem]:
    """What is wrong with a source config, one ``config.reason_*`` finding each (empty when it is valid).

    Never raises. Each becomes the ``errors`` of a ``config.invalid`` refusal, in the reader's language.
    ``validator`` holds the source type's schema (this one's by default; the ``lkod`` type has its own).
    """
    if not (text or "").strip():
        return []
    try:
        data = json.loads(text)
    except ValueError as error:
        return [problem("config.reason_not_json", row=getattr(error, "lineno", 1), column=getattr(error, "colno", 1))]
    if not isinstance(data, dict):
        return [problem("config.reason_not_object")]
    found = [_reason(error) for error in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))]
    # Only a text encoding: rot13, base64, zlib_codec and uu are codecs too, which bytes.decode refuses.
    if isinstance(data.get("encoding"), str) and text_codec(data["encoding"]) is None:
        found.append(problem("config.reason_unknown_encoding", encoding=data["encoding"]))
    return found


def _reason(error: jsonschema.ValidationError) -> Problem:
    option = ".".join(str(part) for part in error.absolute_path)
    rule = error.validator_value
    if not option:
        if error.validator == "not":
            return problem("config.reason_organization_or_create")
        unknown = sorted(set(error.instance) - set(error.schema["properties"]))
        return problem("config.reason_unknown_option", option=", ".join(unknown))
    if error.validator == "enum":
        return problem("config.reason_not_one_of", option=option, choices=", ".join(map(str, rule)))
    if error.validator == "type":
        return problem("config.reason_wrong_type", option=option, kind=rule)
    if error.validator == "minimum":
        return problem("config.reason_too_small", option=option, limit=rule)
    if error.validator == "exclusiveMinimum":
        return problem("config.reason_not_above", option=option, limit=rule)
    if error.validator == "maximum":
        return problem("config.reason_too_large", option=option, limit=rule)
    if error.validator == "pattern":
        return problem("config.reason_not_http", option=option)
    return problem("config.reason_not_allowed", option=option)


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
    publisher_organizations: tuple[str, ...] = ()
    default_editorial_state: str = ""
    delete_missing: bool = True
    on_missing: str = "delete"
    max_delete_ratio: float = 0.5
    restore_deleted: bool = False
    fetch_structures: bool = False
    check_data: bool = False
    user: str = ""
    index_commit: str = "soft"
    # None: the site's option (settings.notify_sources, notify_score_drop, notify_publishers).
    notify: Optional[bool] = None
    notify_score_drop: Optional[float] = None
    notify_publisher: Optional[bool] = None
    policy: FetchPolicy = field(default_factory=FetchPolicy)
    limits: ReadLimits = field(default_factory=ReadLimits)


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
        publisher_organizations=tuple(data.get("publisher_organizations", ())),
        default_editorial_state=data.get("default_editorial_state", ""),
        delete_missing=bool(data.get("delete_missing", True)),
        on_missing=data.get("on_missing", "delete"),
        max_delete_ratio=float(data.get("max_delete_ratio", 0.5)),
        restore_deleted=bool(data.get("restore_deleted", False)),
        fetch_structures=bool(data.get("fetch_structures", False)),
        check_data=bool(data.get("check_data", False)),
        user=data.get("user", ""),
        index_commit=data.get("index_commit", "soft"),
        notify=data.get("notify"),
        notify_score_drop=data.get("notify_score_drop"),
        notify_publisher=data.get("notify_publisher"),
        policy=policy,
        limits=settings.read_limits(site),
    )
