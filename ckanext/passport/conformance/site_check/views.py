"""Pages of the publishers' site check: the form (``/passport/check``, with the reader's earlier checks), a
check's page (``/passport/check/<id>``, refreshing until the check ends, then the report, with the reader's other
checks of the site), its downloads (``.csv``, ``.json``) and the corrected files of each passport read
(``/passport/check/<id>/fixed/<n>/<file>``).

Every decision is the actions' (``passport_site_check``, ``passport_site_check_show``,
``passport_site_check_list``); the form posts through CKAN's CSRF protection.
"""
from __future__ import annotations

from typing import Any, Optional

import ckan.authz as authz
import ckan.plugins.toolkit as tk
from flask import Blueprint, Response, current_app

from ckanext.passport.catalog.user_checks import refusal_parts
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.corrections import FIXED_FILES
from ckanext.passport.mr.model import Translate

from .. import downloads
from ..harvest.views import code_rows
from .model import FAILED, FINISHED, SiteCheckPassport
from .report import fixed

blueprint = Blueprint("passport_site_check", __name__)

# Seconds between reloads of a check's page while it is queued or running.
REFRESH_SECONDS = 2


def _context() -> dict[str, Any]:
    return {"user": tk.g.user}


def _allowed(action: str) -> bool:
    try:
        tk.check_access(action, _context(), {})
    except tk.NotAuthorized:
        return False
    return True


def _earlier(url: str) -> tuple[list[dict[str, Any]], bool]:
    """The reader's own checks, and whether they are those of ``url``'s host: of every site when ``url`` is
    empty or no address a check may read."""
    listed = tk.get_action("passport_site_check_list")
    if url:
        try:
            return listed(_context(), {"url": url}), True
        except tk.ValidationError:
            pass
    return listed(_context(), {}), False


def _refusals(field: str, texts: Any) -> list[dict[str, str]]:
    """A refusal's messages as the form shows them: each its sentence, its code kept out of the text."""
    listed = texts if isinstance(texts, list) else [texts]
    return [dict(zip(("code", "message"), refusal_parts(str(text))), field=field) for text in listed]


def _form(url: str = "", errors: Optional[list[dict[str, str]]] = None, status: int = 200) -> tuple[str, int]:
    earlier, of_site = _earlier(url)
    errors = errors or []
    variables = {
        "url": url,
        "url_errors": [error for error in errors if error["field"] == "url"],
        "errors": [error for error in errors if error["field"] != "url"],
        "allowed": _allowed("passport_site_check"),
        "sysadmin": authz.is_sysadmin(tk.g.user),
        "earlier": earlier,
        "earlier_of_site": of_site,
    }
    return tk.render("site_check/form.html", variables), status


@blueprint.route("/passport/check", methods=["GET"])
def form() -> Any:
    return _form(tk.request.args.get("url", ""))


@blueprint.route("/passport/check", methods=["POST"])
def start() -> Any:
    # CKAN 2.11 checks CSRF only for sessions it knows; this form serves anonymous visitors too.
    current_app.extensions["csrf"].protect()
    url = tk.request.form.get("url", "")
    data = {"url": url}
    if tk.request.form.get("allow_private_addresses"):
        data["allow_private_addresses"] = True
    try:
        started = tk.get_action("passport_site_check")(_context(), data)
    except tk.NotAuthorized as error:
        return _form(url, _refusals("", str(error) or tk._("Not authorized")), 403)
    except tk.ValidationError as error:
        messages = [refused for field, texts in error.error_dict.items() for refused in _refusals(field, texts)]
        return _form(url, messages, 429 if "rate_limit" in error.error_dict else 400)
    return tk.redirect_to(tk.url_for("passport_site_check.read", id=started["id"]))


class _Forbidden(Exception):
    """A check its reader may not open (one that read private addresses): answered by :func:`forbidden`."""

    def __init__(self, id: str, refused: str) -> None:
        super().__init__(refused)
        self.id, self.code = id, refusal_parts(refused)[0]


@blueprint.errorhandler(_Forbidden)
def forbidden(error: _Forbidden) -> tuple[str, int]:
    """The site check's own 403 page, in the reader's language: who may open the report, and a way on (CKAN's error
    page would show the refusal's code and its English "You might need to login")."""
    back = tk.url_for("passport_site_check.read", id=error.id)
    return tk.render("site_check/forbidden.html", {
        "code": error.code,
        "sign_in": None if tk.g.user else tk.url_for("user.login", came_from=back),
    }), 403


def _shown(id: str) -> dict[str, Any]:
    try:
        return tk.get_action("passport_site_check_show")(_context(), {"id": id})
    except tk.ObjectNotFound:
        return tk.abort(404, tk._("Site check not found"))
    except tk.NotAuthorized as error:
        raise _Forbidden(id, str(error))


@blueprint.route("/passport/check/<id>")
def read(id: str) -> str:
    check = _shown(id)
    running = check["status"] not in (FINISHED, FAILED)
    others = tk.get_action("passport_site_check_list")(_context(), {"url": check["url"], "exclude": id})
    codes = by_problem(check["report"], reader_translate()) if check["report"] else []
    return tk.render("site_check/read.html", {"check": check, "refresh": REFRESH_SECONDS if running else None,
                                              "fixed_files": FIXED_FILES, "others": others, "codes": codes})


def by_problem(report: dict[str, Any], translate: Translate) -> list[dict[str, Any]]:
    """The report's codes, most passports first: each with its severity and meaning in the reader's language, and
    the passports that have it by their place in the report (numbered from 1, the anchors of their sections)."""
    having: dict[str, list[tuple[int, str]]] = {}
    for number, entry in enumerate(report["passports"], start=1):
        for code in dict.fromkeys(found["code"] for found in entry["findings"]):
            having.setdefault(code, []).append((number, entry["identifier"]))
    return [{**row, "passports": having.get(row["code"], [])} for row in code_rows(report, translate)]


def _report(id: str) -> dict[str, Any]:
    report = _shown(id)["report"]
    if report is None:
        return tk.abort(404, tk._("The check has no report yet"))
    return report


@blueprint.route("/passport/check/<id>.csv")
def report_csv(id: str) -> Response:
    return downloads.report_csv(_report(id), f"site-check-{id}.csv")


@blueprint.route("/passport/check/<id>.json")
def report_json(id: str) -> Response:
    return downloads.report_json(_report(id), f"site-check-{id}.json")


@blueprint.route("/passport/check/<id>/fixed/<int:number>/<name>")
def fixed_file(id: str, number: int, name: str) -> Response:
    # Who may read the check may take its corrected files (the same rule as passport_site_check_show).
    try:
        tk.check_access("passport_site_check_show", _context(), {"id": id})
    except tk.NotAuthorized as error:
        raise _Forbidden(id, str(error))
    # The one passport's own row: the report and the other passports are not read for it.
    kept = SiteCheckPassport.get(id, number)
    written = fixed(kept.url, kept.passport, name) if kept is not None else None
    if written is None:
        return tk.abort(404, tk._("No such corrected file"))
    return downloads.fixed_file(written, name)


def blueprints() -> list[Blueprint]:
    return [blueprint]
