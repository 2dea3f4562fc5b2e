"""Every network read of the project: bounded, guarded, and never raising for network or input trouble.

Harvest sources are URLs typed by portal editors or found in third-party registries, so a fetch must not
become a way into the portal's own network (SSRF), nor hang or fill memory on a hostile or broken server:

- only ``http``/``https``; each host (of every redirect hop) is resolved and refused when ANY of its
  addresses is not public (:mod:`.addresses`: ``is_global`` and an explicit table of the special-purpose
  networks, IPv4 embedded in IPv6 judged as itself), unless ``FetchPolicy.allow_private_addresses``;
- sessions built by :func:`make_session` check the addresses again at connect time and connect only to the
  address they checked, so DNS answering differently the second time (rebinding) gains nothing;
- redirects are followed by hand, to guard every hop and detect loops;
- the body is streamed and capped (``Content-Length`` and the bytes actually read);
- a head read (``head_bytes``) asks for the first bytes only (``Range``) and stops reading there whatever the
  server sends, so looking at a data file's header never downloads the file.

Deadlines. Each fetch ends by its deadline, ``FetchPolicy.total_timeout`` seconds after it starts (redirects
and retries included), or earlier when a ``deadline`` is given, with ``fetch.timeout``. The deadline holds in
every phase: host lookups run in a worker thread and are given up at it, and a watchdog shuts down the
fetch's sockets when it passes, so a server dripping its TLS handshake, status line, headers, chunk sizes or
body a byte at a time cannot hold a worker (a socket timeout alone bounds one wait, not the whole read). The
watchdog covers sessions made by :func:`make_session` (and a fetch's own); a plain ``requests.Session``
given by a caller keeps only the per-wait timeouts.

A budget several fetches share (a harvest object's, a site check passport's) is a :class:`Deadline`::

    budget = Deadline.after(60)              # 60 s from now, on the monotonic clock
    fetch(url, policy, deadline=budget)      # ends by min(its own total_timeout, what is left of budget)
    budget.remaining(), budget.expired       # seconds left (>= 0); whether it has run out

A fetch started with the budget spent returns ``fetch.timeout`` at once, without a request.
"""
from __future__ import annotations

import socket
import ssl
import time
from dataclasses import dataclass, field
from functools import partial
from http.client import HTTPException
from typing import Any, Callable, Iterator, Optional

import idna
import requests
import urllib3
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from .addresses import LookupTimeout, refused_address, resolve
from .deadline import CURRENT, Deadline, Watchdog, earliest
from .model import Problem
from .problems import problem
from .urls import join, split


# Some government web firewalls answer an HTML challenge page to anything that does not look like a browser.
DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 "
    "ckanext-passport"
)

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_NOT_FOUND_STATUSES = frozenset({404, 410})
_CHUNK = 64 * 1024
_RETRIED = frozenset({"fetch.timeout", "fetch.connection_error"})
# Given a 2xx answer before its body is read (status, headers, content type), the function each piece of the body is
# handed to: a reader that streams (see ``stream`` of :func:`fetch`).
Stream = Callable[["FetchResult"], Callable[[bytes], None]]

# Asked before each hop of a fetch with the hop's URL: None lets it be requested, a problem refuses it.
Admit = Callable[[str], Optional[Problem]]


@dataclass(frozen=True)
class FetchPolicy:
    """Limits of one fetch. Timeouts are seconds; ``total_timeout`` bounds redirects and retries together."""

    connect_timeout: float = 10.0
    read_timeout: float = 30.0
    total_timeout: float = 120.0
    max_bytes: int = 50 * 1024 * 1024
    max_redirects: int = 5
    user_agent: str = DEFAULT_USER_AGENT
    retries: int = 2
    backoff_factor: float = 0.5
    allow_private_addresses: bool = False


@dataclass
class FetchResult:
    ok: bool
    url: str
    content: bytes = b""
    status: int = 0
    headers: CaseInsensitiveDict = field(default_factory=CaseInsensitiveDict)
    not_modified: bool = False
    etag: Optional[str] = None
    last_modified: Optional[str] = None
    content_type: str = ""
    elapsed: float = 0.0
    problem: Optional[Problem] = None
    # A head read stopped before the end of the body: ``content`` is its first ``head_bytes`` only.
    truncated: bool = False


class _Refused(Exception):
    """Raised inside a guarded connection; carried out of requests unchanged (it is not an OSError).

    It names the host only: where an internal name points is the portal's network plan, not the reader's."""

    def __init__(self, host: str) -> None:
        super().__init__(f"{host} is not a public address")
        self.host = host


class _Failure(Exception):
    """Ends a fetch with one problem; internal control flow only, never leaves :func:`fetch`."""

    def __init__(self, found: Problem, status: int = 0) -> None:
        super().__init__(found.code)
        self.problem = found
        self.status = status


@dataclass(frozen=True)
class _Clock:
    """The running fetch's watchdog and the seconds its deadline allowed (named in ``fetch.timeout``)."""

    watchdog: Watchdog
    seconds: float

    def remaining(self) -> float:
        return self.watchdog.remaining()

    def timeout(self, url: str) -> _Failure:
        return _Failure(timed_out(url, self.seconds))


class _WatchedConnectionMixin:
    """Resolve within the fetch's deadline, refuse non-public addresses (``refuse_private``), connect to exactly
    the address that was checked, and hand the socket to the fetch's watchdog before TLS or any byte is read."""

    _dns_host: str
    host: str
    port: int
    timeout: Any

    def __init__(self, *args: Any, refuse_private: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refuse_private = refuse_private

    def _new_conn(self) -> socket.socket:
        watchdog = CURRENT.get()
        name = self._dns_host
        addresses = resolve(name, self.port, _bounded(self.timeout, watchdog))
        if self.refuse_private and refused_address(self.host, addresses) is not None:
            raise _Refused(self.host)
        last_error: OSError = OSError(f"{name} has no address")
        for address in addresses:
            if watchdog is not None and watchdog.remaining() <= 0:
                break  # the fetch reports its timeout
            self._dns_host = address
            try:
                sock = super()._new_conn()  # type: ignore[misc]
            except OSError as error:
                last_error = error
                continue
            finally:
                self._dns_host = name
            if watchdog is not None:
                watchdog.watch(sock)
            return sock
        raise last_error


def _bounded(timeout: Any, watchdog: Optional[Watchdog]) -> Optional[float]:
    """A lookup's time: the connect timeout, cut to what is left of the fetch."""
    seconds = timeout if isinstance(timeout, (int, float)) else None
    if watchdog is None:
        return seconds
    return watchdog.remaining() if seconds is None else min(seconds, watchdog.remaining())


class _WatchedHTTPConnection(_WatchedConnectionMixin, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_WatchedConnectionMixin, HTTPSConnection):
    pass


class _WatchedPoolMixin:
    """A kept-alive connection taken from the pool is watched too: its socket was opened by an earlier fetch."""

    def _get_conn(self, timeout: Optional[float] = None) -> Any:
        conn = super()._get_conn(timeout)  # type: ignore[misc]
        watchdog = CURRENT.get()
        if watchdog is not None and conn.sock is not None:
            watchdog.watch(conn.sock)
        return conn


class _WatchedHTTPConnectionPool(_WatchedPoolMixin, HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSConnectionPool(_WatchedPoolMixin, HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class _WatchedAdapter(HTTPAdapter):
    def __init__(self, refuse_private: bool) -> None:
        # Read by init_poolmanager, which HTTPAdapter's constructor calls.
        self.refuse_private = refuse_private
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        # Pools pass unknown keywords on to their connections; partial keeps them out of urllib3's pool keys.
        self.poolmanager.pool_classes_by_scheme = {
            "http": partial(_WatchedHTTPConnectionPool, refuse_private=self.refuse_private),
            "https": partial(_WatchedHTTPSConnectionPool, refuse_private=self.refuse_private),
        }


def make_session(policy: FetchPolicy = FetchPolicy()) -> requests.Session:
    """A session for many fetches (connection reuse) that keeps the connect-time address guard and the watchdog.

    It ignores proxy variables and ``.netrc`` from the environment: a proxy would be checked as the target,
    and credentials must not travel to harvested hosts.
    """
    session = requests.Session()
    session.trust_env = False
    session.headers["User-Agent"] = policy.user_agent
    adapter = _WatchedAdapter(refuse_private=not policy.allow_private_addresses)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def fetch(
    url: str,
    policy: FetchPolicy = FetchPolicy(),
    etag: Optional[str] = None,
    last_modified: Optional[str] = None,
    session: Optional[requests.Session] = None,
    head_bytes: Optional[int] = None,
    deadline: Optional[Deadline] = None,
    method: str = "GET",
    admit: Optional[Admit] = None,
    stream: Optional[Stream] = None,
    accept: Optional[str] = None,
) -> FetchResult:
    """GET ``url`` within ``policy``; a conditional GET when ``etag`` or ``last_modified`` is given; ``accept``,
    the media types asked for in order (``Accept``: a server negotiating content serves the first it has).

    ``method="HEAD"`` asks for the headers only (a link check): every hop is guarded and followed the same way, and
    a 2xx answer is ``ok`` with no body read at all.

    With ``head_bytes`` only the first ``head_bytes`` bytes are asked for (``Range: bytes=0-<head_bytes - 1>``)
    and read: a longer body, from a server that ignores ``Range``, is cut there and ``truncated`` is set; it is
    no ``fetch.too_large`` error, since the head is all that was wanted.

    ``deadline`` is a budget shared with other fetches: this one ends by it too (see the module's docstring).

    ``admit(url)`` is asked before each hop (the first and every redirect's target): a problem it returns ends the
    fetch with that problem, before any request to that hop's host (a caller's limit on the hosts it reads).

    With ``stream`` the body is handed on instead of kept: once a 2xx answer's headers are in, ``stream(result)``
    gives the function each piece is passed to as it is read (never a byte past the cap), and ``content`` stays
    empty, so a caller that reads as the pieces come holds no more than a piece (the openness check's sample). The
    limits, ``head_bytes`` and ``truncated`` are as without it; an error after some pieces is the result's problem
    as ever, and what the function raises ends the fetch and reaches the caller.

    A given ``session`` is used as is (build it with :func:`make_session` to keep the connect-time guard and the
    watchdog); the resolve-time guard applies to every hop in any case.
    """
    started = time.monotonic()
    own = Deadline.after(policy.total_timeout)
    ends = earliest(own, deadline)
    clock = _Clock(Watchdog(ends), ends.seconds)
    watching = CURRENT.set(clock.watchdog)
    own_session = session is None
    active = make_session(policy) if session is None else session
    headers = _conditional_headers(etag, last_modified)
    if accept:
        headers["Accept"] = accept
    if head_bytes is not None:
        head_bytes = max(1, head_bytes)
        headers["Range"] = f"bytes=0-{head_bytes - 1}"
    try:
        response, current = _follow(url, policy, active, headers, clock, method, admit)
        with response:
            result = _read(response, current, policy, clock, head_bytes, headers_only=method == "HEAD",
                           stream=stream)
    except _Failure as failure:
        result = FetchResult(ok=False, url=failure.problem.location.url or url, status=failure.status,
                             problem=failure.problem)
    finally:
        clock.watchdog.stop()
        CURRENT.reset(watching)
        if own_session:
            active.close()
    result.elapsed = time.monotonic() - started
    return result


def _conditional_headers(etag: Optional[str], last_modified: Optional[str]) -> dict[str, str]:
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    return headers


def _follow(
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], clock: _Clock,
    method: str = "GET", admit: Optional[Admit] = None,
) -> tuple[requests.Response, str]:
    seen = {url}
    current = url
    for _hop in range(policy.max_redirects + 1):
        refused = admit(current) if admit is not None else None
        if refused is not None:
            raise _Failure(refused)
        response = _get_with_retries(current, policy, session, headers, clock, method)
        location = response.headers.get("Location")
        if response.status_code not in _REDIRECT_STATUSES or not location:
            return response, current
        response.close()
        target = join(current, location.strip())
        if target in seen:
            raise _Failure(problem("fetch.redirect_loop", url=current, target=target), response.status_code)
        seen.add(target)
        current = target
    raise _Failure(problem("fetch.too_many_redirects", url=current, limit=policy.max_redirects), 0)


def _get_with_retries(
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], clock: _Clock,
    method: str = "GET",
) -> requests.Response:
    """One hop: a response below 500, after retrying 5xx answers, timeouts and connection errors."""
    if clock.remaining() <= 0:
        raise clock.timeout(url)
    _check_url(url, policy, clock)
    attempts = max(0, policy.retries) + 1
    attempt = 1
    while True:
        try:
            response = _get(url, policy, session, headers, clock, method)
        except _Failure as failed:
            if attempt == attempts or failed.problem.code not in _RETRIED:
                raise
            _sleep_before_retry(policy, attempt, clock, failed)
            attempt += 1
            continue
        if response.status_code < 500:
            return response
        response.close()
        server_error = _Failure(
            problem("fetch.server_error", url=url, status=response.status_code, attempts=attempt), response.status_code
        )
        if attempt == attempts:
            raise server_error
        _sleep_before_retry(policy, attempt, clock, server_error)
        attempt += 1


def _sleep_before_retry(policy: FetchPolicy, attempt: int, clock: _Clock, failure: _Failure) -> None:
    delay = policy.backoff_factor * (2 ** (attempt - 1))
    # Waiting past the deadline would only turn this failure into a timeout; report it as it is.
    if clock.remaining() <= delay:
        raise failure
    time.sleep(delay)


def _get(
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], clock: _Clock,
    method: str = "GET",
) -> requests.Response:
    remaining = clock.remaining()
    if remaining <= 0:
        raise clock.timeout(url)
    timeout = (min(policy.connect_timeout, remaining), min(policy.read_timeout, remaining))
    request_headers = {"User-Agent": policy.user_agent, **headers}
    try:
        return session.request(method, url, headers=request_headers, timeout=timeout, stream=True,
                               allow_redirects=False)
    except _Refused as refused:
        raise _Failure(problem("fetch.refused_address", url=url, host=refused.host))
    except LookupTimeout:
        raise _Failure(timed_out(url, policy.connect_timeout))
    except requests.ConnectTimeout:
        raise _Failure(timed_out(url, policy.connect_timeout))
    except requests.Timeout:
        raise _Failure(timed_out(url, policy.read_timeout))
    except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema, UnicodeError, ValueError):
        raise _Failure(problem("fetch.invalid_url", url=url))
    except requests.RequestException as error:
        # The watchdog's shutdown surfaces as whatever the interrupted read makes of a closed socket.
        if clock.remaining() <= 0:
            raise clock.timeout(url)
        raise _Failure(connection_failure(url, error))


def _check_url(url: str, policy: FetchPolicy, clock: _Clock) -> None:
    """Refuse bad schemes, malformed URLs and non-public hosts before any connection is opened."""
    parts = split(url)
    if parts is None:
        raise _Failure(problem("fetch.invalid_url", url=url))
    port = parts.port
    scheme = parts.scheme.lower()
    if not scheme:
        raise _Failure(problem("fetch.invalid_url", url=url))
    if scheme not in ("http", "https"):
        raise _Failure(problem("fetch.bad_scheme", url=url, scheme=parts.scheme))
    host = parts.hostname
    if not host:
        raise _Failure(problem("fetch.invalid_url", url=url))
    if policy.allow_private_addresses:
        return
    try:
        # The same IDNA 2008/UTS 46 encoding requests uses, so we check the host it will connect to.
        ascii_host = host if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except UnicodeError:
        raise _Failure(problem("fetch.invalid_url", url=url))
    try:
        addresses = resolve(ascii_host, port or (443 if scheme == "https" else 80),
                            min(policy.connect_timeout, clock.remaining()))
    except LookupTimeout:
        raise _Failure(timed_out(url, policy.connect_timeout))
    except (socket.gaierror, UnicodeError):
        raise _Failure(problem("fetch.name_not_resolved", url=url, host=host))
    if refused_address(host, addresses) is not None:
        raise _Failure(problem("fetch.refused_address", url=url, host=host))


def _read(
    response: requests.Response, url: str, policy: FetchPolicy, clock: _Clock, head_bytes: Optional[int] = None,
    headers_only: bool = False, stream: Optional[Stream] = None,
) -> FetchResult:
    status = response.status_code
    result = FetchResult(
        ok=False,
        url=url,
        status=status,
        headers=CaseInsensitiveDict(response.headers),
        etag=response.headers.get("ETag"),
        last_modified=response.headers.get("Last-Modified"),
        content_type=response.headers.get("Content-Type", ""),
    )
    if status == 304:
        result.ok = True
        result.not_modified = True
        return result
    if status in _NOT_FOUND_STATUSES:
        result.problem = problem("fetch.not_found", url=url, status=status)
        return result
    if status == 416 and head_bytes is not None:
        # No byte 0 to send: the file is empty.
        result.ok = True
        return result
    if not 200 <= status < 300:
        result.problem = problem("fetch.http_error", url=url, status=status)
        return result
    if headers_only:
        # A HEAD answer has no body to read; its status is all it says.
        result.ok = True
        return result
    pieces = stream(result) if stream is not None else None
    if head_bytes is not None:
        return _read_head(response, result, policy, clock, head_bytes, pieces)
    declared = response.headers.get("Content-Length", "")
    if declared.strip().isdigit() and int(declared) > policy.max_bytes:
        result.problem = problem("fetch.too_large", url=url, limit=policy.max_bytes)
        return result
    body, found = _read_body(response, url, policy, clock, pieces)
    result.content = body
    result.problem = found
    result.ok = found is None
    return result


def _read_head(
    response: requests.Response, result: FetchResult, policy: FetchPolicy, clock: _Clock, head_bytes: int,
    pieces: Optional[Callable[[bytes], None]] = None,
) -> FetchResult:
    """The first ``head_bytes`` bytes (never more than ``max_bytes``), and whether the body goes on."""
    limit = min(head_bytes, policy.max_bytes)
    body, found, more, size = _read_upto(response, result.url, policy, clock, limit, pieces)
    result.content = body
    result.truncated = more or _partial(response.headers.get("Content-Range", ""), min(size, limit))
    result.problem = found
    result.ok = found is None
    return result


def _partial(content_range: str, received: int) -> bool:
    """Whether a ``206`` answer (``Content-Range: bytes 0-65535/260000``) left bytes of the file unsent."""
    total = content_range.rpartition("/")[2].strip()
    return total.isdigit() and int(total) > received


def _read_body(
    response: requests.Response, url: str, policy: FetchPolicy, clock: _Clock,
    pieces: Optional[Callable[[bytes], None]] = None,
) -> tuple[bytes, Optional[Problem]]:
    """The whole body, or ``fetch.too_large`` as soon as it passes ``max_bytes``."""
    body, found, more, _size = _read_upto(response, url, policy, clock, policy.max_bytes, pieces)
    if found is None and more:
        return b"", problem("fetch.too_large", url=url, limit=policy.max_bytes)
    return body, found


def _read_upto(
    response: requests.Response, url: str, policy: FetchPolicy, clock: _Clock, cap: int,
    pieces: Optional[Callable[[bytes], None]] = None,
) -> tuple[bytes, Optional[Problem], bool, int]:
    """Read at most ``cap + 1`` bytes (decoded), one ``recv`` at a time so the deadline is honoured; each piece
    within ``cap`` is kept, or handed to ``pieces`` when given.

    Returns the bytes kept, the problem that ended the read, whether the body went on past ``cap``, and the bytes
    read.
    """
    chunks: list[bytes] = []
    size = 0
    limit = cap + 1
    try:
        while size < limit:
            if clock.remaining() <= 0:
                return b"", clock.timeout(url).problem, False, size
            chunk = response.raw.read1(min(_CHUNK, limit - size), decode_content=True)
            if not chunk:
                break
            if pieces is None:
                chunks.append(chunk)
            elif size < cap:
                pieces(chunk[:cap - size])
            size += len(chunk)
    except (requests.RequestException, OSError, HTTPException, urllib3.exceptions.HTTPError) as error:
        if clock.watchdog.fired:
            return b"", clock.timeout(url).problem, False, size
        if _is_timeout(error):
            return b"", timed_out(url, policy.read_timeout), False, size
        return b"", connection_failure(url, error), False, size
    if clock.watchdog.fired:
        # A body without a length ends where the connection closes: the shutdown is no end of the body.
        return b"", clock.timeout(url).problem, False, size
    body = b"".join(chunks)
    return body[:cap], None, size > cap, size


def _is_timeout(error: BaseException) -> bool:
    seen: set[int] = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        if isinstance(current, (TimeoutError, requests.Timeout, urllib3.exceptions.TimeoutError)):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return "timed out" in str(error).lower()


def _host(url: str) -> str:
    parts = split(url)
    return (parts.hostname if parts is not None else None) or url


def timed_out(url: str, seconds: float) -> Problem:
    return problem("fetch.timeout", url=url, host=_host(url), seconds=f"{seconds:g}")


def _causes(error: BaseException) -> Iterator[BaseException]:
    """The error and what it wraps (requests wraps urllib3's, which wraps the socket's), each once."""
    seen: set[int] = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__ or _reason(current)


def _reason(error: BaseException) -> Optional[BaseException]:
    # urllib3 keeps what failed in ``reason`` (MaxRetryError) and ``args`` (ProtocolError, NewConnectionError).
    reason = getattr(error, "reason", None)
    if isinstance(reason, BaseException):
        return reason
    return next((arg for arg in getattr(error, "args", ()) if isinstance(arg, BaseException)), None)


def connection_failure(url: str, error: BaseException) -> Problem:
    """What failed while connecting to or reading from ``url``'s host, as a coded sentence."""
    host = _host(url)
    for cause in _causes(error):
        if isinstance(cause, socket.gaierror) or type(cause).__name__ == "NameResolutionError":
            return problem("fetch.name_not_resolved", url=url, host=host)
        if isinstance(cause, ConnectionRefusedError):
            return problem("fetch.connection_refused", url=url, host=host)
        if isinstance(cause, ssl.SSLError) or isinstance(cause, requests.exceptions.SSLError):
            return problem("fetch.tls_failed", url=url, host=host)
        if isinstance(cause, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, HTTPException)):
            return problem("fetch.connection_reset", url=url, host=host)
    innermost = list(_causes(error))[-1]
    return problem("fetch.connection_error", url=url, host=host, error=type(innermost).__name__)
