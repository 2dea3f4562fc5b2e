"""Fixed-window rate limits counted in Redis (CKAN's own connection).

One counter per key and window: the first hit creates it with the window as its lifetime, every hit adds one.
Public feedback (``catalog.feedback``) and the publishers' site check (``conformance.site_check``) count with
it, each under its own prefix, so an operator (or a test) clears one kind of counter with its key pattern.
"""
from __future__ import annotations

import hashlib

import ckan.plugins.toolkit as tk
from ckan.lib.redis import connect_to_redis
from flask import has_request_context


def key(*parts: str) -> str:
    """A counter's key: the site id first, so sites sharing one Redis keep their own counts."""
    return ":".join([tk.config.get("ckan.site_id") or "ckan", "passport", *parts])


def count(counter: str, window: int) -> int:
    """Count one hit of ``counter`` (a :func:`key`); the hits within the current window, this one included."""
    redis = connect_to_redis()
    pipe = redis.pipeline()
    pipe.set(counter, 0, ex=window, nx=True)
    pipe.incr(counter)
    return int(pipe.execute()[1])


def client_address(context: dict) -> str:
    """The sender's address in a web or API request; the acting user's name when called from code."""
    if has_request_context():
        return tk.request.remote_addr or "unknown"
    return context.get("user") or "unknown"


def client_hash(context: dict) -> str:
    # Salted with the site secret so the stored value cannot be reversed by hashing every IPv4 address.
    secret = tk.config.get("SECRET_KEY") or ""
    return hashlib.sha256(f"{secret}:{client_address(context)}".encode()).hexdigest()
