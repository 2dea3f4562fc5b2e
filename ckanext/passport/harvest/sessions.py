"""Each harvest source's own guarded HTTP session, kept across its objects by the consumer that serves them."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ckanext.passport.mr.fetch import FetchPolicy, make_session

# A consumer serves every source of the site; the sessions of the sources it met last are kept.
_SESSIONS_KEPT = 32
_sessions: "OrderedDict[tuple[str, bool, str], Any]" = OrderedDict()
_sessions_lock = threading.Lock()


def source_session(source_id: str, policy: FetchPolicy) -> Any:
    """The source's own guarded session: connections kept alive across its passports, and a cookie jar no other
    source shares (a site's cookies never travel to another source's site, nor decide what it is served).

    Keyed by what :func:`make_session` takes from a policy; the least recently used beyond the kept number is
    closed (closing only drops its connections: a fetch still using it reconnects)."""
    key = (source_id, policy.allow_private_addresses, policy.user_agent)
    with _sessions_lock:
        session = _sessions.pop(key, None) or make_session(policy)
        _sessions[key] = session
        evicted = _sessions.popitem(last=False)[1] if len(_sessions) > _SESSIONS_KEPT else None
    if evicted is not None:
        evicted.close()
    return session
