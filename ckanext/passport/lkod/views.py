"""The ``/lkod/`` blueprint: the DCAT-AP-CZ catalog document, dataset documents, and the page for people.

NKOD's harvester sends no Accept header, so JSON-LD is what a request without one gets; ``?format=ttl`` or
``Accept: text/turtle`` asks for Turtle. The documents are what the anonymous visitor may see: a record is
listed, and its document answers, only while it is eligible (published, public, complete). A record's
editors may preview the document of their own record before it is (``private, no-store``, never listed).
Every answer carries ``Access-Control-Allow-Origin: *``: the public LKOD validator runs in a browser.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterator, Optional, Union

import ckan.plugins.toolkit as tk
from flask import Blueprint, Response, redirect, request, stream_template, stream_with_context
from werkzeug.wrappers import Response as HTTPResponse

from ckanext.passport import settings
from ckanext.passport.harvest import objects
from ckanext.passport.language import reader_translate
from ckanext.passport.publish import search
from ckanext.passport.publish.exports import modified_time

from . import catalog_stream, eligibility, iris, jsonld, left_out, norms, organizations

BLUEPRINT = "passport_lkod"
lkod = Blueprint(BLUEPRINT, __name__, url_prefix="/lkod")

JSONLD = "application/ld+json"
TURTLE = "text/turtle"
CONTENT_TYPES = {"jsonld": JSONLD, "ttl": f"{TURTLE}; charset=utf-8"}
# A browser's CORS preflight may ask for the conditional-request headers; these answer it.
CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag, Last-Modified, Location",
}
PREFLIGHT_HEADERS = {
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "Accept, If-None-Match, If-Modified-Since",
    "Access-Control-Max-Age": "86400",
}


@lkod.after_request
def cross_origin(response: HTTPResponse) -> HTTPResponse:
    """Every /lkod/ answer, errors and redirects included, may be read by any site's scripts."""
    response.headers.update(CORS_HEADERS)
    if request.method == "OPTIONS":
        response.headers.update(PREFLIGHT_HEADERS)
    return response


def wanted_form() -> str:
    """``jsonld`` or ``ttl``: the ``format`` parameter, else the Accept header; no Accept header, or one
    naming neither (``*/*``, a browser's ``text/html``), gets JSON-LD."""
    asked = request.args.get("format")
    if asked is not None:
        if asked not in CONTENT_TYPES:
            tk.abort(400, tk._("Unknown format: use format=jsonld or format=ttl"))
        return asked
    best = request.accept_mimetypes.best_match([JSONLD, TURTLE], default=JSONLD)
    return "ttl" if best == TURTLE else "jsonld"


def wanted_norm() -> str:
    """The DCAT-AP-CZ norm asked by ``?norm=``, else the site's (``ckanext.passport.lkod.norm``); 400 for any
    other (lkod.norms)."""
    try:
        return norms.requested(request.args, settings.lkod_norm())
    except norms.UnknownNorm as unknown:
        tk.abort(400, tk._("Unknown norm {norm}: use norm={norms}").format(
            norm=str(unknown), norms=" or norm=".join(norms.NORMS)
        ))


def _document(body: Union[str, Iterator[bytes]], form: str) -> Response:
    response = Response(body, content_type=CONTENT_TYPES[form])
    response.vary.add("Accept")
    return response


@lkod.route("/", strict_slashes=False)
def index() -> Response:
    """The page for people: what to register, what the catalog lists and what it leaves out (and why) of
    what the reader may see; anonymous readers get counts only (unpublished records are nobody's business)."""
    catalog = settings.lkod_catalog()
    count, _ = catalog_stream.freshness()
    signed_in = bool(tk.current_user and tk.current_user.is_authenticated)
    page = stream_template(
        "lkod/index.html",
        catalog_url=iris.catalog_iri(),
        turtle_url=iris.catalog_iri() + "?format=ttl",
        norm_urls={norm: f"{iris.catalog_iri()}?norm={norm}" for norm in norms.NORMS},
        default_norm=settings.lkod_norm() or norms.DEFAULT,
        catalog=catalog,
        missing=catalog_stream.missing_settings(catalog),
        count=count,
        public_left_out=catalog_stream.public_left_out_count(),
        left_out=left_out.records(catalog_stream.iter_left_out()) if signed_in else None,
        document_url=iris.dataset_iri,
        organization_catalogs=organizations.listing(),
        harvested_norms=objects.norms_by_source(),
    )
    return Response(page, content_type="text/html; charset=utf-8")


@lkod.route("/catalog")
def catalog() -> HTTPResponse:
    """The catalog document, streamed: its header, then every listed record's IRI."""
    return _catalog_document(settings.lkod_catalog())


@lkod.route("/organization/<name>/catalog")
def organization_catalog(name: str) -> HTTPResponse:
    """One organization's catalog (lkod.organizations): the same stream narrowed to its records.

    Only the name finds it: the URL is the catalog's IRI, and an id would give the catalog a second one.
    """
    found = organizations.shown(name)
    if found is None or found["name"] != name:
        tk.abort(404, tk._("Organization not found"))
    reason = organizations.ico_problem(found)
    if reason is not None:
        tk.abort(404, reason.message(reader_translate()))
    return _catalog_document(organizations.catalog_dict(found), organizations.records_filter(found))


def _catalog_document(options: dict[str, str], within: str = "") -> HTTPResponse:
    """A catalog of ``options`` listing the records ``within`` a Solr filter (all listed records by default)."""
    form, norm = wanted_form(), wanted_norm()
    missing = catalog_stream.missing_settings(options)
    if missing:
        tk.abort(503, tk._("The catalog is not configured yet: set {options}").format(options=", ".join(missing)))
    count, newest = catalog_stream.freshness(within)
    chunks = catalog_stream.DOCUMENTS[form](options, catalog_stream.iter_dataset_ids(within), norm)
    response = _document(stream_with_context(chunk.encode("utf-8") for chunk in chunks), form)
    response.set_etag(catalog_stream.catalog_tag(form, options, count, newest, norm))
    return _public(response, newest)


@lkod.route("/dataset/<dataset_id>")
def dataset(dataset_id: str) -> HTTPResponse:
    form, norm = wanted_form(), wanted_norm()
    found, preview = _readable(dataset_id)
    body = jsonld.dataset_turtle(found, norm) if form == "ttl" else _json(jsonld.dataset_document(found, norm))
    response = _document(body, form)
    response.set_etag(hashlib.sha256(body.encode("utf-8")).hexdigest())
    if preview:
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["X-Robots-Tag"] = "noindex"
        return response.make_conditional(request)
    return _public(response, found.get("metadata_modified"))


@lkod.route("/dataset/<dataset_id>/<any(distribution, service):part>/<resource_id>")
def dataset_part(dataset_id: str, part: str, resource_id: str) -> HTTPResponse:
    """A distribution's (or data service's) IRI dereferences to its dataset's document, which describes it:
    303 See Other, so one document per dataset is built, cached and validated."""
    found, _ = _readable(dataset_id)
    if not any(resource["id"] == resource_id for resource in found.get("resources", [])):
        tk.abort(404, tk._("Resource not found"))
    target = iris.dataset_iri(found["id"])
    asked = {name: chosen() for name, chosen in (("format", wanted_form), ("norm", wanted_norm)) if name in request.args}
    if asked:
        target += "?" + "&".join(f"{name}={value}" for name, value in asked.items())
    response = redirect(target, code=303)
    response.vary.add("Accept")
    return response


def _readable(dataset_id: str) -> tuple[dict[str, Any], bool]:
    """The record and whether this is a preview; 404 unless it is listed or the reader may edit it.

    Only ids find a record: its IRI is by id, and a name would give one record a second IRI.
    """
    public = _shown(search.anonymous_context(), dataset_id)
    if public is not None and not eligibility.reasons(public):
        return public, False
    own = _shown({}, dataset_id)
    if own is not None:
        try:
            tk.check_access("package_update", {}, {"id": own["id"]})
            return own, True
        except tk.NotAuthorized:
            pass
    tk.abort(404, tk._("Dataset not found"))


def _shown(context: dict[str, Any], dataset_id: str) -> Optional[dict[str, Any]]:
    try:
        found = tk.get_action("package_show")(context, {"id": dataset_id})
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return None
    if found["id"] != dataset_id or found.get("type") != search.PUBLISHED_TYPE:
        return None
    return found


def _public(response: Response, newest: Optional[str]) -> HTTPResponse:
    modified = modified_time(newest)
    if modified is not None:
        response.last_modified = modified
    # The catalog changes with its records: caches may keep a copy but must ask before each use.
    response.cache_control.public = True
    response.cache_control.no_cache = True
    return response.make_conditional(request)


def _json(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def blueprints() -> list[Blueprint]:
    return [lkod]
