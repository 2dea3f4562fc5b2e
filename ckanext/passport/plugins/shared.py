"""What every passport plugin has in common: one translation domain and its config file."""
from __future__ import annotations

from pathlib import Path

from ckan.lib.plugins import DefaultTranslation

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def declaration_file(name: str) -> str:
    """Absolute path of one plugin's config declaration file under ``ckanext/passport/config/``."""
    return str(PACKAGE_ROOT / "config" / f"{name}.yaml")


class PassportTranslation(DefaultTranslation):
    """All three plugins share one gettext domain kept in the package, so non-editable installs find it."""

    def i18n_directory(self) -> str:
        return str(PACKAGE_ROOT / "i18n")

    def i18n_domain(self) -> str:
        return "ckanext-passport"
