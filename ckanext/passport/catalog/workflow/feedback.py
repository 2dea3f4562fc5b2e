"""Public feedback: what a message may hold, and how often one address may send them.

Rate limits are fixed windows counted in Redis (``ckanext.passport.rate_limits``), per sender address and per
record, so one sender cannot flood a record and many senders cannot flood one record either.
"""
from __future__ import annotations

from typing import Any, Callable

import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import Invalid

from ckanext.passport import rate_limits, settings
from ckanext.passport.rate_limits import client_hash  # noqa: F401 (the sender, as catalog.workflow.actions counts it)

from .model import FEEDBACK_KINDS

MAX_EMAIL_LENGTH = 254  # RFC 5321 path limit


def max_text_length() -> int:
    return settings.feedback_max_length()


def _at_most(limit: Callable[[], int]) -> Callable[[Any], Any]:
    def validator(value: Any) -> Any:
        if isinstance(value, str) and len(value) > limit():
            raise Invalid(tk._("At most %(max)s characters") % {"max": limit()})
        return value

    return validator


def schema() -> dict[str, list]:
    v = tk.get_validator
    # not_empty twice: before stripping it stops a missing value, after it a blank one.
    return {
        "id": [v("not_empty"), v("unicode_safe")],
        "text": [v("not_empty"), v("unicode_safe"), v("strip_value"), v("not_empty"), _at_most(max_text_length)],
        "email": [
            v("ignore_missing"),
            v("unicode_safe"),
            v("strip_value"),
            _at_most(lambda: MAX_EMAIL_LENGTH),
            v("email_validator"),
        ],
        "kind": [v("default")("comment"), v("one_of")(list(FEEDBACK_KINDS))],
    }


def _key(*parts: str) -> str:
    return rate_limits.key("feedback", *parts)


def _count(key: str, window: int) -> int:
    return rate_limits.count(key, window)


def within_rate_limits(client: str, package_id: str) -> bool:
    """Count one message; False once the sender or the record has had its share within the window."""
    window = settings.feedback_rate_window()
    if _count(_key("client", client), window) > settings.feedback_rate_per_client():
        return False
    return _count(_key("dataset", package_id), window) <= settings.feedback_rate_per_dataset()


def rate_limit_keys() -> str:
    """Redis key pattern of every counter of this site (tests and operators clear them with it)."""
    return _key("*")
