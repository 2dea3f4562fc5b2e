"""One link asked for its status through the fetch guard (``mr.fetch``, the one way out): HEAD first, then GET when
the server refuses HEAD (405, 501, or a connection closed on it), reading at most one byte of the body.

No CKAN here: a policy and a budget in, an :class:`Outcome` out; the job and the command keep it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ckanext.passport.mr import fetch as fetching
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult, fetch
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.urls import split

from . import problems as codes

OK, BROKEN, UNCHECKED = "ok", "broken", "unchecked"
# A server that does not take HEAD says so, or drops the connection; GET is then asked for one byte.
HEAD_REFUSED_STATUSES = frozenset({405, 501})
HEAD_REFUSED_CODES = frozenset({fetching.CONNECTION_RESET})
# The fetch's findings told as a link's (a fetch code missing here is ``links.unreachable``, its finding as reason).
_BY_FETCH_CODE = {
    fetching.NOT_FOUND: codes.NOT_FOUND,
    fetching.HTTP_ERROR: codes.HTTP_ERROR,
    fetching.SERVER_ERROR: codes.SERVER_ERROR,
    fetching.TIMEOUT: codes.TIMEOUT,
    fetching.REFUSED_ADDRESS: codes.REFUSED_PRIVATE,
    fetching.BAD_SCHEME: codes.INVALID_URL,
    fetching.INVALID_URL: codes.INVALID_URL,
    fetching.TOO_MANY_REDIRECTS: codes.REDIRECTS,
    fetching.REDIRECT_LOOP: codes.REDIRECTS,
    fetching.TLS_FAILED: codes.TLS_FAILED,
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
    return Outcome(UNCHECKED, None, problem(codes.NOT_CHECKED, seconds=f"{seconds:g}"))


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
        return problem(codes.UNREACHABLE, url=url, host=host, reason=found)
    if code in (codes.NOT_FOUND, codes.HTTP_ERROR, codes.SERVER_ERROR):
        return problem(code, url=url, status=result.status or params.get("status"))
    if code == codes.TIMEOUT:
        return problem(code, url=url, host=host, seconds=params.get("seconds"))
    if code in (codes.REFUSED_PRIVATE, codes.TLS_FAILED):
        return problem(code, url=url, host=host)
    return problem(code, url=url)


def _host(url: str) -> str:
    parts = split(url)
    return (parts.hostname if parts is not None else None) or url
