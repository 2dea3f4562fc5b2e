"""Actions of the publishers' site check: start one (``passport_site_check``), read one (``passport_site_check_show``),
list one's own (``passport_site_check_list``).

Who may start one: signed-in users, and anonymous visitors too when ``ckanext.passport.site_check_public`` is on.
A check's id is its shareable link: anyone who has it reads the report (one that read private addresses: sysadmins
only). Refusals carry a stable
code and a message in the reader's language (``[code] message``): a bad URL, a private address (never named by the
address it resolves to), a full queue (``site_check_max_queued`` checks waiting or running), a rate
limit (per user, an anonymous visitor counted by client address or IPv6 /64, and per checked host: its registrable
domain and its addresses, see ``hosts``).
"""
from __future__ import annotations

import datetime
import socket
from typing import Any, Optional
from urllib.parse import urlsplit

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport import rate_limits, settings
from ckanext.passport.catalog.user_checks import private_addresses_allowed, refusal
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.addresses import LookupTimeout
from ckanext.passport.mr.fetch import refused_address, resolve
from ckanext.passport.mr.model import Problem, Translate
from ckanext.passport.mr.problems import from_dict, problem

from ..shape import finding
from . import history
from . import hosts
from . import job as site_check_job
from .model import FAILED, SiteCheck, add, now
from .report import FixedUrl, restored, site_document

MAX_URL_LENGTH = 2000
# The web request that starts a check looks the host up at once; a resolver that does not answer in this time
# lets the check be queued (its job's fetches have their own deadlines) rather than hold the request.
_LOOKUP_SECONDS = 3.0
# Earlier checks listed by default, and at most.
_LIST_LIMIT = 20
_LIST_MAX = 100


def _invalid(field: str, found: Problem) -> tk.ValidationError:
    return tk.ValidationError({field: [refusal(found)]})


# --- starting a check -------------------------------------------------------------------------------------


def site_check(context: dict, data_dict: dict[str, Any]) -> dict[str, str]:
    """Start checking a site, a registry or one passport; the check runs as a background job.

    :param url: the address (``http://`` or ``https://``) of the site, its registry or a passport
    :param allow_private_addresses: also read from private and loopback addresses (sysadmins only)
    :returns: ``{"id": ...}``, the check to follow with ``passport_site_check_show``
    """
    tk.check_access("passport_site_check", context, data_dict)
    user = context.get("user") or ""
    allow_private = private_addresses_allowed(context, data_dict)
    url, host = checked_url(data_dict.get("url"))
    addresses = _lookup(url, host)
    if not allow_private:
        _refuse_private(host, addresses)
    _refuse_when_full()
    _count_within_rate_limits(context, host, addresses)
    account = model.User.get(user) if user else None
    check = add(url, host, account.id if account else None, allow_private)
    tk.enqueue_job(site_check_job.run, [check.id], title=f"passport site check {url}", queue=site_check_job.QUEUE,
                   rq_kwargs={"timeout": settings.site_check_timeout()})
    return {"id": check.id}


def checked_url(value: Any) -> tuple[str, str]:
    """``(url, host)`` of an address a check may read, or a ValidationError saying what is wrong with it."""
    url = value.strip() if isinstance(value, str) else ""
    if not url:
        raise _invalid("url", problem("site_check.url_missing"))
    if len(url) > MAX_URL_LENGTH:
        raise _invalid("url", problem("site_check.url_too_long", limit=MAX_URL_LENGTH))
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a malformed port raises here)
    except ValueError:
        raise _invalid("url", problem("site_check.url_invalid", address=url))
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise _invalid("url", problem("site_check.url_invalid", address=url))
    host = rate_limits.host_key(parts.hostname)
    if not host:
        raise _invalid("url", problem("site_check.url_invalid", address=url))
    return url, host


def _lookup(url: str, host: str) -> list[str]:
    """The addresses of ``host`` (its key: ASCII, an IP literal as itself) now; ``[]`` when it does not resolve
    within :data:`_LOOKUP_SECONDS`."""
    parts = urlsplit(url)
    try:
        return resolve(host, parts.port or (443 if parts.scheme.lower() == "https" else 80), timeout=_LOOKUP_SECONDS)
    except (socket.gaierror, UnicodeError, LookupTimeout):
        return []


def _refuse_private(host: str, addresses: list[str]) -> None:
    """Refuse at once a host on a private network: the job's fetch guard would refuse it anyway, later.

    The refusal names neither the host (it is in the form's field) nor the address it resolved to (an internal
    name's address is the portal's network plan). A host that did not resolve is let through: the report will say
    the site could not be reached.
    """
    if refused_address(host, addresses) is not None:
        raise _invalid("url", problem("site_check.private_address"))


def _refuse_when_full() -> None:
    """Refuse a check while as many as the site takes are waiting or running, before any limit is counted."""
    limit = settings.site_check_max_queued()
    if site_check_job.waiting() >= limit:
        raise _invalid("rate_limit", problem("site_check.busy", limit=limit))


def _count_within_rate_limits(context: dict, host: str, addresses: list[str]) -> None:
    """Count this check against the starter's and the host's limits; refuse it once either is used up."""
    window = settings.site_check_rate_window()
    minutes = hosts.window_minutes()
    user = context.get("user")
    starter = ("user", user) if user else ("client", rate_limits.client_hash(context))
    limit = settings.site_check_rate_per_user()
    if rate_limits.count(rate_limits.key("site_check", *starter), window) > limit:
        raise _invalid("rate_limit", problem("site_check.rate_user", limit=limit, minutes=minutes))
    if not hosts.counted_within_limit(rate_limits.host_keys(host, lambda _name: addresses)):
        limit = settings.site_check_rate_per_host()
        raise _invalid("rate_limit", problem("site_check.rate_host", host=host, limit=limit, minutes=minutes))


def rate_limit_keys() -> str:
    """Redis key pattern of every site check counter of this site (tests and operators clear them with it)."""
    return rate_limits.key("site_check", "*")


# --- reading a check --------------------------------------------------------------------------------------


@tk.side_effect_free
def site_check_show(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """A check: its status (``queued``, ``running``, ``finished``, ``failed``), progress and report.

    :param id: the check's id
    :returns: ``{"id", "url", "private_addresses", "status", "progress": {"done", "total"}, "created",
        "started", "finished", "report", "failure"}``: ``private_addresses`` whether the check read private
        addresses (then only sysadmins read it), ``report`` (the conformance report's shape, messages in the
        reader's language) once finished, ``failure`` (a finding with its code) once failed
    """
    tk.check_access("passport_site_check_show", context, data_dict)
    check = SiteCheck.get(data_dict.get("id") or "")
    if check is None:
        raise tk.ObjectNotFound(tk._("Site check not found"))
    translate = reader_translate()
    stored = check.stored_result()
    status, failure, finished = _state(check)
    failed = from_dict(failure) if failure else None
    return {
        "id": check.id,
        "url": check.url,
        "private_addresses": check.allow_private_addresses,
        "status": status,
        "progress": {"done": check.done, "total": check.total},
        "created": check.created.isoformat(),
        "started": check.started.isoformat() if check.started else None,
        "finished": finished.isoformat() if finished else None,
        "report": _document(stored, check.id, translate) if stored else None,
        "failure": finding(failed, translate) if failed else None,
    }


@tk.side_effect_free
def site_check_list(context: dict, data_dict: dict[str, Any]) -> list[dict[str, Any]]:
    """The caller's own checks, newest first: the checks whose links they were given when they started them.

    Nobody else's check is listed, a sysadmin's list included: a check is found by its link, and this lists only
    the links its caller already had. An anonymous visitor's checks are not told apart, so none are listed.

    :param url: only the checks of this address's host (optional)
    :param exclude: a check's id to leave out (optional; its own page lists the others)
    :param limit: at most this many (default 20, at most 100)
    :returns: ``[{"id", "url", "status", "created", "finished", "passports", "read", "mean_score"}]``: the
        counts of a finished check's report, ``None`` for one without a report
    """
    tk.check_access("passport_site_check_list", context, data_dict)
    user = context.get("user") or ""
    account = model.User.get(user) if user else None
    if account is None:
        return []
    host = checked_url(data_dict["url"])[1] if data_dict.get("url") else None
    try:
        limit = min(max(int(data_dict.get("limit") or _LIST_LIMIT), 1), _LIST_MAX)
    except (TypeError, ValueError):
        raise tk.ValidationError({"limit": [tk._("Invalid integer")]})
    return [_listed(check, counts)
            for check, counts in history.own_checks(account.id, host, data_dict.get("exclude") or None, limit)]


def _listed(check: SiteCheck, counts: Optional[history.Counts]) -> dict[str, Any]:
    status, _failure, finished = _state(check)
    return {"id": check.id, "url": check.url, "status": status, "created": check.created.isoformat(),
            "finished": finished.isoformat() if finished else None,
            "passports": counts.passports if counts else None, "read": counts.read if counts else None,
            "mean_score": counts.mean_score if counts else None}


def _state(check: SiteCheck) -> tuple[str, Optional[dict[str, Any]], Optional[datetime.datetime]]:
    """A check's status, failure and end, a check its worker stopped already as failed."""
    timeout = settings.site_check_timeout()
    # Read only: the job writes the failure down (site_check.job._fail_stopped), this says what it will be.
    if site_check_job.stopped(check, timeout, now()):
        failure, finished = site_check_job.timed_out(check, timeout)
        return FAILED, failure, finished
    return check.status, check.stored_failure() if check.status == FAILED else None, check.finished


def _document(stored: dict[str, Any], check_id: str, translate: Translate) -> dict[str, Any]:
    report, offered = restored(stored)
    return site_document(report, translate, _fixed_url(check_id), offered)


def _fixed_url(check_id: str) -> FixedUrl:
    def url(number: int, name: str) -> str:
        return tk.url_for("passport_site_check.fixed_file", id=check_id, number=number, name=name, _external=True)

    return url


# --- authorization ----------------------------------------------------------------------------------------


@tk.auth_allow_anonymous_access
def site_check_auth(context: dict, data_dict: Optional[dict] = None) -> dict[str, Any]:
    """Signed-in users; anonymous visitors only when the site check is public."""
    if context.get("user") or settings.site_check_public():
        return {"success": True}
    return {"success": False, "msg": refusal(problem("site_check.sign_in"))}


@tk.auth_allow_anonymous_access
def site_check_show_auth(context: dict, data_dict: Optional[dict] = None) -> dict[str, Any]:
    """A check's link is for sharing: anyone who has it reads the report, a publisher without an account too.

    The id is unguessable and the report says only what the checked site publishes. A check that read private
    addresses (a sysadmin's) may tell of the local network: only sysadmins read it.
    """
    check = SiteCheck.get((data_dict or {}).get("id") or "")
    if check is not None and check.allow_private_addresses and not authz.is_sysadmin(context.get("user")):
        return {"success": False, "msg": refusal(problem("site_check.private_sysadmin_only"))}
    return {"success": True}


@tk.auth_allow_anonymous_access
def site_check_list_auth(context: dict, data_dict: Optional[dict] = None) -> dict[str, Any]:
    """Anyone may ask: the list holds only the caller's own checks (none for an anonymous visitor)."""
    return {"success": True}


def actions() -> dict[str, Any]:
    return {"passport_site_check": site_check, "passport_site_check_show": site_check_show,
            "passport_site_check_list": site_check_list}


def auth_functions() -> dict[str, Any]:
    return {"passport_site_check": site_check_auth, "passport_site_check_show": site_check_show_auth,
            "passport_site_check_list": site_check_list_auth}
