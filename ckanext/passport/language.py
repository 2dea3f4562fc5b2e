"""The reader's language: the request's locale in a request, else the site's default.

Problems (``mr.problems``) are rendered in it through the project's catalogs (``mr.translation``); labels
of vocabularies are chosen by it.
"""
from __future__ import annotations

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
