"""Permanent MR links: ``/opendata/<identifier>/`` and its ``meta.*``, data and structure version files.

A version's file name is built from the version names the mapping gives a resource, so the name in an
export and the name a request asks for are computed by the same function and always agree.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Optional
from urllib.parse import urlsplit

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.catalog.record.mapping import PublishOptions, dataset_to_passport
from ckanext.passport.mr.forms import forms
from ckanext.passport.mr.model import DataVersion, Passport, StructureVersion
from ckanext.passport.mr.writers.passport import data_key, structure_key

BLUEPRINT = "passport_publish"
PASSPORT_FORMS = forms(passport_reader=True, writer=True)
REGISTRY_FORMS = forms(registry_reader=True, writer=True)
_EXTENSION = re.compile(r"\.([A-Za-z0-9]{1,10})$")


def _permanent(view: str, **values: str) -> str:
    # Without locale="default", CKAN prefixes the page's language (/ru/opendata/…): a record's identity and its
    # files' links would change with the language its page was read in.
    return tk.url_for(f"{BLUEPRINT}.{view}", _external=True, locale="default", **values)


def passport_url(identifier: str) -> str:
    return _permanent("passport", identifier=identifier)


def passport_file_url(identifier: str, form: str) -> str:
    return _permanent("passport_file", identifier=identifier, form=form)


def registry_url() -> str:
    return _permanent("registry")


def registry_file_url(form: str) -> str:
    return _permanent("registry_file", form=form)


def extension(format_: str, source: str) -> str:
    """The file extension of a version: its format, else the one of its URL, else ``bin``."""
    if re.fullmatch(r"[A-Za-z0-9]{1,10}", format_ or ""):
        return format_.lower()
    found = _EXTENSION.search(urlsplit(source or "").path)
    return found.group(1).lower() if found else "bin"


def data_file_name(version: DataVersion) -> str:
    return f"{data_key(version)}.{extension(version.format, version.source)}"


def structure_file_name(version: StructureVersion) -> str:
    return f"{structure_key(version)}.{extension(version.format, version.source)}"


def _version_url(identifier: str, file_name: str) -> str:
    return _permanent("version_file", identifier=identifier, file_name=file_name)


def listing_options() -> PublishOptions:
    """How this portal names and lists its passports (identifier field, standard), without version links:
    what lists a passport (the registry, the index) shows no version, so none is made."""
    return PublishOptions(identifier_field=settings.identifier_field(), standard_version=settings.standard_version_url())


def publish_options() -> PublishOptions:
    """How this portal publishes a passport: as listed, with its versions behind permanent links."""
    return replace(
        listing_options(),
        data_link=lambda identifier, version: _version_url(identifier, data_file_name(version)),
        structure_link=lambda identifier, version: _version_url(identifier, structure_file_name(version)),
    )


def published_passport(dataset: dict[str, Any]) -> Passport:
    """The passport of a dataset as this portal publishes it (permanent version links)."""
    return dataset_to_passport(dataset, publish_options())


def listed_passport(dataset: dict[str, Any], options: Optional[PublishOptions] = None) -> Passport:
    """The passport of a dataset as far as a listing shows it; ``options`` from :func:`listing_options`, read
    once for a whole listing."""
    return dataset_to_passport(dataset, options or listing_options())


def is_publishable(passport: Passport) -> bool:
    """MR publishes a dataset with its data and a description of their structure; both schemas require them."""
    return bool(passport.data_versions and passport.structure_versions)


def version_source(dataset: dict[str, Any], file_name: str) -> Optional[str]:
    """Where the version file ``file_name`` of the dataset really is, if it has such a version."""
    passport = dataset_to_passport(dataset, PublishOptions(identifier_field=settings.identifier_field()))
    for data in passport.data_versions:
        if data_file_name(data) == file_name:
            return data.source
    for structure in passport.structure_versions:
        if structure_file_name(structure) == file_name:
            return structure.source
    return None
