"""An ``lkod`` harvest source's configuration: its JSON Schema and effective values.

The options it shares with a ``passport`` source (fetch limits, private addresses, the new records' state, what
happens to a dataset the catalog no longer lists) are that source's, rule for rule: their schema is taken from
:mod:`ckanext.passport.harvest.config`, their errors are its ``config.reason_*`` findings, and who may set them is
the config authority of every source type (``harvest.config_authority``). ``rdf_format`` is ckanext-dcat's option,
narrowed to the two syntaxes of DCAT-AP-CZ documents.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

import jsonschema

from ckanext.passport import settings

from ckanext.passport.harvest import config as harvest_config
from ckanext.passport.mr.fetch import FetchPolicy
from ckanext.passport.mr.model import Problem

JSON_LD = "json-ld"
TURTLE = "turtle"
# ckanext-dcat's rdf_format takes rdflib's names and media types; of them, the ones of JSON-LD and Turtle.
RDF_FORMATS = {"json-ld": JSON_LD, "application/ld+json": JSON_LD, "turtle": TURTLE, "text/turtle": TURTLE}

SHARED_OPTIONS = (
    "user_agent",
    "timeout",
    "max_file_size",
    "allow_private_addresses",
    "default_editorial_state",
    "delete_missing",
    "on_missing",
    "max_delete_ratio",
    "restore_deleted",
    "index_commit",
)

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "rdf_format": {"enum": list(RDF_FORMATS)},
        # Hosts besides the catalog's own whose dataset IRIs the source may take (a sysadmin's option).
        "iri_hosts": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 253},
                      "uniqueItems": True},
        **{option: harvest_config.SCHEMA["properties"][option] for option in SHARED_OPTIONS},
    },
}

_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def config_errors(text: str) -> list[Problem]:
    """What is wrong with an ``lkod`` source config, one ``config.reason_*`` finding each (empty when valid)."""
    return harvest_config.config_errors(text, _VALIDATOR)


@dataclass(frozen=True)
class LkodConfig:
    rdf_format: str = ""  # JSON_LD or TURTLE; empty: the response's Content-Type decides
    iri_hosts: tuple[str, ...] = ()
    default_editorial_state: str = ""
    delete_missing: bool = True
    on_missing: str = "delete"
    max_delete_ratio: float = 0.5
    restore_deleted: bool = False
    index_commit: str = "soft"
    policy: FetchPolicy = field(default_factory=FetchPolicy)


def load_config(text: Optional[str], site: dict[str, Any]) -> LkodConfig:
    """Effective config of a source; ``site`` holds the site's fetch options (:func:`settings.site_fetch_options`)."""
    data: dict[str, Any] = json.loads(text) if (text or "").strip() else {}
    policy = settings.fetch_policy(site, {key: data[key] for key in settings.FETCH_OVERRIDES if key in data})
    return LkodConfig(
        rdf_format=RDF_FORMATS.get(data.get("rdf_format", ""), ""),
        iri_hosts=tuple(host.strip().lower() for host in data.get("iri_hosts", ())),
        default_editorial_state=data.get("default_editorial_state", ""),
        delete_missing=bool(data.get("delete_missing", True)),
        on_missing=data.get("on_missing", "delete"),
        max_delete_ratio=float(data.get("max_delete_ratio", 0.5)),
        restore_deleted=bool(data.get("restore_deleted", False)),
        index_commit=data.get("index_commit", "soft"),
        policy=policy,
    )
