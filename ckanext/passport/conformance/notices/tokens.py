"""The unsubscribe link of every conformance mail: the address, signed with the site's secret.

No account is needed to unsubscribe (a publisher's contact has none), so the link itself is the proof that its
holder received mail at that address: itsdangerous signs it with CKAN's ``SECRET_KEY`` under a salt of its own,
so no other signed value of the site can pass for it. It does not expire: an old mail's link still works.
"""
from __future__ import annotations

from typing import Optional

import ckan.plugins.toolkit as tk
from itsdangerous import BadSignature, URLSafeSerializer

from .model import normal

SALT = "ckanext-passport-notices-unsubscribe"
# The public view taking the token (views.py).
PATH = "/passport/notices/unsubscribe/"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(tk.config.get("SECRET_KEY") or tk.config.get("beaker.session.secret") or "", salt=SALT)


def token(address: str) -> str:
    return _serializer().dumps(normal(address))


def address(token_text: str) -> Optional[str]:
    """The address a token was made for; ``None`` for a token not signed by this site."""
    try:
        value = _serializer().loads(token_text)
    except BadSignature:
        return None
    return value if isinstance(value, str) and value else None


def link(address_text: str) -> str:
    """The absolute unsubscribe link for ``address_text`` (mails are read outside the site)."""
    return site_url() + PATH + token(address_text)


def site_url() -> str:
    return (tk.config.get("ckan.site_url") or "").rstrip("/")
