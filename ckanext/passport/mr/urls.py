"""URLs read from publications, split and joined without ever raising.

``urllib.parse`` raises ``ValueError`` on links a broken or hostile page carries: an unclosed IPv6 bracket
(``http://[x/``), a stray ``]``, a host that NFKC-normalizes to a delimiter (``http://ex＃ample.ru/``), and,
when the port is read, a port that is no number or out of range. Every split and join of fetched text in
``mr/`` goes through here, so such a link is a bad link (reported with a code where it matters), never an
exception out of a reader:

- ``split(url) -> SplitResult | None``: ``urlsplit``'s parts, ``None`` when the URL or its port cannot be read;
- ``join(base, link) -> str``: ``urljoin``, or ``link`` as given when the two cannot be joined;
- ``host(url) -> str``: the host, lower-cased (``hostname``), ``""`` when there is none or ``split`` fails.
"""
from __future__ import annotations

from typing import Optional
from urllib.parse import SplitResult, urljoin, urlsplit


def split(url: str) -> Optional[SplitResult]:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read once here, so callers may read it without a guard
    except ValueError:
        return None
    return parts


def join(base: str, link: str) -> str:
    try:
        return urljoin(base, link)
    except ValueError:
        return link


def host(url: str) -> str:
    parts = split(url)
    return (parts.hostname or "") if parts is not None else ""


def web_link(url: Optional[str]) -> Optional[str]:
    """A URL a page may link: only a web address (a publisher's ``javascript:`` or ``data:`` link is shown as text)."""
    return url if url and url.lower().startswith(("http://", "https://")) else None
