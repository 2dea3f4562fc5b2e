"""Every network read of the project: bounded, guarded, and never raising for network or input trouble.

Harvest sources are URLs typed by portal editors or found in third-party registries, so a fetch must not
become a way into the portal's own network (SSRF), nor hang or fill memory on a hostile or broken server:

- only ``http``/``https``; each host (of every redirect hop) is resolved and refused when ANY of its
  addresses is private, loopback, link-local, multicast, reserved or unspecified (IPv4 and IPv6, including
  IPv4 embedded in IPv6), unless ``FetchPolicy.allow_private_addresses``;
- sessions built by :func:`make_session` check the addresses again at connect time and connect only to the
  address they checked, so DNS answering differently the second time (rebinding) gains nothing;
- redirects are followed by hand, to guard every hop and detect loops;
- the body is streamed and capped (``Content-Length`` and the bytes actually read), and the whole fetch has a
  wall-clock deadline that bounds every socket wait, so a slow-drip server cannot hold a worker;
- a head read (``head_bytes``) asks for the first bytes only (``Range``) and stops reading there whatever the
  server sends, so looking at a data file's header never downloads the file.
"""
from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass, field
from http.client import HTTPException
from typing import Any, Optional, Union
from urllib.parse import urljoin, urlsplit

import idna
import requests
import urllib3
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from .model import Problem, Severity
from .problems import N_, define, problem

NOT_FOUND = define(
    "fetch.not_found", Severity.ERROR,
    N_("file not found (HTTP {status})"),
)
HTTP_ERROR = define(
    "fetch.http_error", Severity.ERROR,
    N_("the server refused the request (HTTP {status})"),
)
SERVER_ERROR = define(
    "fetch.server_error", Severity.ERROR,
    N_("server error (HTTP {status}) after {attempts} attempts"),
)
TIMEOUT = define(
    "fetch.timeout", Severity.ERROR,
    N_("the server did not answer in time ({detail})"),
)
TOO_LARGE = define(
    "fetch.too_large", Severity.ERROR,
    N_("the response is larger than the {limit} bytes allowed"),
)
REFUSED_ADDRESS = define(
    "fetch.refused_address", Severity.ERROR,
    N_("fetching from {address} (host {host}) is refused: private, local or special-purpose network"),
)
BAD_SCHEME = define(
    "fetch.bad_scheme", Severity.ERROR,
    N_("URL scheme '{scheme}' is not supported, use http or https"),
)
TOO_MANY_REDIRECTS = define(
    "fetch.too_many_redirects", Severity.ERROR,
    N_("too many redirects (more than {limit})"),
)
REDIRECT_LOOP = define(
    "fetch.redirect_loop", Severity.ERROR,
    N_("redirects loop back to {target}"),
)
CONNECTION_ERROR = define(
    "fetch.connection_error", Severity.ERROR,
    N_("could not connect to the server: {detail}"),
)
INVALID_URL = define(
    "fetch.invalid_url", Severity.ERROR,
    N_("invalid URL: {detail}"),
)

# Some government web firewalls answer an HTML challenge page to anything that does not look like a browser.
DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 "
    "ckanext-passport"
)

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_NOT_FOUND_STATUSES = frozenset({404, 410})
_CHUNK = 64 * 1024
_RETRIED = frozenset({TIMEOUT, CONNECTION_ERROR})

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]


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
    """Raised inside a guarded connection; carried out of requests unchanged (it is not an OSError)."""

    def __init__(self, host: str, address: str) -> None:
        super().__init__(f"{host} resolves to {address}")
        self.host = host
        self.address = address


class _Failure(Exception):
    """Ends a fetch with one problem; internal control flow only, never leaves :func:`fetch`."""

    def __init__(self, found: Problem, status: int = 0) -> None:
        super().__init__(found.code)
        self.problem = found
        self.status = status


def is_public_address(address: IPAddress) -> bool:
    """True when fetching from ``address`` cannot reach a private, local or special-purpose network."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public_address(embedded)
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or address.is_loopback
        or address.is_link_local
        or address.is_private
    )


def _embedded_ipv4(address: ipaddress.IPv6Address) -> Optional[ipaddress.IPv4Address]:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    # NAT64 well-known prefix: the gateway would connect to the embedded IPv4 address.
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def resolve(host: str, port: int) -> list[str]:
    """All addresses of ``host`` (IP literals come back as themselves); raises ``socket.gaierror``."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    # Scope ids ("fe80::1%eth0") are not part of the address ipaddress understands.
    return list(dict.fromkeys(info[4][0].split("%", 1)[0] for info in infos))


def refused_address(host: str, addresses: list[str]) -> Optional[str]:
    """The first address of ``host`` that must not be fetched from, or ``None`` when all are public."""
    for text in addresses:
        try:
            if not is_public_address(ipaddress.ip_address(text)):
                return text
        except ValueError:
            return text
    return None


class _GuardedConnectionMixin:
    """Resolve, refuse non-public addresses, then connect to exactly the address that was checked."""

    _dns_host: str
    host: str
    port: int

    def _new_conn(self) -> socket.socket:
        name = self._dns_host
        addresses = resolve(name, self.port)
        refused = refused_address(self.host, addresses)
        if refused is not None:
            raise _Refused(self.host, refused)
        last_error = OSError(f"{name} has no address")
        for address in addresses:
            self._dns_host = address
            try:
                return super()._new_conn()  # type: ignore[misc]
            except OSError as error:
                last_error = error
            finally:
                self._dns_host = name
        raise last_error


class _GuardedHTTPConnection(_GuardedConnectionMixin, HTTPConnection):
    pass


class _GuardedHTTPSConnection(_GuardedConnectionMixin, HTTPSConnection):
    pass


class _GuardedHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _GuardedHTTPConnection


class _GuardedHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedHTTPSConnection


class _GuardedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _GuardedHTTPConnectionPool,
            "https": _GuardedHTTPSConnectionPool,
        }


def make_session(policy: FetchPolicy = FetchPolicy()) -> requests.Session:
    """A session for many fetches (connection reuse) that keeps the connect-time address guard.

    It ignores proxy variables and ``.netrc`` from the environment: a proxy would be checked as the target,
    and credentials must not travel to harvested hosts.
    """
    session = requests.Session()
    session.trust_env = False
    session.headers["User-Agent"] = policy.user_agent
    if not policy.allow_private_addresses:
        adapter = _GuardedAdapter(max_retries=0)
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
) -> FetchResult:
    """GET ``url`` within ``policy``; a conditional GET when ``etag`` or ``last_modified`` is given.

    With ``head_bytes`` only the first ``head_bytes`` bytes are asked for (``Range: bytes=0-<head_bytes - 1>``)
    and read: a longer body, from a server that ignores ``Range``, is cut there and ``truncated`` is set; it is
    no ``fetch.too_large`` error, since the head is all that was wanted.

    A given ``session`` is used as is (build it with :func:`make_session` to keep the connect-time guard);
    the resolve-time guard applies to every hop in any case.
    """
    started = time.monotonic()
    own_session = session is None
    active = make_session(policy) if session is None else session
    headers = _conditional_headers(etag, last_modified)
    if head_bytes is not None:
        head_bytes = max(1, head_bytes)
        headers["Range"] = f"bytes=0-{head_bytes - 1}"
    try:
        response, current = _follow(url, policy, active, headers, started)
        with response:
            result = _read(response, current, policy, started, head_bytes)
    except _Failure as failure:
        result = FetchResult(ok=False, url=failure.problem.location.url or url, status=failure.status,
                             problem=failure.problem)
    finally:
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
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], started: float
) -> tuple[requests.Response, str]:
    seen = {url}
    current = url
    for _hop in range(policy.max_redirects + 1):
        response = _get_with_retries(current, policy, session, headers, started)
        location = response.headers.get("Location")
        if response.status_code not in _REDIRECT_STATUSES or not location:
            return response, current
        response.close()
        target = urljoin(current, location.strip())
        if target in seen:
            raise _Failure(problem(REDIRECT_LOOP, url=current, target=target), response.status_code)
        seen.add(target)
        current = target
    raise _Failure(problem(TOO_MANY_REDIRECTS, url=current, limit=policy.max_redirects), 0)


def _get_with_retries(
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], started: float
) -> requests.Response:
    """One hop: a response below 500, after retrying 5xx answers, timeouts and connection errors."""
    _check_url(url, policy)
    attempts = max(0, policy.retries) + 1
    attempt = 1
    while True:
        try:
            response = _get(url, policy, session, headers, started)
        except _Failure as failed:
            if attempt == attempts or failed.problem.code not in _RETRIED:
                raise
            _sleep_before_retry(policy, attempt, started, failed)
            attempt += 1
            continue
        if response.status_code < 500:
            return response
        response.close()
        server_error = _Failure(
            problem(SERVER_ERROR, url=url, status=response.status_code, attempts=attempt), response.status_code
        )
        if attempt == attempts:
            raise server_error
        _sleep_before_retry(policy, attempt, started, server_error)
        attempt += 1


def _sleep_before_retry(policy: FetchPolicy, attempt: int, started: float, failure: _Failure) -> None:
    delay = policy.backoff_factor * (2 ** (attempt - 1))
    # Waiting past the deadline would only turn this failure into a timeout; report it as it is.
    if _remaining(policy, started) <= delay:
        raise failure
    time.sleep(delay)


def _get(
    url: str, policy: FetchPolicy, session: requests.Session, headers: dict[str, str], started: float
) -> requests.Response:
    remaining = _remaining(policy, started)
    if remaining <= 0:
        raise _Failure(problem(TIMEOUT, url=url, detail=f"total {policy.total_timeout} s"))
    timeout = (min(policy.connect_timeout, remaining), min(policy.read_timeout, remaining))
    request_headers = {"User-Agent": policy.user_agent, **headers}
    try:
        return session.get(url, headers=request_headers, timeout=timeout, stream=True, allow_redirects=False)
    except _Refused as refused:
        raise _Failure(problem(REFUSED_ADDRESS, url=url, host=refused.host, address=refused.address))
    except requests.Timeout as error:
        raise _Failure(problem(TIMEOUT, url=url, detail=_describe(error)))
    except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema, UnicodeError, ValueError) as error:
        raise _Failure(problem(INVALID_URL, url=url, detail=_describe(error)))
    except requests.RequestException as error:
        raise _Failure(problem(CONNECTION_ERROR, url=url, detail=_describe(error)))


def _check_url(url: str, policy: FetchPolicy) -> None:
    """Refuse bad schemes, malformed URLs and non-public hosts before any connection is opened."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise _Failure(problem(INVALID_URL, url=url, detail=str(error)))
    scheme = parts.scheme.lower()
    if not scheme:
        raise _Failure(problem(INVALID_URL, url=url, detail="no scheme"))
    if scheme not in ("http", "https"):
        raise _Failure(problem(BAD_SCHEME, url=url, scheme=parts.scheme))
    host = parts.hostname
    if not host:
        raise _Failure(problem(INVALID_URL, url=url, detail="no host"))
    if policy.allow_private_addresses:
        return
    try:
        # The same IDNA 2008/UTS 46 encoding requests uses, so we check the host it will connect to.
        ascii_host = host if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except UnicodeError as error:
        raise _Failure(problem(INVALID_URL, url=url, detail=str(error)))
    try:
        addresses = resolve(ascii_host, port or (443 if scheme == "https" else 80))
    except (socket.gaierror, UnicodeError) as error:
        raise _Failure(problem(CONNECTION_ERROR, url=url, detail=f"{host}: {error}"))
    refused = refused_address(host, addresses)
    if refused is not None:
        raise _Failure(problem(REFUSED_ADDRESS, url=url, host=host, address=refused))


def _read(
    response: requests.Response, url: str, policy: FetchPolicy, started: float, head_bytes: Optional[int] = None
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
        result.problem = problem(NOT_FOUND, url=url, status=status)
        return result
    if status == 416 and head_bytes is not None:
        # No byte 0 to send: the file is empty.
        result.ok = True
        return result
    if not 200 <= status < 300:
        result.problem = problem(HTTP_ERROR, url=url, status=status)
        return result
    if head_bytes is not None:
        return _read_head(response, result, policy, started, head_bytes)
    declared = response.headers.get("Content-Length", "")
    if declared.strip().isdigit() and int(declared) > policy.max_bytes:
        result.problem = problem(TOO_LARGE, url=url, limit=policy.max_bytes)
        return result
    body, found = _read_body(response, url, policy, started)
    result.content = body
    result.problem = found
    result.ok = found is None
    return result


def _read_head(
    response: requests.Response, result: FetchResult, policy: FetchPolicy, started: float, head_bytes: int
) -> FetchResult:
    """The first ``head_bytes`` bytes (never more than ``max_bytes``), and whether the body goes on."""
    limit = min(head_bytes, policy.max_bytes)
    body, found, more = _read_upto(response, result.url, policy, started, limit)
    result.content = body[:limit]
    result.truncated = more or _partial(response.headers.get("Content-Range", ""), len(result.content))
    result.problem = found
    result.ok = found is None
    return result


def _partial(content_range: str, received: int) -> bool:
    """Whether a ``206`` answer (``Content-Range: bytes 0-65535/260000``) left bytes of the file unsent."""
    total = content_range.rpartition("/")[2].strip()
    return total.isdigit() and int(total) > received


def _read_body(
    response: requests.Response, url: str, policy: FetchPolicy, started: float
) -> tuple[bytes, Optional[Problem]]:
    """The whole body, or ``fetch.too_large`` as soon as it passes ``max_bytes``."""
    body, found, more = _read_upto(response, url, policy, started, policy.max_bytes)
    if found is None and more:
        return b"", problem(TOO_LARGE, url=url, limit=policy.max_bytes)
    return body, found


def _read_upto(
    response: requests.Response, url: str, policy: FetchPolicy, started: float, cap: int
) -> tuple[bytes, Optional[Problem], bool]:
    """Read at most ``cap + 1`` bytes (decoded), one ``recv`` at a time so the deadline is honoured.

    Returns the bytes read, the problem that ended the read, and whether the body went on past ``cap``.
    """
    chunks: list[bytes] = []
    size = 0
    limit = cap + 1
    try:
        while size < limit:
            if _remaining(policy, started) <= 0:
                return b"", problem(TIMEOUT, url=url, detail=f"total {policy.total_timeout} s"), False
            chunk = response.raw.read1(min(_CHUNK, limit - size), decode_content=True)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except (requests.RequestException, OSError, HTTPException, urllib3.exceptions.HTTPError) as error:
        if _is_timeout(error):
            return b"", problem(TIMEOUT, url=url, detail=_describe(error)), False
        return b"", problem(CONNECTION_ERROR, url=url, detail=_describe(error)), False
    body = b"".join(chunks)
    return body[:cap], None, size > cap


def _is_timeout(error: BaseException) -> bool:
    seen: set[int] = set()
    current: Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        if isinstance(current, (TimeoutError, requests.Timeout, urllib3.exceptions.TimeoutError)):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return "timed out" in str(error).lower()


def _remaining(policy: FetchPolicy, started: float) -> float:
    return policy.total_timeout - (time.monotonic() - started)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]
