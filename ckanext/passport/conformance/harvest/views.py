"""A harvest source's Conformance tab, its downloads and fixed files, and the record page's conformance block.

``/harvest/<source>/conformance`` (the tab beside ckanext-harvest's Datasets and About), ``.csv`` and ``.json``
(the same report, narrowed and sorted by the same query args: ``code``, ``severity``, ``sort``, ``job_id``), and
``/harvest/<source>/conformance/fixed/<harvest object id>/<meta.json|meta.csv|meta.xml>``. Every page reads
the actions, so the actions' authorization is the pages' too.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.harvest.model import HarvestObject
from flask import Blueprint, Response, request

from ckanext.passport.harvest import objects, records
from ckanext.passport.language import current_language, reader_translate
from ckanext.passport.mr.model import Severity, Translate
from ckanext.passport.mr.problems import catalogue, severity_label

from .. import charts, downloads
from ckanext.passport.mr.urls import web_link
from . import download_cache
from . import fixed as harvest_fixed
from . import report as harvest_report
from .actions import job_of, source_of

BLUEPRINT = "passport_harvest_conformance"
conformance = Blueprint(BLUEPRINT, __name__)

# Passports per page of the tab's table (the downloads hold them all): a page stays quick to render and read.
PAGE_SIZE = 100
# Findings of one code shown in full in a passport's row; the rest fold under a <details>.
SHOWN_PLACES = 3
# ckanext-harvest's source and job pages with the Conformance tab: passport_conformance puts them before
# ckanext-harvest's own templates.
HARVEST_OVERRIDES = Path(__file__).resolve().parents[2] / "templates" / "conformance_harvest"


@conformance.before_request
def harvest_page() -> None:
    # ckanext-harvest's source templates build their tabs from the dataset type its own views set.
    tk.c.dataset_type = "harvest"


def _context() -> dict[str, Any]:
    return {"model": model, "user": tk.current_user.name if tk.current_user.is_authenticated else ""}


def _args() -> dict[str, str]:
    """The tab's query args, only the values the report knows (a stray value is ignored, never echoed)."""
    severity = request.args.get("severity", "")
    sort = request.args.get("sort", "score")
    return {"code": request.args.get("code", "").strip()[:100],
            "severity": severity if severity in harvest_report.SEVERITIES else "",
            "sort": sort if sort in harvest_report.SORTS else "score"}


def _page() -> int:
    try:
        return max(1, int(request.args.get("page", "1")))
    except ValueError:
        return 1


def _report(source: str, **selection: Any) -> dict[str, Any]:
    """The report of the job the page names (default the last finished), its passports those ``selection`` picks
    (the action's code, severity, sort, offset and limit; empty ones left out)."""
    wanted = {key: value for key, value in selection.items() if value not in ("", None)}
    try:
        return tk.get_action("passport_conformance_report")(
            _context(), {"id": source, "job_id": request.args.get("job_id") or None, **wanted})
    except tk.ObjectNotFound as missing:
        return tk.abort(404, str(missing) or tk._("Harvest source not found"))
    except tk.NotAuthorized:
        return tk.abort(403, tk._("Not authorized to see this harvest source"))


@conformance.route("/harvest/<source>/conformance")
def tab(source: str) -> str:
    args = _args()
    page = _page()
    report = _report(source, **args, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    pages = max(1, -(-report["count"] // PAGE_SIZE))
    if page > pages:  # past the last page: the last page
        page = pages
        report = _report(source, **args, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    context = _context()
    harvest_source = tk.get_action("harvest_source_show")(context, {"id": source})
    history = tk.get_action("passport_conformance_history")(context, {"id": source})
    translate = reader_translate()
    job_id = request.args.get("job_id") or ""

    def url(endpoint: str = "tab", **changes: Any) -> str:
        """This page (or a download) with the query args changed; empty ones left out. A change of filter or
        order goes back to the first page."""
        wanted = {**args, "job_id": job_id, **changes}
        if "page" not in changes or endpoint != "tab":
            wanted.pop("page", None)
        return tk.url_for(f"{BLUEPRINT}.{endpoint}", source=harvest_source["name"],
                          **{k: v for k, v in wanted.items()
                             if v and not (k == "sort" and v == "score") and not (k == "page" and v == 1)})

    return tk.render("passport_conformance/source.html", extra_vars={
        "harvest_source": harvest_source,
        "report": report,
        "rows": [passport_row(entry, translate) for entry in report["passports"]],
        "page": page,
        "pages": pages,
        "url": url,
        "args": args,
        "codes": code_rows(report, translate),
        "severities": [(s.value, severity_label(s, translate)) for s in Severity],
        # A passport refused at import has no score and was read: it is neither a bar nor "not read".
        "distribution_svg": charts.distribution_svg(
            report["scores"], tk._("Passports by score"), tk._("not read")),
        "history": history,
        "history_svg": charts.history_svg(history, tk._("Mean score of each harvest job"), tk._("mean score")),
    })


def _download(source: str, kind: str) -> Response:
    """Every passport the tab's filter and order select, and that filter and order, as a ``kind`` download; a
    finished job's kept (``download_cache``) once the caller may read the source's report."""
    args = _args()
    try:
        harvest_source, package = source_of(source)
        tk.check_access("passport_conformance_report", _context(), {"id": harvest_source.id})
        job = job_of(harvest_source, request.args.get("job_id") or None)
    except tk.ObjectNotFound as missing:
        return tk.abort(404, str(missing) or tk._("Harvest source not found"))
    except tk.NotAuthorized:
        return tk.abort(403, tk._("Not authorized to see this harvest source"))

    def build() -> bytes:
        # The job just found, not the last finished one again: another may have finished since.
        report = _report(source, **args, job_id=job.id if job is not None else None)
        return downloads.report_bytes({**report, "filters": args}, kind)

    parts = [package.name, kind, current_language(), args["code"], args["severity"], args["sort"]]
    return downloads.attachment(download_cache.body(job, parts, build), downloads.REPORT_TYPES[kind],
                                f"{source}-conformance.{kind}")


@conformance.route("/harvest/<source>/conformance.csv")
def report_csv(source: str) -> Response:
    return _download(source, "csv")


@conformance.route("/harvest/<source>/conformance.json")
def report_json(source: str) -> Response:
    return _download(source, "json")


@conformance.route("/harvest/<source>/conformance/fixed/<object_id>/<name>")
def fixed_file(source: str, object_id: str, name: str) -> Response:
    """A corrected passport file: for whoever may see the source's report or the record's conformance."""
    try:
        harvest_source, _ = source_of(source)
    except tk.ObjectNotFound as missing:
        return tk.abort(404, str(missing))
    harvest_object = HarvestObject.get(object_id)
    if harvest_object is None or harvest_object.harvest_source_id != harvest_source.id:
        return tk.abort(404, tk._("Harvest object not found"))
    if not (_allowed("passport_conformance_report", harvest_source.id)
            or (harvest_object.package_id and _allowed("passport_dataset_conformance", harvest_object.package_id))):
        return tk.abort(403, tk._("Not authorized to see this harvest source"))
    body = harvest_fixed.fixed_bytes(harvest_object, name)
    if body is None:
        return tk.abort(404, tk._("No such file"))
    return downloads.fixed_file(body, name)


def _allowed(action: str, id_: str) -> bool:
    try:
        tk.check_access(action, _context(), {"id": id_})
        return True
    except tk.NotAuthorized:
        return False


# -- what the templates show -----------------------------------------------------------------------------------


def meaning(code: str, translate: Translate) -> str:
    """What a code means, in the reader's language: its meaning, or its message when that has no particulars."""
    kind = catalogue().get(code)
    if kind is None:
        return ""
    return translate(kind.meaning) if kind.meaning else translate.template(kind.message)


def severity_of(code: str) -> str:
    kind = catalogue().get(code)
    return kind.severity.value if kind else ""


def code_rows(report: dict[str, Any], translate: Translate) -> list[dict[str, Any]]:
    """The summary's codes as the tab and the job page list them: how many passports have each, its severity and
    what it means."""
    rows = []
    for code, count in report["summary"]["by_code"].items():
        severity = severity_of(code)
        rows.append({"code": code, "count": count, "meaning": meaning(code, translate), "severity": severity,
                     "severity_label": severity_label(Severity(severity), translate) if severity else ""})
    return rows


def job_conformance(harvest_source: dict[str, Any], job: dict[str, Any]) -> Optional[dict[str, Any]]:
    """Template helper: what a job's Conformance tab lists, for ckanext-harvest's job page (whose own summary
    counts only error rows, never a passport's findings): the findings by severity, the site's and each code's,
    and the tab's address for that job. ``None`` for another source type and for a reader the tab would refuse."""
    if not has_conformance(harvest_source):
        return None
    try:
        report = tk.get_action("passport_conformance_report")(_context(), {"id": harvest_source["id"],
                                                                          "job_id": job["id"]})
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return None
    translate = reader_translate()
    found = [*report["problems"], *(f for entry in report["passports"] for f in entry["findings"])]
    return {
        "summary": report["summary"],
        "errors": sum(1 for f in found if f["severity"] == Severity.ERROR.value),
        "severities": [{"severity": s.value, "label": severity_label(s, translate),
                        "count": sum(1 for f in found if f["severity"] == s.value)} for s in Severity],
        "problems": report["problems"],
        "codes": code_rows(report, translate),
        "url": tk.url_for(f"{BLUEPRINT}.tab", source=harvest_source["name"], job_id=job["id"]),
    }


def passport_row(entry: dict[str, Any], translate: Any) -> dict[str, Any]:
    """A passport's findings grouped by code, each with the places it was found (linked when web addresses)."""
    groups: dict[str, dict[str, Any]] = {}
    for found in entry["findings"]:
        group = groups.setdefault(found["code"], {"code": found["code"], "severity": found["severity"],
                                                  "message": found["message"], "places": [],
                                                  "severity_label": severity_label(Severity(found["severity"]),
                                                                                   translate)})
        group["places"].append({"where": found["where"] or found["url"] or "", "href": web_link(found["url"])})
    for group in groups.values():
        group["shown"], group["folded"] = group["places"][:SHOWN_PLACES], group["places"][SHOWN_PLACES:]
    return {**entry, "groups": list(groups.values()), "href": web_link(entry["url"]),
            "fixed_links": [(name, url) for name, url in entry.get("fixed", {}).items()]}


def dataset_conformance(pkg_dict: dict[str, Any]) -> Optional[dict[str, Any]]:
    """Template helper: the record's conformance for its curators and editors, ``None`` for everyone else
    (and for a record no passport source harvested)."""
    try:
        entry = tk.get_action("passport_dataset_conformance")(_context(), {"id": pkg_dict.get("id")})
    except (tk.NotAuthorized, tk.ObjectNotFound):
        return None
    return passport_row(entry, reader_translate())




def blueprints() -> list[Any]:
    return [conformance]


def has_conformance(source: dict[str, Any]) -> bool:
    """Template helper: whether a harvest source page gets the Conformance tab (passport sources only).

    Read from the source's table, not the page's dict: CKAN 2.12 may show a cached package without its
    ``source_type``.
    """
    try:
        source_of(source.get("id") or "")
    except tk.ObjectNotFound:
        return False
    return True


def helpers() -> dict[str, Any]:
    return {"passport_dataset_conformance": dataset_conformance, "passport_has_conformance": has_conformance,
            "passport_job_conformance": job_conformance, "passport_web_link": web_link,
            "passport_job_records": job_records, "passport_read_norms": read_norms,
            "passport_catalog_norm": catalog_norm}


def read_norms(source_id: Optional[str], job_id: Optional[str] = None) -> list[tuple[str, int]]:
    """Template helper: an ``lkod`` source's documents per norm they were read in (``harvest.objects.read_norms``),
    of one job or of the source's records; empty for a passport source."""
    return objects.read_norms(source_id, job_id) if source_id else []


def catalog_norm(source_id: Optional[str], job_id: Optional[str] = None) -> Optional[str]:
    """Template helper: the norm an ``lkod`` source's catalog document was read in (``harvest.objects.catalog_norm``),
    by one job or last; ``None`` for a passport source."""
    return objects.catalog_norm(source_id, job_id) if source_id else None


def job_records(job_id: Optional[str]) -> dict[str, int]:
    """Template helper: how many of a job's entries were brought back and how many stay deleted in the portal
    (``harvest.records.outcomes``), for the job page and the Conformance tab of either source type."""
    return records.outcomes(job_id) if job_id else {}
