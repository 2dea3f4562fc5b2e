"""Why a link of a record is broken (or was not checked): codes in the project's one problem catalogue
(``mr.problems``), rendered in the reader's language where they are shown. Pure, like ``lkod.problems``.

Each is what the fetch guard found, told from the curator's side: what to fix is the link, not the portal.
"""
from __future__ import annotations

from ckanext.passport.mr.model import Severity
from ckanext.passport.mr.problems import N_, define

NOT_FOUND = define(
    "links.not_found", Severity.ERROR, N_("nothing is there (HTTP {status})"),
    meaning=N_("A link leads to nothing"),
)
HTTP_ERROR = define(
    "links.http_error", Severity.ERROR, N_("the server refused the request (HTTP {status})"),
    meaning=N_("A link's server refused the request"),
)
SERVER_ERROR = define(
    "links.server_error", Severity.ERROR, N_("the server failed to answer (HTTP {status})"),
    meaning=N_("A link's server failed to answer"),
)
TIMEOUT = define(
    "links.timeout", Severity.ERROR, N_("{host} did not answer within {seconds} s"),
    meaning=N_("A link's server did not answer in time"),
)
# ``reason`` is the fetch's own finding (name not resolved, connection refused or reset …), rendered with it.
UNREACHABLE = define(
    "links.unreachable", Severity.ERROR, N_("{host} could not be reached: {reason}"),
    meaning=N_("A link's server could not be reached"),
)
REFUSED_PRIVATE = define(
    "links.refused_private", Severity.ERROR,
    N_("{host} is not a public address (a private, local or special-purpose network): the portal does not check "
       "links there"),
    meaning=N_("A link is on a non-public address, which the portal does not check"),
)
INVALID_URL = define(
    "links.invalid_url", Severity.ERROR, N_("the link is not a valid http:// or https:// web address"),
)
REDIRECTS = define(
    "links.redirects", Severity.ERROR, N_("the link's redirects loop or go on too long"),
)
TLS_FAILED = define(
    "links.tls_failed", Severity.ERROR,
    N_("the secure connection to {host} failed: its certificate or encryption could not be verified"),
    meaning=N_("The secure connection to a server failed"),
)
NOT_CHECKED = define(
    "links.not_checked", Severity.INFO,
    N_("not checked: the {seconds} s the record's link check may take were spent on its other links"),
    meaning=N_("A link was not checked because the record's link check ran out of time"),
)
