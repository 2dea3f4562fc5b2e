"""The reader's language: the request's locale in a request, else the site's default.

Problems (``mr.problems``) are rendered in it through the project's catalogs (``mr.translation``); labels
of vocabularies are chosen by it.
"""
from __future__ import annotations

import ckan.plugins.toolkit as tk

from ckanext.passport import settings
from ckanext.passport.mr.model import Translate
from ckanext.passport.mr.translation import translator


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
