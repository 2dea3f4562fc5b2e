"""One link asked for its status through the fetch guard (``mr.fetch``, the one way out): HEAD first, then GET when
the server refuses HEAD (405, 501, or a connection closed on it), reading at most one byte of the body.

No CKAN here: a policy and a budget in, an :class:`Outcome` out; the job and the command keep it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult, fetch
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.urls import split


OK, BROKEN, UNCHECKED = "ok", "broken", "unchecked"
# A server that does not take HEAD says so, or drops the connection; GET is then asked for one byte.
HEAD_REFUSED_STATUSES = frozenset({405, 501})
HEAD_REFUSED_CODES = frozenset({"fetch.connection_reset"})
# The fetch's findings told as a link's (a fetch code missing here is ``links.unreachable``, its finding as reason).
_BY_FETCH_CODE = {
    "fetch.not_found": "links.not_found",
    "fetch.http_error": "links.http_error",
    "fetch.server_error": "links.server_error",
    "fetch.timeout": "links.timeout",
    "fetch.refused_address": "links.refused_private",
    "fetch.bad_scheme": "links.invalid_url",
    "fetch.invalid_url": "links.invalid_url",
    "fetch.too_many_redirects": "links.redirects",
    "fetch.redirect_loop": "links.redirects",
    "fetch.tls_failed": "links.tls_failed",
}


@dataclass(frozen=True)
class Outcome:
    status: str
    http_status: Optional[int] = None
    finding: Optional[Problem] = None

    @property
    def code(self) -> Optional[str]:
        return self.finding.code if self.finding is not None else None


def probe(url: str, policy: FetchPolicy, budget: Optional[Deadline] = None) -> Outcome:
    """The status of ``url``: ``ok`` on a 2xx answer (redirects followed), else ``broken`` with its ``links.*``
    finding. Each request ends by ``policy.total_timeout`` and by ``budget``, whichever comes first."""
    result = fetch(url, policy, deadline=budget, method="HEAD")
    if _head_refused(result):
        result = fetch(url, policy, deadline=budget, head_bytes=1)
    if result.ok:
        return Outcome(OK, result.status or None)
    return Outcome(BROKEN, result.status or None, finding(url, result))


def not_checked(seconds: float) -> Outcome:
    """A link the record's budget did not reach."""
    return Outcome(UNCHECKED, None, problem("links.not_checked", seconds=f"{seconds:g}"))


def _head_refused(result: FetchResult) -> bool:
    if result.ok or result.problem is None:
        return False
    return result.status in HEAD_REFUSED_STATUSES or result.problem.code in HEAD_REFUSED_CODES


def finding(url: str, result: FetchResult) -> Problem:
    """The failed fetch's finding as a link's."""
    found = result.problem
    assert found is not None
    params: dict[str, Any] = dict(found.params)
    host = params.get("host") or _host(url)
    code = _BY_FETCH_CODE.get(found.code)
    if code is None:
        return problem("links.unreachable", url=url, host=host, reason=found)
    if code in ("links.not_found", "links.http_error", "links.server_error"):
        return problem(code, url=url, status=result.status or params.get("status"))
    if code == "links.timeout":
        return problem(code, url=url, host=host, seconds=params.get("seconds"))
    if code in ("links.refused_private", "links.tls_failed"):
        return problem(code, url=url, host=host)
    return problem(code, url=url)


def _host(url: str) -> str:
    parts = split(url)
    return (parts.hostname if parts is not None else None) or url
