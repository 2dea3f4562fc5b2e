"""The automatic part of the level-3 openness check (Czech technical standards for open datasets).

For each resource (distribution) it checks what a machine can: UTF-8 encoding, a table format (CSV, XML or
JSON), one table per distribution, a header, and rows that all have the header's structure. :func:`assess`
is pure (bytes in, findings out); a :class:`Reading` judges bytes as they come. The action never fetches in the
web request: it counts the check against the starter's and the record's rate limits, marks the resources
``pending`` and queues a CKAN background job (:func:`run_checks`, run by ``ckan jobs worker``) that reads each
file's first ``openness_sample_bytes`` through ``mr.fetch`` (timeouts; a head read handed on piece by piece, so a
check holds about the same memory for a 50 MiB file as for a small one) with the site check's address rule
(private addresses only when a sysadmin asks for them, never because harvests may read them) and stores the result
on the resource as ``openness_check``, which the dataset page shows beside the conditions checklist. Only this module writes that
field: :func:`keep_stored_result` keeps it out of reach of ordinary resource edits, so a result always comes
from a check.
"""
from __future__ import annotations

import json
import logging
import math
import re
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Optional, Sequence

import ckan.lib.search as search
import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing
from flask import Blueprint, current_app

from ckanext.passport import rate_limits, settings
from ckanext.passport.catalog.user_checks import private_addresses_allowed
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.decode import TextStream
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult, fetch
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.tableshape import CsvShape, JsonShape, Shape, XmlShape

log = logging.getLogger(__name__)

FIELD = "openness_check"
TABLE_KINDS = ("csv", "xml", "json")
CHECKS = ("available", "utf8", "format", "one_table", "header", "consistent_rows")

_NUMBER_OR_DATE = re.compile(r"^[\s+\-]?[\d\s.,:/\-]+$")


# --- pure assessment --------------------------------------------------------------------------------------


def _check(code: str, passed: Optional[bool], **detail: Any) -> dict[str, Any]:
    """One finding; ``passed`` is ``None`` when the check does not apply (a header of a JSON array)."""
    return {"code": code, "passed": passed, "detail": detail}


def detect_kind(content: bytes, format_hint: str = "", content_type: str = "") -> str:
    """``csv``, ``xml``, ``json`` or ``other``: the declared format or media type, else the bytes themselves."""
    declared = [format_hint.strip().lower().lstrip("."), content_type.split(";", 1)[0].strip().lower()]
    for hint in declared:
        for kind in TABLE_KINDS:
            if hint == kind or hint.endswith(f"/{kind}") or hint.endswith(f"+{kind}"):
                return kind
        if hint in ("text/comma-separated-values", "application/csv"):
            return "csv"
    # Servers often say text/plain or application/octet-stream: only then do the bytes decide.
    if declared[0] or declared[1] not in ("", "text/plain", "application/octet-stream"):
        return "other"
    start = content.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if start == b"<":
        return "xml"
    if start in (b"{", b"["):
        return "json"
    return "csv" if content.strip() and b"\x00" not in content else "other"


def assess(content: bytes, format_hint: str = "", content_type: str = "") -> list[dict[str, Any]]:
    """The findings for one distribution's bytes, in :data:`CHECKS` order (``available`` excluded)."""
    reading = Reading(format_hint, content_type)
    reading.feed(content)
    return reading.findings(cut=False)


class Reading:
    """One distribution's bytes read as they come (the check's sample, piece by piece), into its findings.

    Nothing is kept whole: the text is decoded piece by piece and its kind's reader (:mod:`..mr.tableshape`) keeps
    only the rows' shape, so a check holds about the same memory whatever the size of the file. ``findings(cut)``
    judges what was read; ``cut`` (the sample stopped before the file's end) makes the record the end cut into, and
    a character cut there, no fault of the file.
    """

    def __init__(self, format_hint: str = "", content_type: str = "") -> None:
        self.size = 0
        self._hint = format_hint
        self._content_type = content_type
        self._head = b""  # the first bytes, until they tell the kind
        self._kind: Optional[str] = None
        self._text = TextStream()
        self._shape: Any = None

    def start(self, fetched: FetchResult) -> Callable[[bytes], None]:
        """``stream`` of :func:`..mr.fetch.fetch`: the answer's media type is the file's declared one."""
        self._content_type = fetched.content_type
        return self.feed

    def feed(self, data: bytes) -> None:
        self.size += len(data)
        if self._kind is None:
            self._head += data
            if len(self._head) < _HEAD_BYTES:
                return
            data, self._head = self._head, b""
            self._begin(data)
        self._take(data, self._text.feed(data))

    def findings(self, cut: bool) -> list[dict[str, Any]]:
        if self._kind is None:
            head, self._head = self._head, b""
            self._begin(head)
            self._take(head, self._text.feed(head))
        rest = self._text.close(cut)
        if self._kind in ("csv", "json"):
            self._shape.feed(rest)
        text = self._text
        utf8 = (_check("utf8", True) if text.utf8_error is None
                else _check("utf8", False, encoding=text.encoding, offset=text.utf8_error))
        if self._shape is None:
            return [utf8, _check("format", False, kind=self._kind), *_not_judged()]
        return [utf8, *_judged(self._kind, self._shape.close(cut))]

    def _begin(self, head: bytes) -> None:
        self._kind = detect_kind(head, self._hint, self._content_type)
        readers = {"csv": CsvShape, "xml": XmlShape, "json": JsonShape}
        self._shape = readers[self._kind]() if self._kind in readers else None

    def _take(self, data: bytes, text: str) -> None:
        if self._kind == "xml":
            self._shape.feed(data)
        elif self._shape is not None:
            self._shape.feed(text)


# Bytes a file's kind is told from when its declared format and media type say nothing.
_HEAD_BYTES = 64 * 1024


def _not_judged() -> list[dict[str, Any]]:
    """The table's checks when there is no table to judge."""
    return [_check("one_table", None), _check("header", None), _check("consistent_rows", None)]


def _judged(kind: str, shape: Shape) -> list[dict[str, Any]]:
    """The findings after ``utf8`` for a table of ``kind`` whose rows were read as ``shape``."""
    if shape.error is not None:
        return [_check("format", False, kind=kind, **shape.error), *_not_judged()]
    uneven = {"count": shape.uneven, ("line" if kind == "csv" else "row"): shape.first_uneven} if shape.uneven else {}
    if kind == "csv":
        header_ok = _looks_like_header(shape.header)
        return [
            _check("format", True, kind="csv", delimiter=shape.delimiter),
            _check("one_table", shape.gap is None, **({"line": shape.gap} if shape.gap else {})),
            _check("header", header_ok, **({} if header_ok else {"line": shape.header_line})),
            _check("consistent_rows", not shape.uneven, columns=len(shape.header), **uneven),
        ]
    if kind == "json" and shape.kinds != 1:
        return [_check("format", True, kind="json"), _check("one_table", False), *_not_judged()[1:]]
    one_table = _check("one_table", shape.kinds == 1, **({"elements": shape.kinds} if shape.kinds != 1 else {}))
    return [_check("format", True, kind=kind), one_table, _check("header", None),
            _check("consistent_rows", bool(shape.rows) and not shape.uneven, **uneven)]


def _looks_like_header(cells: Sequence[str]) -> bool:
    """Names, not data: every cell filled, no two alike, none a number or a date."""
    names = [cell.strip() for cell in cells]
    return (
        len(names) >= 1
        and all(names)
        and len(set(n.casefold() for n in names)) == len(names)
        and not any(_NUMBER_OR_DATE.match(n) for n in names)
    )


def summary(checks: Iterable[dict[str, Any]]) -> bool:
    """The distribution passes when every applicable check passed."""
    return all(check["passed"] is not False for check in checks)


# --- running and storing ------------------------------------------------------------------------------------


def check_resource(resource: dict[str, Any], policy: FetchPolicy) -> dict[str, Any]:
    """Read the resource's file (its first ``openness_sample_bytes``, as they come) and judge it.

    A longer file is judged by its sample, and the result says how many bytes that was (``sample_bytes``).
    """
    url = resource.get("url") or ""
    reading = Reading(resource.get("format") or "")
    fetched = fetch(url, policy, head_bytes=settings.openness_sample_bytes(), stream=reading.start)
    sampled: dict[str, int] = {}
    if not fetched.ok:
        # The finding itself is kept, so that the page shows it in each reader's language.
        why = {"problem": fetched.problem.as_dict()} if fetched.problem else {}
        checks = [_check("available", False, status=fetched.status, **why)]
    else:
        checks = [_check("available", True), *reading.findings(cut=fetched.truncated)]
        sampled = {"sample_bytes": reading.size} if fetched.truncated else {}
    return {
        "checked_at": _now(),
        "url": url,
        "passed": summary(checks),
        "checks": checks,
        **sampled,
    }


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _store(resource_id: str, result: dict[str, Any]) -> None:
    # Written to the model directly: the result is the system's finding, not an edit of the record, so it
    # must not count as the record's last modification nor fail on the record's own validation.
    resource = model.Resource.get(resource_id)
    resource.extras = {**(resource.extras or {}), FIELD: json.dumps(result, ensure_ascii=False)}
    model.repo.commit()


def run_checks(package_id: str, resource_ids: Sequence[str], allow_private_addresses: bool = False) -> None:
    """The background job: check the resources, store each result, re-index the dataset.

    Private addresses are read only when a sysadmin asked (``allow_private_addresses``), whatever the site's
    harvest option says: the curator who starts a check must not reach the portal's own network through it.
    """
    context = {"ignore_auth": True, "use_cache": False}
    package = tk.get_action("package_show")(context, {"id": package_id})
    policy = settings.site_check_fetch_policy(allow_private_addresses)
    for resource in package.get("resources", []):
        if resource["id"] in resource_ids:
            _store(resource["id"], _checked(resource, policy))
    search.rebuild(package_id)


def _checked(resource: dict[str, Any], policy: FetchPolicy) -> dict[str, Any]:
    try:
        return check_resource(resource, policy)
    except Exception as error:  # noqa: BLE001 (a file no reader could take is a failed check, never left pending)
        log.exception("Openness check of resource %s failed", resource["id"])
        checks = [_check("available", True), _check("format", False, error=type(error).__name__),
                  _check("one_table", None), _check("header", None), _check("consistent_rows", None)]
        return {"checked_at": _now(), "url": resource.get("url") or "", "passed": False, "checks": checks}


def _target(identifier: str) -> tuple[model.Package, list[str]]:
    resource = model.Resource.get(identifier)
    if resource is not None and resource.state == "active":
        return resource.package, [resource.id]
    package = model.Package.get(identifier)
    if package is None or package.state == "deleted":
        raise tk.ObjectNotFound(tk._("No dataset or resource with this id"))
    return package, [r.id for r in package.resources if r.state == "active"]


def openness_check(context: dict, data_dict: dict) -> dict[str, Any]:
    """Queue the openness check of a dataset's resources as a background job; each is shown pending until then.

    :param id: a dataset's id or name (all its resources), or one resource's id
    :param allow_private_addresses: also read files on private and loopback addresses (sysadmins only)
    :returns: ``{"job_id", "queued": True, "resources": [ids]}``; the results appear on the resources
        (``openness_check``) once the jobs worker has run the check
    """
    identifier = tk.get_or_bust(data_dict, "id")
    package, resource_ids = _target(identifier)
    tk.check_access("passport_openness_check", context, {"id": package.id})
    allow_private = private_addresses_allowed(context, data_dict)
    _count_within_rate_limits(context, package.id)
    for resource_id in resource_ids:
        _store(resource_id, {"pending": True, "queued_at": _now()})
    search.rebuild(package.id)
    job = tk.enqueue_job(run_checks, [package.id, resource_ids, allow_private],
                         title=f"openness check {package.name}")
    return {"job_id": job.id, "queued": True, "resources": resource_ids}


def _count_within_rate_limits(context: dict, package_id: str) -> None:
    """Count this check against the starter's and the record's limits; refuse it once either is used up."""
    window = settings.openness_rate_window()
    minutes = max(1, math.ceil(window / 60))
    limits = [(("user", context.get("user") or ""), settings.openness_rate_per_user(), "openness.rate_user"),
              (("record", package_id), settings.openness_rate_per_record(), "openness.rate_record")]
    for parts, limit, code in limits:
        if rate_limits.count(rate_limits.key("openness", *parts), window) > limit:
            raise tk.ValidationError({"rate_limit": [_refusal(problem(code, limit=limit, minutes=minutes))]})


def _refusal(found: Problem) -> str:
    return f"[{found.code}] {found.message(reader_translate())}"


def rate_limit_keys() -> str:
    """Redis key pattern of every openness check counter of this site (tests and operators clear them with it)."""
    return rate_limits.key("openness", "*")


blueprint = Blueprint("passport_openness", __name__)


@blueprint.route("/dataset/<id>/passport/openness-check", methods=["POST"])
def start(id: str) -> Any:
    """The dataset page's button: queue the check of every resource, then show the page (the resources pending).
    A sysadmin may tick private addresses, as on the site check's form."""
    # CKAN 2.11 checks CSRF only for sessions it knows (see catalog.workflow.views._require_csrf).
    current_app.extensions["csrf"].protect()
    try:
        tk.get_action("passport_openness_check")(
            {"user": tk.g.user}, {"id": id, "allow_private_addresses": tk.request.form.get("allow_private_addresses")})
    except tk.ObjectNotFound:
        return tk.abort(404, tk._("Dataset not found"))
    except tk.NotAuthorized as error:
        return tk.abort(403, str(error) or tk._("Not authorized"))
    except tk.ValidationError as error:
        return tk.abort(429, " ".join(error.error_dict.get("rate_limit", [])))
    return tk.redirect_to(tk.url_for("dataset.read", id=id) + "#passport-openness-results")


def blueprints() -> list[Blueprint]:
    return [blueprint]


def openness_check_auth(context: dict, data_dict: dict) -> dict[str, Any]:
    """Curators (who may edit the dataset) and sysadmins."""
    try:
        tk.check_access("package_update", context, {"id": data_dict.get("id")})
    except tk.NotAuthorized:
        return {"success": False, "msg": tk._("Only the dataset's curators may run the openness check")}
    return {"success": True}


def keep_stored_result(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Resource edits never set the result: whatever is sent, the stored one (or none) is kept."""
    resource_id = data.get(key[:-1] + ("id",))
    resource = model.Resource.get(resource_id) if isinstance(resource_id, str) and resource_id else None
    stored = (resource.extras or {}).get(FIELD) if resource is not None else None
    if stored is None or stored is missing:
        data.pop(key, None)
        raise tk.StopOnError
    data[key] = stored


def actions() -> dict[str, Any]:
    return {"passport_openness_check": openness_check}


def auth_functions() -> dict[str, Any]:
    return {"passport_openness_check": openness_check_auth}


def validators() -> dict[str, Any]:
    return {"passport_openness_guard": keep_stored_result}
