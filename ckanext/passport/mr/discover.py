"""Finding a site's open-data registry from its bare address, the way MR 2.3 and MR 3.0 place it.

Candidates are tried in MR order and the first one whose content really is a registry of the expected form
wins: many sites answer every path with ``200`` and an HTML page (a CMS "not found" page, a firewall
challenge), so a successful fetch alone proves nothing.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Callable, Optional
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import idna

from .fetch import FetchPolicy, FetchResult, fetch
from .model import ParseResult, Problem, Registry, Severity
from .problems import define, problem
from .registry import parse_registry
from .sniff import sniff

NOT_DISCOVERED = define(
    "registry.not_discovered", Severity.ERROR,
    "реестр открытых данных не найден на сайте {site} (проверено адресов: {tried})",
    "no open data registry found on {site} ({tried} addresses tried)",
)
CANDIDATE_NOT_REGISTRY = define(
    "registry.candidate_not_registry", Severity.ERROR,
    "по адресу нет реестра в форме {form}: {reason}",
    "this address holds no registry of form {form}: {reason}",
)

Fetcher = Callable[[str, FetchPolicy], FetchResult]

_CYRILLIC_FOLDER = "открытыеданные"
_CYRILLIC_LIST = "реестроткрытыхданных.csv"
# File names that say which registry form a URL holds (compared lower-cased and percent-decoded).
_FILE_FORMS = {
    "list.csv": "list.csv",
    "opendatalist.csv": "opendatalist.csv",
    _CYRILLIC_LIST: "opendatalist.csv",
    "list.xml": "list.xml",
    "list.json": "list.json",
}
_REGISTRY_FOLDERS = frozenset({"opendata", _CYRILLIC_FOLDER})


@dataclass
class Rejection:
    """A candidate that was tried and not used, with why."""

    url: str
    form: str
    problems: list[Problem]


@dataclass
class Discovery:
    """Which registry URL and form a site uses, its parse, and what was wrong with the other candidates.

    ``problems`` holds the chosen registry's parse problems; when nothing was found, ``registry.not_discovered``
    followed by every rejected candidate's problems.
    """

    site_url: str
    url: str = ""
    form: str = ""
    result: Optional[ParseResult[Registry]] = None
    fetched: Optional[FetchResult] = None
    rejected: list[Rejection] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.value is not None

    @property
    def registry(self) -> Optional[Registry]:
        return self.result.value if self.result is not None else None


def registry_candidates(site_url: str) -> list[tuple[str, str]]:
    """``(url, form)`` pairs to try, in MR order; a URL that already names a registry comes first.

    Cyrillic paths are percent-encoded (UTF-8) and hosts IDNA-encoded, so every candidate is a plain URI.
    """
    parts = _split(site_url)
    if parts is None:
        return []
    scheme, host, port, path = parts
    netloc = host + port
    segments = [unquote(s) for s in path.split("/") if s]
    given: list[tuple[str, str]] = []
    if segments and segments[-1].lower() in _FILE_FORMS:
        given.append((_url(scheme, netloc, segments), _FILE_FORMS[segments[-1].lower()]))
        segments = segments[:-1]
    if segments and segments[-1].lower() in _REGISTRY_FOLDERS:
        if not given:
            given.append((_url(scheme, netloc, segments, folder=True), "rdfa"))
        segments = segments[:-1]
    base = segments
    subdomain = _opendata_host(host)
    sub_netloc = subdomain + port if subdomain else None
    candidates = given + [
        (_url(scheme, netloc, base + ["opendata", "list.csv"]), "list.csv"),
        (_url(scheme, sub_netloc, ["list.csv"]), "list.csv"),
        (_url(scheme, netloc, base + ["opendata", "opendatalist.csv"]), "opendatalist.csv"),
        (_url(scheme, netloc, base + ["opendata", "list.xml"]), "list.xml"),
        (_url(scheme, netloc, base + ["opendata", "list.json"]), "list.json"),
        (_url(scheme, netloc, base + ["opendata"], folder=True), "rdfa"),
        (_url(scheme, netloc, base + [_CYRILLIC_FOLDER, _CYRILLIC_LIST]), "opendatalist.csv"),
        (_url(scheme, netloc, base + [_CYRILLIC_FOLDER], folder=True), "rdfa"),
        # Sites that moved their registry to opendata.<host> publish the other MR 3.0 files there too.
        (_url(scheme, sub_netloc, ["list.xml"]), "list.xml"),
        (_url(scheme, sub_netloc, ["list.json"]), "list.json"),
    ]
    return list(dict.fromkeys((url, form) for url, form in candidates if url))


def discover_registry(
    site_url: str, policy: FetchPolicy = FetchPolicy(), fetcher: Fetcher = fetch
) -> Discovery:
    """Try :func:`registry_candidates` in order and keep the first that is a registry of its form."""
    discovery = Discovery(site_url=site_url)
    candidates = registry_candidates(site_url)
    explicit = candidates[0][0] if candidates and _names_registry(site_url) else None
    for url, form in candidates:
        fetched = fetcher(url, policy)
        if not fetched.ok:
            discovery.rejected.append(Rejection(url, form, [fetched.problem] if fetched.problem else []))
            continue
        result, reason = _read_registry(fetched, form, exact=url != explicit)
        if result is None:
            discovery.rejected.append(
                Rejection(url, form, [problem(CANDIDATE_NOT_REGISTRY, url=fetched.url, form=form, reason=reason)])
            )
            continue
        discovery.url = fetched.url
        discovery.form = result.form or form
        discovery.result = result
        discovery.fetched = fetched
        discovery.problems = list(result.problems)
        return discovery
    discovery.problems = [problem(NOT_DISCOVERED, url=site_url, site=site_url, tried=len(candidates))]
    for rejection in discovery.rejected:
        discovery.problems.extend(rejection.problems)
    return discovery


def _read_registry(
    fetched: FetchResult, form: str, exact: bool
) -> tuple[Optional[ParseResult[Registry]], str]:
    """The parse when the content is a registry, else ``None`` and the reason.

    Probed candidates must hold their own form; the address the user gave names the kind of registry
    (file or page) but sites misname their files (an MR 2.3 ``;`` list served as ``list.csv``), so its
    exact form is read from the content.
    """
    if form != "rdfa" and sniff(fetched.content).kind == "html":
        return None, "HTML page"
    result = parse_registry(fetched.content, url=fetched.url, form=form if exact else None)
    registry = result.value
    if registry is None:
        return None, _first_error(result) or "unreadable"
    if not registry.entries and not registry.standard_version:
        return None, "no datasets and no standard version"
    return result, ""


def _first_error(result: ParseResult[Registry]) -> str:
    return next((p.message_en for p in result.problems if p.severity is Severity.ERROR), "")


def _names_registry(site_url: str) -> bool:
    parts = _split(site_url)
    if parts is None:
        return False
    segments = [unquote(s).lower() for s in parts[3].split("/") if s]
    return bool(segments) and (segments[-1] in _FILE_FORMS or segments[-1] in _REGISTRY_FOLDERS)


def _split(site_url: str) -> Optional[tuple[str, str, str, str]]:
    """``(scheme, ascii host, ":port" or "", path)`` of a site address; a bare host means ``http``."""
    text = (site_url or "").strip()
    if not text:
        return None
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
        host = parts.hostname
    except ValueError:
        return None
    if not host:
        return None
    try:
        ascii_host = host if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    except UnicodeError:
        return None
    if ":" in ascii_host:
        ascii_host = f"[{ascii_host}]"
    return parts.scheme.lower(), ascii_host, f":{port}" if port else "", parts.path


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
