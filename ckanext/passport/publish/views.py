"""The ``/opendata/`` blueprint: the registry page and files, passport pages and files, permanent links.

Everything is looked up as the anonymous visitor (``search``): what they may not see answers 404.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable, Iterator

import ckan.plugins.toolkit as tk
from ckan.lib.search import SearchError, SolrConnectionError
from ckan.views.dataset import read as dataset_read
from flask import Blueprint, Response, redirect, request, stream_template

from ckanext.passport import settings

from . import exports, links, search

opendata = Blueprint(links.BLUEPRINT, __name__, url_prefix="/opendata")
log = logging.getLogger(__name__)


def _visible(identifier: str) -> dict[str, Any]:
    dataset = search.find_dataset(identifier)
    if dataset is None:
        tk.abort(404, tk._("Dataset not found"))
    return dataset


class Listing:
    """The entries as the streamed page iterates them. A search failing once the page has begun (the index gone
    mid-list) ends the list and sets ``failed``: the page says so and still ends with its footer, never cut."""

    def __init__(self, entries: Iterable[Any]) -> None:
        self._entries = entries
        self.failed = False

    def __iter__(self) -> Iterator[Any]:
        try:
            yield from self._entries
        except (SearchError, SolrConnectionError) as error:
            log.error("The open data registry page stopped listing: %r", error.args)
            self.failed = True


def _query_error(q: str) -> bool:
    """Whether Solr refuses the search ``q`` (``title:(``, ``AND OR NOT``, ``{!lucene}x``): asked before the page
    is streamed, so the reader gets the whole page with a message, as CKAN's ``/dataset/`` gives it."""
    if not q:
        return False
    try:
        search.search(q=q, rows=0)
    except SearchError as error:
        log.info("Open data registry search rejected: %r", error.args)
        return True
    return False


@opendata.route("/", strict_slashes=False)
def registry() -> Response:
    """The MR registry page, listed whole (harvesters read its RDFa) and streamed as it renders."""
    q = request.args.get("q", "").strip()
    facet = search.FORMAT_INDEX_FIELD
    summary = search.search(q="*:*", rows=0, **{"facet.field": f'["{facet}"]', "facet.limit": -1})
    formats = sorted((item for item in summary["search_facets"].get(facet, {}).get("items", []) if item["name"]),
                     key=lambda item: (-item["count"], item["name"]))
    query_error = _query_error(q)
    page = stream_template(
        "opendata/registry.html",
        entries=Listing(() if query_error else exports.iter_entries(q)),
        query_error=query_error,
        q=q,
        count=summary["count"],
        formats=formats,
        terms_of_use=settings.terms_of_use(),
        standard_version=settings.standard_version_url(),
        registry_url=links.registry_url(),
        registry_files=[(form, links.registry_file_url(form)) for form in links.REGISTRY_FORMS],
    )
    return Response(page, content_type="text/html; charset=utf-8")


@opendata.route("/<any(" + ", ".join(f'"{f}"' for f in links.REGISTRY_FORMS) + "):form>")
def registry_file(form: str) -> Response:
    return exports.registry_response(form)


@opendata.route("/<identifier>/")
@opendata.route("/<identifier>")
def passport(identifier: str) -> Any:
    """The MR passport page URL renders the dataset page, which carries the passport in RDFa."""
    dataset = _visible(identifier)
    return dataset_read(dataset.get("type") or "dataset", dataset["name"])


@opendata.route("/<identifier>/<any(" + ", ".join(f'"{f}"' for f in links.PASSPORT_FORMS) + "):form>")
def passport_file(identifier: str, form: str) -> Response:
    return exports.passport_response(_visible(identifier), form)


@opendata.route("/<identifier>/<file_name>")
def version_file(identifier: str, file_name: str) -> Response:
    """Permanent ``data-…-structure-….<ext>`` and ``structure-….<ext>`` links, redirecting to the files."""
    source = links.version_source(_visible(identifier), file_name)
    if not source:
        tk.abort(404, tk._("Version not found"))
    return redirect(source, code=302)


def blueprints() -> list[Blueprint]:
    return [opendata]
