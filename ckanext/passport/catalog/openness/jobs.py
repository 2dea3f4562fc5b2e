"""The check as a CKAN background job (``ckan jobs worker``): each file's first ``openness_sample_bytes`` read through
``mr.fetch`` (timeouts; a head read handed on piece by piece, so a check holds about the same memory for a 50 MiB
file as for a small one) with the site check's address rule (private addresses only when a sysadmin asks for them,
never because harvests may read them), the result stored on the resource as ``openness_check``. Only this module
writes that field (validators.keep_stored_result keeps it out of reach of ordinary resource edits), so a result
always comes from a check.
"""
from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any, Sequence

import ckan.lib.search as search
import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.mr.fetch import FetchPolicy, fetch

from .assessment import FIELD, Reading, finding, summary

log = logging.getLogger(__name__)


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
        checks = [finding("available", False, status=fetched.status, **why)]
    else:
        checks = [finding("available", True), *reading.findings(cut=fetched.truncated)]
        sampled = {"sample_bytes": reading.size} if fetched.truncated else {}
    return {
        "checked_at": now(),
        "url": url,
        "passed": summary(checks),
        "checks": checks,
        **sampled,
    }


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def store(resource_id: str, result: dict[str, Any]) -> None:
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
            store(resource["id"], _checked(resource, policy))
    search.rebuild(package_id)


def _checked(resource: dict[str, Any], policy: FetchPolicy) -> dict[str, Any]:
    try:
        return check_resource(resource, policy)
    except Exception as error:  # noqa: BLE001 (a file no reader could take is a failed check, never left pending)
        log.exception("Openness check of resource %s failed", resource["id"])
        checks = [finding("available", True), finding("format", False, error=type(error).__name__),
                  finding("one_table", None), finding("header", None), finding("consistent_rows", None)]
        return {"checked_at": now(), "url": resource.get("url") or "", "passed": False, "checks": checks}
