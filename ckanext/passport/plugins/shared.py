"""What every passport plugin has in common: one translation domain and its config file, the check of what a
plugin needs at load, the actions and auth functions it wraps, and the one way a template folder goes before
ckanext-harvest's."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from ckan.common import aslist
from ckan.exceptions import CkanConfigurationException
from ckan.lib.plugins import DefaultTranslation

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

# What the record's schema needs of ckanext-scheming: each setting naming these among its space-separated values.
SCHEMING_SETTINGS: dict[str, tuple[str, ...]] = {
    "scheming.dataset_schemas": ("ckanext.passport.catalog:schemas/dataset.yaml",),
    "scheming.presets": ("ckanext.scheming:presets.json", "ckanext.passport.catalog:schemas/presets.yaml"),
}


def declaration_file(name: str) -> str:
    """Absolute path of one plugin's config declaration file under ``ckanext/passport/config/``."""
    return str(PACKAGE_ROOT / "config" / f"{name}.yaml")


def require(config: Mapping[str, Any], plugin: str, plugins: tuple[str, ...],
            settings: Mapping[str, tuple[str, ...]] = {}) -> None:
    """Refuse to load ``plugin`` on a site whose ``ckan.plugins`` lacks one of ``plugins``, or whose ``settings``
    lack one of their values: one message naming every one missing, instead of a failure far from its cause."""
    # Declared options come typed (ckan.plugins a list), others as the ini's text: aslist reads both.
    listed = set(aslist(config.get("ckan.plugins", "")))
    missing = [f"the plugin {name}" for name in plugins if name not in listed]
    for key, values in settings.items():
        present = set(aslist(config.get(key, "")))  # a default: scheming declares none of its options
        missing += [f"{value} in {key}" for value in values if value not in present]
    if missing:
        raise CkanConfigurationException(f"The plugin {plugin} needs {', '.join(missing)} (docs/install.md).")


def _wrappers(marker: str, maps: tuple[Mapping[str, Callable[..., Any]], ...]) -> dict[str, Callable[..., Any]]:
    """The functions of ``maps`` merged, each marked by CKAN's decorator as a wrapper (``marker``), no name twice."""
    merged: dict[str, Callable[..., Any]] = {}
    for functions in maps:
        for name, function in functions.items():
            if not getattr(function, marker, False) or name in merged:
                raise ValueError(f"{name}: not a tk.{marker}, or chained twice by one plugin")
            merged[name] = function
    return merged


def chained(*maps: Mapping[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The actions a plugin wraps, from its rooms' ``chained_actions()``: each must be a ``tk.chained_action`` (or
    CKAN would replace the action it names instead of wrapping it), and one plugin wraps a name once."""
    return _wrappers("chained_action", maps)


def chained_auth(*maps: Mapping[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The auth functions a plugin wraps, from its rooms' ``chained_auth_functions()``: each must be a
    ``tk.chained_auth_function`` (or CKAN would replace the check it names), and one plugin wraps a name once."""
    return _wrappers("chained_auth_function", maps)


# The package's folders: the plugins name them directly, not through toolkit's add_template_directory and
# add_resource, which find the calling module with inspect.stack() (reading the source of every frame: 80 ms a call
# under a test runner's deep stack, a tenth of a typical test module's time).
PACKAGE = Path(__file__).resolve().parent.parent


def add_templates(config: Any, folder: str) -> None:
    """The package's template ``folder`` among the plugins' (``tk.add_template_directory``, by its own path)."""
    path = str(PACKAGE / "templates" / folder)
    paths = config.get("plugin_template_paths", [])
    if path not in paths:
        config["plugin_template_paths"] = [path] + paths


def add_assets(folder: str, name: str) -> None:
    """The package's asset ``folder`` as the WebAssets library ``name`` (``tk.add_resource``, by its own path)."""
    from ckan.lib.webassets_tools import create_library

    create_library(name, str(PACKAGE / "assets" / folder))


def templates_first(config: Any, folder: Path) -> None:
    """Put ``folder`` before every plugin's template folders, ckanext-harvest's included.

    Plugins' template folders are searched in the order the plugins are listed, and ckanext-harvest is listed
    before ours, so an override of its templates among ours would never be found: the folder goes with the site's
    own ``extra_template_paths``, which come before every plugin's (after the site's own, so a site's theme still
    wins and may extend it).
    """
    paths = [path for path in (config.get("extra_template_paths") or "").split(",") if path]
    if str(folder) not in paths:
        config["extra_template_paths"] = ",".join(paths + [str(folder)])


class PassportTranslation(DefaultTranslation):
    """All the plugins share one gettext domain kept in the package, so non-editable installs find it."""

    def i18n_directory(self) -> str:
        return str(PACKAGE_ROOT / "i18n")

    def i18n_domain(self) -> str:
        return "ckanext-passport"
