"""Plugin ``passport``: the Czech catalog record (schema, vocabularies) and its editorial workflow.

Thin wiring only. Each module of ``ckanext.passport.catalog`` listed in ``CONTRIBUTORS`` may offer any of
the hook functions below; the plugin merges what they offer, so a module adds an action, a validator or a
blueprint without touching this file.
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any, Iterator

import ckan.plugins as p
import ckan.plugins.toolkit as tk
from ckan.lib.plugins import DefaultPermissionLabels

from .shared import PassportTranslation, declaration_file

CONTRIBUTORS = (
    "validators",
    "harvested_fields",
    "vocab",
    "display",
    "openness",
    "workflow",
    "identity",
    "actions",
    "auth",
    "visibility",
    "views",
)


def _modules() -> Iterator[ModuleType]:
    for name in CONTRIBUTORS:
        yield import_module(f"ckanext.passport.catalog.{name}")


def _merged(hook: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for module in _modules():
        offer = getattr(module, hook, None)
        if offer is not None:
            merged.update(offer())
    return merged


def _chain(hook: str, value: Any, *args: Any) -> Any:
    """Pass ``value`` through every module's ``hook(value, *args)`` in CONTRIBUTORS order."""
    for module in _modules():
        step = getattr(module, hook, None)
        if step is not None:
            value = step(value, *args)
    return value


@tk.blanket.config_declarations(declaration_file("catalog"))
class PassportPlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IClick)
    p.implements(p.IActions)
    p.implements(p.IAuthFunctions)
    p.implements(p.IValidators)
    p.implements(p.ITemplateHelpers)
    p.implements(p.IBlueprint)
    p.implements(p.IFacets, inherit=True)
    p.implements(p.IPermissionLabels)
    p.implements(p.IPackageController, inherit=True)

    def update_config(self, config: "tk.CKANConfig") -> None:
        tk.add_template_directory(config, "../templates/catalog")
        tk.add_public_directory(config, "../assets")

    def get_commands(self) -> list:
        # The MR commands import no CKAN; the catalog's own commands join their group here.
        from ckanext.passport.catalog.cli import vocab_group
        from ckanext.passport.cli import passport

        passport.add_command(vocab_group)
        return [passport]

    def get_actions(self) -> dict[str, Any]:
        return _merged("actions")

    def get_auth_functions(self) -> dict[str, Any]:
        return _merged("auth_functions")

    def get_validators(self) -> dict[str, Any]:
        return _merged("validators")

    def get_helpers(self) -> dict[str, Any]:
        return _merged("helpers")

    def get_blueprint(self) -> list:
        return [bp for module in _modules() for bp in getattr(module, "blueprints", lambda: [])()]

    def dataset_facets(self, facets_dict: dict, package_type: str) -> dict:
        return _chain("dataset_facets", facets_dict, package_type)

    # CKAN consults only one IPermissionLabels plugin: start from its default labels and let modules refine.
    def get_dataset_labels(self, dataset_obj: Any) -> list[str]:
        return _chain("dataset_labels", DefaultPermissionLabels().get_dataset_labels(dataset_obj), dataset_obj)

    def get_user_dataset_labels(self, user_obj: Any) -> list[str]:
        return _chain("user_dataset_labels", DefaultPermissionLabels().get_user_dataset_labels(user_obj), user_obj)

    def before_dataset_index(self, pkg_dict: dict) -> dict:
        return _chain("before_dataset_index", pkg_dict)

    def after_dataset_create(self, context: dict, pkg_dict: dict) -> None:
        _chain("after_dataset_create", pkg_dict, context)

    def after_dataset_update(self, context: dict, pkg_dict: dict) -> None:
        _chain("after_dataset_update", pkg_dict, context)
