"""Passport files and streamed registries as HTTP responses: content types, file names, conditional GET.

Passports are small: their ETag is a digest of the bytes, exact whatever changed (an organization's title
feeds ``creator``). Registries are streamed and never held whole, so their validators come from what
changes them: the visible dataset count, the newest modification and the settings that shape every row.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any, Iterator, Optional

from flask import Response, request, stream_with_context

from ckanext.passport import settings
from ckanext.passport.catalog.record.mapping import PublishOptions
from ckanext.passport.mr.forms import TRAITS, Form
from ckanext.passport.mr.model import RegistryEntry
from ckanext.passport.mr.writers.passport import write_passport
from ckanext.passport.mr.writers.registry import STREAMS

from . import links, search

def content_type(form: str) -> str:
    return TRAITS[Form(form)].media_type


def passport_response(dataset: dict[str, Any], form: str) -> Response:
    passport = links.published_passport(dataset)
    body = write_passport(passport, form)
    response = Response(body, content_type=content_type(form))
    response.set_etag(hashlib.sha256(body).hexdigest())
    return _finish(response, form, modified_time(dataset.get("metadata_modified")))


def registry_entry(dataset: dict[str, Any], options: Optional[PublishOptions] = None) -> RegistryEntry:
    passport = links.listed_passport(dataset, options)
    return RegistryEntry(
        identifier=passport.identifier,
        title=passport.title,
        link=links.passport_url(passport.identifier),
        format=passport.format,
    )


def iter_entries(q: str = "") -> Iterator[RegistryEntry]:
    options = links.listing_options()
    return (registry_entry(dataset, options) for dataset in search.iter_datasets(q))


def registry_response(form: str) -> Response:
    count, newest = search.freshness()
    standard = settings.standard_version_url()
    tag = hashlib.sha256(
        "\n".join((form, str(count), newest or "", standard, settings.identifier_field(), links.registry_url()))
        .encode("utf-8")
    ).hexdigest()
    chunks = (_encoded(chunk) for chunk in STREAMS[form](iter_entries(), standard))
    response = Response(stream_with_context(chunks), content_type=content_type(form))
    response.set_etag(tag)
    return _finish(response, form, modified_time(newest))


def _finish(response: Response, file_name: str, modified: Optional[dt.datetime]) -> Response:
    response.headers["Content-Disposition"] = f'inline; filename="{file_name}"'
    if modified is not None:
        response.last_modified = modified
    # Portal pages change with the catalog; let caches keep the copy but ask before each use.
    response.cache_control.no_cache = True
    return response.make_conditional(request)


def modified_time(text: Optional[str]) -> Optional[dt.datetime]:
    """CKAN's naive UTC ``metadata_modified`` as an aware datetime, for ``Last-Modified``."""
    if not text:
        return None
    try:
        value = dt.datetime.fromisoformat(text.rstrip("Z"))
    except ValueError:
        return None
    return value.replace(tzinfo=dt.timezone.utc)


def _encoded(chunk: str | bytes) -> bytes:
    return chunk if isinstance(chunk, bytes) else chunk.encode("utf-8")
