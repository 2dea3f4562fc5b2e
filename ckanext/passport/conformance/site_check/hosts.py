"""The per-host limit of site checks: every host a check reads counts, not only the one it was asked for.

A host counts in the buckets of :func:`rate_limits.host_keys` (its registrable domain and its addresses), each
bucket once per check: the action counts the checked host when it starts the check, and :class:`CheckHosts`, the
job's ``admit`` of every request (``mr.report.check_site``), counts each other host the first time the check would
read it (a passport a registry lists on another host, a redirect). A host past its limit is left unread.
"""
from __future__ import annotations

import math
from typing import Iterable, Optional

from ckanext.passport import rate_limits, settings
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.urls import split



def window_minutes() -> int:
    """The rate-limit window, as the refusals name it."""
    return max(1, math.ceil(settings.site_check_rate_window() / 60))


def counted_within_limit(keys: Iterable[str]) -> bool:
    """Count one check in each of a host's buckets; whether every one of them is still within the limit."""
    window, limit = settings.site_check_rate_window(), settings.site_check_rate_per_host()
    counts = [rate_limits.count(rate_limits.key("site_check", "host", key), window) for key in keys]
    return all(count <= limit for count in counts)


class CheckHosts:
    """The hosts one check has read: ``admit(url)`` lets a request to a host through once it is counted."""

    def __init__(self, checked_host: str, resolver: rate_limits.Resolver = rate_limits.resolved) -> None:
        # The action counted the checked host's buckets: a host sharing one of them costs nothing more.
        self._resolver = resolver
        self._counted = set(rate_limits.host_keys(checked_host, resolver))
        self._admitted = {rate_limits.host_key(checked_host)}
        self._refused: set[str] = set()

    def admit(self, url: str) -> Optional[Problem]:
        parts = split(url)
        name = rate_limits.host_key(parts.hostname or "") if parts is not None else ""
        if not name or name in self._admitted:
            return None  # no host to count: the fetch refuses the address itself
        if name not in self._refused:
            fresh = [key for key in rate_limits.host_keys(name, self._resolver) if key not in self._counted]
            self._counted.update(fresh)
            if counted_within_limit(fresh):
                self._admitted.add(name)
                return None
            self._refused.add(name)
        return problem("site_check.host_limited", url=url, host=name, limit=settings.site_check_rate_per_host(),
                       minutes=window_minutes())
