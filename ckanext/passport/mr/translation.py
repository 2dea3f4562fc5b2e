"""Problems and reports in a reader's language, from the project's compiled catalogs, without CKAN.

The catalogs are the ones the CKAN plugins register (``ckanext/passport/i18n``, domain ``ckanext-passport``);
here the standard library's :mod:`gettext` reads them, so the command line and the harvest consumers speak
the same words as the web pages. A language without a catalog, or a message without a translation, is English.
"""
from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

from .model import Translate, english

CATALOGS = Path(__file__).resolve().parent.parent / "i18n"
DOMAIN = "ckanext-passport"
LANGUAGES = ("en", "cs", "ru")


@lru_cache(maxsize=None)
def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, str(CATALOGS), languages=[language], fallback=True)


@lru_cache(maxsize=None)
def translator(language: Optional[str]) -> Translate:
    """The gettext and ngettext of ``language`` (``cs``, ``ru``, ``cs_CZ``…); English when there is no catalog."""
    if not language:
        return english
    catalog = _catalog(language)
    return Translate(catalog.gettext, catalog.ngettext)


def plural_rule(language: str) -> Optional[Callable[[int], int]]:
    """Which plural form a number takes in ``language``, by its catalog's Plural-Forms; ``None`` without one."""
    return getattr(_catalog(language), "plural", None)
