"""Fixed-window rate limits counted in Redis (CKAN's own connection).

One counter per key and window: the first hit creates it with the window as its lifetime, every hit adds one.
Public feedback (``catalog.workflow.feedback``) and the publishers' site check (``conformance.site_check``) count with
it, each under its own prefix, so an operator (or a test) clears one kind of counter with its key pattern.
A client is counted by its address (behind trusted reverse proxies: the one they forwarded), an IPv6 client by its
/64; a checked host by its registrable domain (the Public Suffix List's, however its name is spelt) and by each
address it resolves to, so that neither a fresh subdomain nor a fresh name for the same server is a fresh bucket.
"""
from __future__ import annotations

import hashlib
import ipaddress
import re
import socket
from functools import cache
from typing import Any, Callable

import ckan.plugins.toolkit as tk
import idna
import tldextract
from ckan.lib.redis import connect_to_redis
from flask import has_request_context
from werkzeug.middleware.proxy_fix import ProxyFix

from ckanext.passport import settings
from ckanext.passport.mr.addresses import LookupTimeout, resolve

# A host's addresses (``[]`` when it does not resolve); the default looks it up within a few seconds.
Resolver = Callable[[str], list[str]]
_LOOKUP_SECONDS = 3.0


def key(*parts: str) -> str:
    """A counter's key: the site id first, so sites sharing one Redis keep their own counts."""
    return ":".join([tk.config.get("ckan.site_id") or "ckan", "passport", *parts])


# What a legacy IPv4 spelling is made of ("2130706433", "0x7f.1", "0177.0.0.1"): the resolver reads it as an address.
_LEGACY_IPV4 = re.compile(r"[0-9a-fx.]+")


def host_key(host: str) -> str:
    """One key per host however its name is spelt, so that a per-host limit cannot be dodged by spelling.

    A name: IDNA-encoded (UTS 46, as requests and the fetch guard encode it), lower case, without its trailing
    dot. An IP literal: the address itself (IPv6 in its compressed form, an IPv4-mapped one as the IPv4
    address, a legacy IPv4 spelling as the dotted quad it connects to). A name IDNA refuses (an underscore) is
    keyed lower case; an empty key means no host at all.
    """
    name = host.strip().strip("[]").rstrip(".").lower()
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        address = _legacy_ipv4(name)
    if address is not None:
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        return str(mapped or address)
    try:
        return idna.encode(name, uts46=True).decode("ascii").lower()
    except (idna.IDNAError, UnicodeError):
        return name


@cache
def _public_suffixes() -> tldextract.TLDExtract:
    # The list snapshot the installed package ships, and nothing else: no fetch of the live list, no cache file. A
    # worker must not reach the network to key a host, and buckets must not move when a list would be refreshed.
    # The list's private section counts: a.github.io and b.github.io are two owners, as browsers take them.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


def registrable_domain(host: str) -> str:
    """The domain ``host`` belongs to, one label below its public suffix (``a.opendata.mos.ru``: ``mos.ru``), as a
    :func:`host_key`; a host with no such domain (an address, ``localhost``) is its own."""
    name = host_key(host)
    return _public_suffixes()(name).top_domain_under_public_suffix or name


def address_key(address: str) -> str:
    """One bucket per IPv4 address and per IPv6 /64: a /64 is one subscriber's or one server's network, whose
    holder takes any address in it; an IPv4-mapped address is its IPv4 address. Text that is no address is kept."""
    try:
        parsed = ipaddress.ip_address(address.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def resolved(host: str) -> list[str]:
    """The addresses ``host`` resolves to now; ``[]`` when it does not within a few seconds."""
    try:
        return resolve(host, 443, timeout=_LOOKUP_SECONDS)
    except (OSError, UnicodeError, LookupTimeout):
        return []


def host_keys(host: str, resolver: Resolver = resolved) -> list[str]:
    """The buckets a per-host limit counts ``host`` in: its :func:`registrable_domain` and the :func:`address_key`
    of each address ``resolver`` gives for its :func:`host_key` (an IP literal: its own)."""
    name = host_key(host)
    if not name:
        return []
    keys = [registrable_domain(name), *(address_key(address) for address in resolver(name))]
    return list(dict.fromkeys(keys))


def _legacy_ipv4(name: str) -> "ipaddress.IPv4Address | None":
    if not name or not _LEGACY_IPV4.fullmatch(name):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name))
    except OSError:
        return None


def count(counter: str, window: int) -> int:
    """Count one hit of ``counter`` (a :func:`key`); the hits within the current window, this one included."""
    redis = connect_to_redis()
    pipe = redis.pipeline()
    pipe.set(counter, 0, ex=window, nx=True)
    pipe.incr(counter)
    return int(pipe.execute()[1])


def behind_proxies(app: Any) -> Any:
    """CKAN's web app reading the client's address from the trusted proxies' ``X-Forwarded-For`` entries.

    CKAN (2.11, 2.12) reads ``REMOTE_ADDR`` only, which behind a reverse proxy is the proxy's address: every
    anonymous visitor would share one rate-limit bucket. With ``ckanext.passport.trusted_proxies`` set, werkzeug's
    ProxyFix puts the client's address in ``REMOTE_ADDR`` before any view runs, so ``request.remote_addr`` is the
    client's everywhere; without it the header is never read (a client cannot claim a fresh address).
    """
    hops = settings.trusted_proxies()
    if not hops:
        return app
    if hasattr(app, "wsgi_app"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops)
        return app
    return ProxyFix(app, x_for=hops)


def client_address(context: dict) -> str:
    """The sender in a web or API request by its :func:`address_key` (behind trusted proxies: the client's, see
    :func:`behind_proxies`): an IPv6 client's /64, which it may leave for no fresh bucket; the acting user's name
    when called from code."""
    if has_request_context():
        return address_key(tk.request.remote_addr or "unknown")
    return context.get("user") or "unknown"


def client_hash(context: dict) -> str:
    # Salted with the site secret so the stored value cannot be reversed by hashing every IPv4 address.
    secret = tk.config.get("SECRET_KEY") or ""
    return hashlib.sha256(f"{secret}:{client_address(context)}".encode()).hexdigest()
