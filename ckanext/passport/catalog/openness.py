"""The automatic part of the level-3 openness check (Czech technical standards for open datasets).

For each resource (distribution) it checks what a machine can: UTF-8 encoding, a table format (CSV, XML or
JSON), one table per distribution, a header, and rows that all have the header's structure. :func:`assess`
is pure (bytes in, findings out). The action never fetches in the web request: it marks the resources
``pending`` and queues a CKAN background job (:func:`run_checks`, run by ``ckan jobs worker``) that fetches
each file through ``mr.fetch`` (size cap, timeouts) with the site check's address rule (private addresses only
when a sysadmin asks for them, never because harvests may read them) and stores the result on the resource as
``openness_check``, which the dataset page shows beside the conditions checklist. Only this module writes that
field: :func:`keep_stored_result` keeps it out of reach of ordinary resource edits, so a result always comes
from a check.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import re
from datetime import datetime, timezone
from typing import Any, Iterable, Optional, Sequence

import ckan.lib.search as search
import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing
from flask import Blueprint, current_app

from ckanext.passport import settings
from ckanext.passport.conformance.site_check.actions import private_addresses_allowed
from ckanext.passport.mr.csvrows import detect_delimiter
from ckanext.passport.mr.decode import decode_bytes
from ckanext.passport.mr.fetch import FetchPolicy, fetch
from ckanext.passport.mr.safexml import parse_xml

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
    try:
        content.decode("utf-8")
        utf8 = _check("utf8", True)
    except UnicodeDecodeError as error:
        utf8 = _check("utf8", False, encoding=decode_bytes(content).encoding, offset=error.start)
    kind = detect_kind(content, format_hint, content_type)
    text = decode_bytes(content).text
    if kind == "csv":
        return [utf8, *_assess_csv(text)]
    if kind == "xml":
        return [utf8, *_assess_xml(content)]
    if kind == "json":
        return [utf8, *_assess_json(text)]
    return [utf8, _check("format", False, kind=kind), _check("one_table", None), _check("header", None),
            _check("consistent_rows", None)]


def _assess_csv(text: str) -> list[dict[str, Any]]:
    delimiter = detect_delimiter(text)
    records: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)
    line = 1
    try:
        for cells in reader:
            records.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as error:
        return [_check("format", False, kind="csv", line=line, error=str(error)),
                _check("one_table", None), _check("header", None), _check("consistent_rows", None)]
    rows = [(number, cells) for number, cells in records if any(cell.strip() for cell in cells)]
    if not rows:
        return [_check("format", False, kind="csv"), _check("one_table", None), _check("header", None),
                _check("consistent_rows", None)]
    last_row_line = rows[-1][0]
    gap = next((n for n, cells in records if n < last_row_line and not any(c.strip() for c in cells)), None)
    one_table = _check("one_table", gap is None, **({"line": gap} if gap else {}))
    header_line, header = rows[0]
    header_ok = _looks_like_header(header)
    width = len(header)
    uneven = [number for number, cells in rows[1:] if len(cells) != width]
    consistent = _check(
        "consistent_rows", not uneven, columns=width,
        **({"line": uneven[0], "count": len(uneven)} if uneven else {}),
    )
    return [_check("format", True, kind="csv", delimiter=delimiter), one_table,
            _check("header", header_ok, **({} if header_ok else {"line": header_line})), consistent]


def _looks_like_header(cells: Sequence[str]) -> bool:
    """Names, not data: every cell filled, no two alike, none a number or a date."""
    names = [cell.strip() for cell in cells]
    return (
        len(names) >= 1
        and all(names)
        and len(set(n.casefold() for n in names)) == len(names)
        and not any(_NUMBER_OR_DATE.match(n) for n in names)
    )


def _assess_xml(content: bytes) -> list[dict[str, Any]]:
    root, problems = parse_xml(content)
    if root is None:
        why = {"problem": problems[-1].as_dict()} if problems else {}
        return [_check("format", False, kind="xml", **why), _check("one_table", None),
                _check("header", None), _check("consistent_rows", None)]
    rows = [child for child in root if isinstance(child.tag, str)]
    tags = {row.tag for row in rows}
    one_table = _check("one_table", len(tags) == 1, **({"elements": len(tags)} if len(tags) != 1 else {}))
    shapes = [_xml_shape(row) for row in rows]
    uneven = [index for index, shape in enumerate(shapes, start=1) if shape != shapes[0]] if shapes else []
    return [_check("format", True, kind="xml"), one_table, _check("header", None),
            _check("consistent_rows", bool(rows) and not uneven, **({"row": uneven[0], "count": len(uneven)} if uneven else {}))]


def _xml_shape(row: Any) -> tuple[frozenset, frozenset]:
    return frozenset(row.attrib), frozenset(child.tag for child in row if isinstance(child.tag, str))


def _assess_json(text: str) -> list[dict[str, Any]]:
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except ValueError as error:
        return [_check("format", False, kind="json", error=str(error)), _check("one_table", None),
                _check("header", None), _check("consistent_rows", None)]
    rows = _json_rows(document)
    if rows is None:
        return [_check("format", True, kind="json"), _check("one_table", False), _check("header", None),
                _check("consistent_rows", None)]
    keys = [frozenset(row) if isinstance(row, dict) else None for row in rows]
    uneven = [index for index, shape in enumerate(keys, start=1) if shape is None or shape != keys[0]]
    return [_check("format", True, kind="json"), _check("one_table", True), _check("header", None),
            _check("consistent_rows", bool(rows) and not uneven, **({"row": uneven[0], "count": len(uneven)} if uneven else {}))]


def _json_rows(document: Any) -> Optional[list[Any]]:
    """The table's rows: a top-level array, or the one array held by a top-level object."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        arrays = [value for value in document.values() if isinstance(value, list)]
        if len(arrays) == 1:
            return arrays[0]
    return None


def summary(checks: Iterable[dict[str, Any]]) -> bool:
    """The distribution passes when every applicable check passed."""
    return all(check["passed"] is not False for check in checks)


# --- running and storing ------------------------------------------------------------------------------------


def check_resource(resource: dict[str, Any], policy: FetchPolicy) -> dict[str, Any]:
    url = resource.get("url") or ""
    fetched = fetch(url, policy)
    if not fetched.ok:
        # The finding itself is kept, so that the page shows it in each reader's language.
        why = {"problem": fetched.problem.as_dict()} if fetched.problem else {}
        checks = [_check("available", False, status=fetched.status, **why)]
    else:
        checks = [_check("available", True),
                  *assess(fetched.content, resource.get("format") or "", fetched.content_type)]
    return {
        "checked_at": _now(),
        "url": url,
        "passed": summary(checks),
        "checks": checks,
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
    for resource_id in resource_ids:
        _store(resource_id, {"pending": True, "queued_at": _now()})
    search.rebuild(package.id)
    job = tk.enqueue_job(run_checks, [package.id, resource_ids, allow_private],
                         title=f"openness check {package.name}")
    return {"job_id": job.id, "queued": True, "resources": resource_ids}


blueprint = Blueprint("passport_openness", __name__)


@blueprint.route("/dataset/<id>/passport/openness-check", methods=["POST"])
def start(id: str) -> Any:
    """The dataset page's button: queue the check of every resource, then show the page (the resources pending).
    A sysadmin may tick private addresses, as on the site check's form."""
    # CKAN 2.11 checks CSRF only for sessions it knows (see catalog.views._require_csrf).
    current_app.extensions["csrf"].protect()
    try:
        tk.get_action("passport_openness_check")(
            {"user": tk.g.user}, {"id": id, "allow_private_addresses": tk.request.form.get("allow_private_addresses")})
    except tk.ObjectNotFound:
        return tk.abort(404, tk._("Dataset not found"))
    except tk.NotAuthorized as error:
        return tk.abort(403, str(error) or tk._("Not authorized"))
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
