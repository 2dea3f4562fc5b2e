"""The scoreboard's pages: ``/passport/scoreboard`` (every publisher side by side, with a trend per row, the portal's
mean over time and, for sysadmins, the harvest health), its ``.csv`` and ``.json`` downloads, a publisher's page
``/passport/scoreboard/publisher/<key>`` and its Atom feed ``…/feed.atom`` (or ``feed.xml``).

Every page reads the actions (``passport_scoreboard``, ``passport_scoreboard_history``, ``passport_harvest_health``),
so what the actions let a caller see is what the pages show. A parameter the actions refuse is a readable 400 (the
page with its message, or the message as text for a download), never a traceback.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Iterator, Optional

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.pagination import Page
from flask import Blueprint, Response, redirect, request, stream_with_context

from ckanext.passport.catalog.people.publishers import organization_holding_inn
from ckanext.passport.language import current_language, reader_translate

from .. import charts, downloads
from ..harvest.views import meaning, severity_of
from ..shape import _cell as spreadsheet_cell
from . import feed
from .actions import MAX_LIMIT, MAX_OFFSET, histories
from .summary import ORGANIZATION_KEY

BLUEPRINT = "passport_scoreboard"
blueprint = Blueprint(BLUEPRINT, __name__)

PAGE_SIZE = 25
MAX_PAGE = MAX_OFFSET // PAGE_SIZE + 1  # the last page whose offset the action takes
SORT_COLUMNS = ("name", "passports", "score", "change")  # the columns whose header sorts the table
DEFAULTS = {"sort": "score", "period": "month", "q": "", "page": 1}
CSV_COLUMNS = ("publisher", "name", "sources", "listed", "read", "conformant", "mean_score", "change", "codes",
               "last_finished", "last_status", "failure_code")


class BadParameter(Exception):
    """A query arg the actions refused: its readable message."""


def _context() -> dict[str, Any]:
    return {"model": model, "user": tk.current_user.name if tk.current_user.is_authenticated else ""}


def _args() -> dict[str, Any]:
    """The page's query args as given (the actions judge them; ``page`` is judged here)."""
    args = {key: request.args.get(key, "").strip()[:200] or default for key, default in DEFAULTS.items()}
    try:
        args["page"] = int(args["page"])
    except ValueError:
        args["page"] = 0
    return args


def _board(args: dict[str, Any], limit: int, offset: int) -> dict[str, Any]:
    if args["page"] < 1:
        raise BadParameter(tk._("page: Must be a whole number from 1"))
    if args["page"] > MAX_PAGE:
        raise BadParameter("page: " + tk._("Must be at most {most}").format(most=MAX_PAGE))
    try:
        return tk.get_action("passport_scoreboard")(_context(), {
            "sort": args["sort"], "period": args["period"], "q": args["q"], "limit": limit, "offset": offset})
    except tk.ValidationError as refused:
        raise BadParameter("; ".join(f"{field}: {' '.join(map(str, messages))}"
                                     for field, messages in refused.error_dict.items())) from None


def _url(args: dict[str, Any], endpoint: str = "index", **changes: Any) -> str:
    """The page (or a download) with the query args changed, defaults left out; a new order, search or period goes
    back to the first page."""
    wanted = {**args, **changes}
    if "page" not in changes or endpoint != "index":
        wanted.pop("page", None)
    return tk.url_for(f"{BLUEPRINT}.{endpoint}",
                      **{key: value for key, value in wanted.items() if value and value != DEFAULTS.get(key)})


@blueprint.route("/passport/scoreboard")
def index() -> Any:
    args = _args()
    error = None
    try:
        board = _board(args, PAGE_SIZE, (args["page"] - 1) * PAGE_SIZE)
    except BadParameter as bad:
        # The page as it is by default, with what was wrong: a link with a stale or mistyped parameter still helps.
        error, args = str(bad), {**DEFAULTS, "q": args["q"]}
        board = _board(args, PAGE_SIZE, 0)
    translate = reader_translate()
    context = _context()
    trends = histories(context, [row["publisher"] for row in board["rows"]])
    portal = tk.get_action("passport_scoreboard_history")(context, {})
    sysadmin = authz.is_sysadmin(context["user"])
    page = Page(collection=board["rows"], page=args["page"], item_count=board["count"],
                     items_per_page=PAGE_SIZE, presliced_list=True,
                     url=lambda q=None, page=None: _url(args, page=page))
    body = tk.render("passport_scoreboard/index.html", extra_vars={
        "args": args,
        "error": error,
        "board": board,
        "rows": [_shown(row, trends[row["publisher"]], translate) for row in board["rows"]],
        "page": page,
        "url": lambda endpoint="index", **changes: _url(args, endpoint, **changes),
        "sort_url": lambda key: _url(args, sort=key if args["sort"] != key else f"-{key}"),
        "sort_columns": SORT_COLUMNS,
        "portal_svg": charts.history_svg(
            [{"job_id": day["day"], "finished": day["day"], "mean_score": day["mean_score"]}
             for day in portal["days"]], tk._("The portal's mean score per day"), tk._("mean score")),
        "health": _health(context) if sysadmin else None,
    })
    return (body, 400) if error else body


def _shown(row: dict[str, Any], jobs: list[dict[str, Any]], translate: Any) -> dict[str, Any]:
    """A scoreboard row as the table shows it: each code with what it means, the trend drawn."""
    return {
        **row,
        "code_rows": [{**item, "meaning": meaning(item["code"], translate), "severity": severity_of(item["code"])}
                      for item in row["codes"]],
        "failure": meaning(row["failure_code"], translate) if row["failure_code"] else "",
        "trend": charts.sparkline_svg([job["mean_score"] for job in jobs],
                                      tk._("Mean score of the last {count} jobs").format(count=len(jobs))),
    }


def _health(context: dict[str, Any]) -> list[dict[str, Any]]:
    return tk.get_action("passport_harvest_health")(context, {})["rows"]


# --- downloads ---------------------------------------------------------------------------------------------------


def _every_row(args: dict[str, Any]) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The first page read now (so that a bad parameter is refused before anything is sent), then the rest page by
    page: memory bound by a page, whatever the number of publishers."""
    args = {**args, "page": 1}
    first = _board(args, MAX_LIMIT, 0)

    def rows() -> Iterator[dict[str, Any]]:
        yield from first["rows"]
        offset = MAX_LIMIT
        while offset < first["count"]:
            page = _board(args, MAX_LIMIT, offset)
            if not page["rows"]:
                return
            yield from page["rows"]
            offset += MAX_LIMIT

    return first, rows()


def _refused(bad: BadParameter) -> Response:
    return Response(str(bad), status=400, content_type="text/plain; charset=utf-8")


@blueprint.route("/passport/scoreboard.csv")
def board_csv() -> Response:
    try:
        _, rows = _every_row(_args())
    except BadParameter as bad:
        return _refused(bad)

    def lines() -> Iterator[str]:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        # A byte order mark, so that spreadsheets open the Cyrillic and Czech text as UTF-8.
        writer.writerow(CSV_COLUMNS)
        yield "\ufeff" + _taken(out)
        for row in rows:
            writer.writerow(csv_row(row))
            yield _taken(out)

    return downloads.attachment(stream_with_context(lines()), "text/csv; charset=utf-8", "scoreboard.csv")


def csv_row(row: dict[str, Any]) -> list[Any]:
    """A row of the CSV: the action's row, lists joined by "; ", the registries' text kept from running as a formula."""
    return [
        spreadsheet_cell(row["publisher"]), spreadsheet_cell(row["name"]),
        "; ".join(spreadsheet_cell(source["name"]) for source in row["sources"]),
        row["listed"], row["read"], row["conformant"], _blank(row["mean_score"]), _blank(row["change"]),
        "; ".join(f"{item['code']}:{item['count']}" for item in row["codes"]),
        row["last_finished"], row["last_status"], row["failure_code"] or "",
    ]


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _taken(out: io.StringIO) -> str:
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


@blueprint.route("/passport/scoreboard.json")
def board_json() -> Response:
    try:
        first, rows = _every_row(_args())
        every = list(rows)
    except BadParameter as bad:
        return _refused(bad)
    return downloads.attachment(
        json.dumps({"count": first["count"], "period": first["period"], "rows": every}, ensure_ascii=False),
        "application/json", "scoreboard.json")


# --- a publisher -------------------------------------------------------------------------------------------------


def _publisher_or_404(key: str) -> dict[str, Any]:
    """The publisher's scoreboard row, every code listed; 404 when the caller sees no source of it."""
    rows = tk.get_action("passport_scoreboard")(_context(), {"publisher": key, "limit": 1})["rows"]
    if not rows:
        return tk.abort(404, tk._("Publisher not found"))
    return rows[0]


def _moved(key: str) -> Optional[Response]:
    """A page or feed address of the keys before publishers were organizations (an INN read from the registries)
    sent on, for good, to the organization a sysadmin says holds that INN; ``None`` for any other key."""
    holder = None if key.startswith(ORGANIZATION_KEY) else organization_holding_inn(key)
    if holder is None:
        return None
    return redirect(tk.url_for(request.endpoint, key=ORGANIZATION_KEY + holder), code=301)


def _tab_url(job: dict[str, Any], names: dict[str, str], external: bool = False) -> str:
    return tk.url_for("passport_harvest_conformance.tab", source=names.get(job["source_id"], job["source_id"]),
                      job_id=job["job_id"], _external=external)


@blueprint.route("/passport/scoreboard/publisher/<key>")
def publisher(key: str) -> Any:
    moved = _moved(key)
    if moved is not None:
        return moved
    row = _publisher_or_404(key)
    translate = reader_translate()
    jobs = tk.get_action("passport_scoreboard_history")(_context(), {"publisher": key})["jobs"]
    names = {source["id"]: source["name"] for source in row["sources"]}
    titles = {source["id"]: source["title"] or source["name"] for source in row["sources"]}
    return tk.render("passport_scoreboard/publisher.html", extra_vars={
        "row": _shown(row, jobs, translate),
        "jobs": [{**job, "tab_url": _tab_url(job, names), "source_title": titles.get(job["source_id"], "")}
                 for job in reversed(jobs)],
        "history_svg": charts.history_svg(jobs, tk._("Mean score of each harvest job"), tk._("mean score")),
        "feed_url": tk.url_for(f"{BLUEPRINT}.publisher_feed", key=key),
    })


@blueprint.route("/passport/scoreboard/publisher/<key>/feed.atom")
@blueprint.route("/passport/scoreboard/publisher/<key>/feed.xml", endpoint="publisher_feed_xml")
def publisher_feed(key: str) -> Response:
    moved = _moved(key)
    if moved is not None:
        return moved
    row = _publisher_or_404(key)
    translate = reader_translate()
    jobs = tk.get_action("passport_scoreboard_history")(
        _context(), {"publisher": key, "limit": feed.FEED_JOBS})["jobs"]
    names = {source["id"]: source["name"] for source in row["sources"]}
    titles = {source["id"]: source["title"] or source["name"] for source in row["sources"]}
    entries = [{
        # The job's own id (a UUID): an entry keeps it when its source is renamed and the link changes.
        "id": f"urn:uuid:{job['job_id']}",
        "title": tk.ungettext("{source}: {count} new finding code", "{source}: {count} new finding codes",
                             len(job["new_codes"])).format(source=titles.get(job["source_id"], job["source_id"]),
                                                           count=len(job["new_codes"])),
        "link": _tab_url(job, names, external=True),
        "updated": feed.atom_time(job["finished"]),
        "summary": feed.entry_text(job["new_codes"], lambda code: meaning(code, translate)),
    } for job in feed.new_findings(jobs, complete=len(jobs) < feed.FEED_JOBS)]
    body = feed.atom(
        feed_url=tk.url_for(f"{BLUEPRINT}.publisher_feed", key=key, _external=True),
        page_url=tk.url_for(f"{BLUEPRINT}.publisher", key=key, _external=True),
        title=tk._("{publisher}: new MR conformance findings").format(publisher=row["name"]),
        author=tk.config.get("ckan.site_title") or "CKAN", language=current_language(), entries=entries)
    return Response(body, content_type="application/atom+xml; charset=utf-8")


def blueprints() -> list[Blueprint]:
    return [blueprint]
