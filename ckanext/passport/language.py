"""The reader's language: the request's locale in a request, else the site's default.

Problems (``mr.problems``) are rendered in it through the project's catalogs (``mr.translation``); labels
of vocabularies are chosen by it.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

import ckan.plugins.toolkit as tk
import flask_babel

from ckanext.passport import settings
from ckanext.passport.mr.model import Translate
from ckanext.passport.mr.translation import plural_rule, translator


def current_language() -> str:
    """The reader's language code (``cs``, ``ru``, ``en``); outside a request (API scripts, jobs, harvest
    consumers) the site default."""
    try:
        language = tk.h.lang() or ""
    except (RuntimeError, AttributeError, TypeError):
        language = ""
    return (language or settings.locale_default()).split("_", 1)[0]


def reader_translate() -> Translate:
    """The gettext function of the reader's language, for problems shown now."""
    return translator(current_language())


def site_translate() -> Translate:
    """The gettext function of the site's default language, for texts stored for every reader."""
    return translator(settings.locale_default())


def mend_plural_rule() -> None:
    """Gives the request's translations the plural rule of its language (a ``before_request`` hook).

    flask-babel merges CKAN's catalog with each plugin's and keeps the plural rule of the last one it loads; a
    plugin without a catalog in the language (ckanext-harvest and ckanext-dcat have none in cs or ru) leaves the
    English rule, n != 1, and every ngettext of the page, CKAN's own too, takes the wrong Czech or Russian form
    ("jsou 0 záznamy", "6 datové sady"). Our catalog's rule is CKAN's for both (tests/test_messages.py).
    """
    locale = flask_babel.get_locale()
    rule = plural_rule(str(locale)) if locale else None
    if rule is not None:
        flask_babel.get_translations().plural = rule


def readable_date(value: Any, with_hours: bool = False, form: str = "long") -> str:
    """A date (or a date and time) in the reader's language and that language's order: "1 декабря 2026 г.",
    "1. prosince 2026", "December 1, 2026"; with the hours "…, 18:49 (UTC)"; ``form`` a babel date form ("short":
    01.12.2026). Outside a request, ISO text."""
    if isinstance(value, str):
        try:
            value = (dt.date.fromisoformat(value) if len(value) <= 10
                     else dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:
            return value
    if not isinstance(value, dt.date):
        return "" if value is None else str(value)
    timed = isinstance(value, dt.datetime)
    try:
        if timed and with_hours:
            moment = value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)
            return "{date}, {time}".format(
                date=flask_babel.format_date(moment, form), time=flask_babel.format_time(moment, "HH:mm (z)")
            )
        return flask_babel.format_date(value, form)
    except (RuntimeError, AttributeError, KeyError):
        return value.isoformat(sep=" ", timespec="minutes") if timed and with_hours else value.strftime("%Y-%m-%d")


def offered_locales() -> list[dict[str, str]]:
    """The languages the site offers (``ckan.locales_offered``, in ``ckan.locale_order``), each with its own name,
    for the language switcher. CKAN's list keeps only the locales CKAN itself ships a folder for, ``cs_CZ`` but no
    ``cs``, so the Czech the site offers (and serves under ``/cs/``) was missing from it."""
    from babel import Locale, UnknownLocaleError

    offered = [str(code) for code in tk.config.get("ckan.locales_offered") or []]
    order = [str(code) for code in tk.config.get("ckan.locale_order") or []]
    default = settings.locale_default()
    codes = [default] + [c for c in order if c in offered] + offered
    locales = []
    for code in dict.fromkeys(codes):
        try:
            locale = Locale.parse(code)
        except (ValueError, UnknownLocaleError):
            continue
        name = locale.get_display_name(locale) or code
        locales.append({"code": code, "lang": code.replace("_", "-"), "name": name[:1].upper() + name[1:]})
    return locales
