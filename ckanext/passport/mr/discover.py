"""Finding a site's open-data registry from the address an admin gives, the way MR 2.3 and MR 3.0 place it.

The address is first read as what it is: a registry of any form at any path (an RDFa page at ``/`` or
``/index.html``, a ``list.csv`` under any name), its form decided by its content. Only a site or folder
address that holds no registry is then probed at MR's locations, in MR order; a file address never is, since
``…/index.html/opendata/list.csv`` names nothing. A candidate counts only when its content really is a
registry of the expected form: many sites answer every path with ``200`` and an HTML page (a CMS "not found"
page, a firewall challenge), so a successful fetch alone proves nothing.
"""
from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Callable, Optional
from urllib.parse import quote, unquote, urlunsplit

import idna

from . import urls
from .fetch import FetchPolicy, FetchResult, fetch
from .forms import Form
from .limits import DEFAULT_LIMITS, ReadLimits
from .model import ParseResult, Problem, Registry, Severity
from .problems import problem
from .registry import FILE_NAMES as REGISTRY_FILE_NAMES
from .registry import parse_registry
from .sniff import sniff


Fetcher = Callable[[str, FetchPolicy], FetchResult]

_CYRILLIC_FOLDER = "открытыеданные"
_CYRILLIC_LIST = "реестроткрытыхданных.csv"
_REGISTRY_FOLDERS = frozenset({"opendata", _CYRILLIC_FOLDER})
# A last path segment ending like this names a file (index.html, list.csv); "v1.0" or a bare name is a folder.
_FILE_EXTENSION = re.compile(r"\.[^\W\d_][^\W_]{0,7}\Z")
# What RFC 3986 allows in a path segment besides unreserved characters: kept as the admin typed them.
_PATH_SAFE = "!$&'()*+,;=:@"


@dataclass
class Rejection:
    """An address that was tried and not used, with why; ``form`` is the form expected or read there."""

    url: str
    form: str
    problems: list[Problem]


@dataclass
class Discovery:
    """Which registry URL and form a site uses, its parse, and what was wrong with the other addresses.

    ``given`` is the fetch of the address as given, whatever it held (a caller may read it as a passport).
    ``problems`` holds the chosen registry's parse problems; when nothing was found, ``registry.not_discovered``
    (a site or folder) or ``registry.address_not_registry`` (a file), followed by every rejection's problems.
    """

    site_url: str
    url: str = ""
    form: str = ""
    result: Optional[ParseResult[Registry]] = None
    fetched: Optional[FetchResult] = None
    given: Optional[FetchResult] = None
    rejected: list[Rejection] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.value is not None

    @property
    def registry(self) -> Optional[Registry]:
        return self.result.value if self.result is not None else None


def given_address(site_url: str) -> str:
    """The address as given, made a plain URI: ``http://`` for a bare host, IDNA host, percent-encoded path,
    ``/`` for an empty path; the query is kept (a registry may be an export URL). Empty when unusable."""
    parts = _split(site_url)
    if parts is None:
        return ""
    scheme, host, port, path, query = parts
    segments = path.split("/")
    encoded = "/".join(quote(unquote(s), safe=_PATH_SAFE) for s in segments)
    return urlunsplit((scheme, host + port, encoded or "/", query, ""))


def names_file(site_url: str) -> bool:
    """Whether the address names a file (its last path segment has an extension) rather than a site or folder."""
    parts = _split(site_url)
    if parts is None:
        return False
    path = parts[3]
    return not path.endswith("/") and bool(_FILE_EXTENSION.search(unquote(path.rpartition("/")[2])))


def registry_candidates(site_url: str) -> list[tuple[str, Form]]:
    """``(url, form)`` pairs where MR places the registry of a site or folder address, in MR order, without the
    address itself (it is read first, as any form). A file address has none.

    A folder named like MR's registry folder (``…/opendata/``) stands for its parent site. Cyrillic paths are
    percent-encoded (UTF-8) and hosts IDNA-encoded, so every candidate is a plain URI.
    """
    parts = _split(site_url)
    if parts is None or names_file(site_url):
        return []
    scheme, host, port, path, _query = parts
    netloc = host + port
    base = [unquote(s) for s in path.split("/") if s]
    if base and base[-1].lower() in _REGISTRY_FOLDERS:
        base = base[:-1]
    subdomain = _opendata_host(host)
    sub_netloc = subdomain + port if subdomain else None
    candidates = [
        (_url(scheme, netloc, base + ["opendata", Form.LIST_CSV]), Form.LIST_CSV),
        (_url(scheme, sub_netloc, [Form.LIST_CSV]), Form.LIST_CSV),
        (_url(scheme, netloc, base + ["opendata", Form.OPENDATALIST_CSV]), Form.OPENDATALIST_CSV),
        (_url(scheme, netloc, base + ["opendata", Form.LIST_XML]), Form.LIST_XML),
        (_url(scheme, netloc, base + ["opendata", Form.LIST_JSON]), Form.LIST_JSON),
        (_url(scheme, netloc, base + ["opendata"], folder=True), Form.RDFA),
        (_url(scheme, netloc, base + [_CYRILLIC_FOLDER, _CYRILLIC_LIST]), Form.OPENDATALIST_CSV),
        (_url(scheme, netloc, base + [_CYRILLIC_FOLDER], folder=True), Form.RDFA),
        # Sites that moved their registry to opendata.<host> publish the other MR 3.0 files there too.
        (_url(scheme, sub_netloc, [Form.LIST_XML]), Form.LIST_XML),
        (_url(scheme, sub_netloc, [Form.LIST_JSON]), Form.LIST_JSON),
    ]
    given = given_address(site_url)
    return list(dict.fromkeys((url, form) for url, form in candidates if url and url != given))


def discover_registry(
    site_url: str, policy: FetchPolicy = FetchPolicy(), fetcher: Fetcher = fetch,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Discovery:
    """Read the address as a registry of any form; failing that, try :func:`registry_candidates` in order and
    keep the first that is a registry of its form. Each is fetched and read within the registry cap of ``limits``."""
    discovery = Discovery(site_url=site_url)
    address = given_address(site_url)
    policy = ReadLimits.policy(policy, limits.registry_bytes)
    if address:
        discovery.given = fetcher(address, policy)
        if _try(discovery, address, None, discovery.given, limits):
            return discovery
    candidates = registry_candidates(site_url)
    for url, form in candidates:
        if _try(discovery, url, form, fetcher(url, policy), limits):
            return discovery
    if address and names_file(site_url):
        summary = problem("registry.address_not_registry", url=address, address=address)
    else:
        summary = problem("registry.not_discovered", url=site_url, site=site_url, tried=len(candidates) + bool(address))
    discovery.problems = [summary] + [found for rejection in discovery.rejected for found in rejection.problems]
    return discovery


def _try(discovery: Discovery, url: str, form: Optional[str], fetched: FetchResult, limits: ReadLimits) -> bool:
    """Use ``fetched`` when it is a registry (of ``form``, or of any form when ``None``); else record why not."""
    if not fetched.ok:
        discovery.rejected.append(Rejection(url, form or "", [fetched.problem] if fetched.problem else []))
        return False
    result, reason = _read_registry(fetched, form, limits)
    if reason is not None:
        discovery.rejected.append(Rejection(url, result.form or form or "", [
            problem("registry.candidate_not_registry", url=fetched.url, form=result.form or form or "?", reason=reason)
        ]))
        return False
    discovery.url = fetched.url
    discovery.form = result.form or form or ""
    discovery.result = result
    discovery.fetched = fetched
    discovery.problems = list(result.problems)
    return True


def _read_registry(fetched: FetchResult, form: Optional[str],
                   limits: ReadLimits) -> tuple[ParseResult[Registry], Optional[Problem]]:
    """The parse, and why it is not a registry (``None`` when it is).

    A probed location must hold its own form. The given address is read as whatever its content is, and
    there sites misname files (an MR 2.3 ``;`` list served as ``list.csv``) and put registries anywhere; but a
    file listing nothing counts only where its name says registry, else any JSON or CSV file would.
    """
    if form not in (None, Form.RDFA) and sniff(fetched.content).kind == "html":
        return ParseResult(None, [], form=form), problem("registry.reason_html_page")
    result = parse_registry(fetched.content, url=fetched.url, form=form, limits=limits)
    registry = result.value
    if registry is None:
        return result, _first_error(result) or problem("registry.reason_unreadable")
    named = form is not None or _names_registry(fetched.url)
    if not registry.entries and not (named and registry.standard_version):
        return result, problem("registry.reason_no_datasets" if named else "registry.reason_unnamed_empty")
    return result, None


def _first_error(result: ParseResult[Registry]) -> Optional[Problem]:
    return next((p for p in result.problems if p.severity is Severity.ERROR), None)


def _names_registry(url: str) -> bool:
    parts = _split(url)
    if parts is None:
        return False
    segments = [unquote(s).lower() for s in parts[3].split("/") if s]
    return bool(segments) and (segments[-1] in REGISTRY_FILE_NAMES or segments[-1] in _REGISTRY_FOLDERS)


def _split(site_url: str) -> Optional[tuple[str, str, str, str, str]]:
    """``(scheme, ascii host, ":port" or "", path, query)`` of an address; a bare host means ``http``."""
    text = (site_url or "").strip()
    if not text:
        return None
    if "://" not in text:
        text = "http://" + text
    parts = urls.split(text)
    if parts is None:
        return None
    port = parts.port
    host = parts.hostname
    if not host:
        return None
    try:
        ascii_host = host if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except UnicodeError:
        return None
    if ":" in ascii_host:
        ascii_host = f"[{ascii_host}]"
    return parts.scheme.lower(), ascii_host, f":{port}" if port else "", parts.path, parts.query


def _opendata_host(host: str) -> Optional[str]:
    """``opendata.<host>``; ``None`` for IP literals and single-label hosts, which have no such subdomain."""
    if host.startswith("[") or "." not in host or _is_ipv4(host):
        return None
    bare = host[4:] if host.startswith("www.") else host
    return bare if bare.startswith("opendata.") else f"opendata.{bare}"


def _is_ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


def _url(scheme: str, netloc: Optional[str], segments: list[str], folder: bool = False) -> str:
    """The URL of ``segments`` on ``netloc``; empty when there is no such host."""
    if netloc is None:
        return ""
    path = "/" + "/".join(quote(s, safe="") for s in segments)
    if folder:
        path += "/"
    return urlunsplit((scheme, netloc, path, "", ""))
