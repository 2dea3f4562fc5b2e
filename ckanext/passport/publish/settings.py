"""The publication settings of this portal, read from CKAN's config (declared in ``config/publish.yaml``)."""
from __future__ import annotations

import ckan.plugins.toolkit as tk


def identifier_field() -> str:
    return tk.config.get("ckanext.passport.identifier_field") or "mr_identifier"


def standard_version() -> str:
    return tk.config.get("ckanext.passport.standard_version_url")


def terms_of_use() -> str:
    return (tk.config.get("ckanext.passport.terms_of_use") or "").strip()

