"""The ``passport_openness_check`` action: it never fetches in the web request; it counts the check against the
starter's and the record's rate limits, marks the resources ``pending`` and queues the job (jobs.run_checks)."""
from __future__ import annotations

import math
from typing import Any

import ckan.lib.search as search
import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport import rate_limits, settings
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

from ..user_checks import private_addresses_allowed
from .jobs import now, run_checks, store


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
        store(resource_id, {"pending": True, "queued_at": now()})
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


def actions() -> dict[str, Any]:
    return {"passport_openness_check": openness_check}
