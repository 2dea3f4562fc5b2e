"""Plugin ``passport``: the Czech catalog record (schema, vocabularies) and its editorial workflow.

Thin wiring only: each module of ``ckanext.passport.catalog`` names what it offers (``actions()``,
``validators()``, ``helpers()`` …) and this file lists, by name, which module serves which CKAN interface.
"""
from __future__ import annotations

from typing import Any

import ckan.plugins as p
import ckan.plugins.toolkit as tk
from ckan.lib.plugins import DefaultPermissionLabels

from ckanext.passport.catalog.openness import actions as openness_actions
from ckanext.passport.catalog.openness import auth as openness_auth
from ckanext.passport.catalog.openness import helpers as openness_helpers
from ckanext.passport.catalog.openness import validators as openness_validators
from ckanext.passport.catalog.openness import views as openness_views
from ckanext.passport.catalog.people import actions as people_actions
from ckanext.passport.catalog.people import auth as people_auth
from ckanext.passport.catalog.people import helpers as people_helpers
from ckanext.passport.catalog.people import publishers
from ckanext.passport.catalog.record import display, harvested_fields, identity, record_lock, series, validators
from ckanext.passport.catalog.vocabularies import actions as vocabularies_actions
from ckanext.passport.catalog.vocabularies import auth as vocabularies_auth
from ckanext.passport.catalog.vocabularies import helpers as vocabularies_helpers
from ckanext.passport.catalog.vocabularies import licences, vocab
from ckanext.passport.catalog.workflow import actions, auth, completeness, states, unowned, views, visibility
from ckanext.passport.catalog.workflow import helpers as workflow_helpers

from ckanext.passport import language, rate_limits, script_translations

from .shared import (SCHEMING_SETTINGS, PassportTranslation, add_assets, add_templates, chained, chained_auth,
                     declaration_file, require)


@tk.blanket.config_declarations(declaration_file("catalog"))
# A callable: people chains ckanext-activity's actions only where that plugin is loaded.
@tk.blanket.actions(lambda: actions.actions() | openness_actions.actions() | vocabularies_actions.actions()
                    # Wrapped: package_update (under the record's row lock); organization_show, group_show,
                    # user_show, organization_list_for_user and ckanext-activity's lists (no login published).
                    | chained(record_lock.chained_actions(), people_actions.chained_actions()))
@tk.blanket.auth_functions(
    auth.auth_functions()
    | openness_auth.auth_functions()
    | vocabularies_auth.auth_functions()
    # Wrapped: user_show, user_list, member_list, organization_list_for_user and package_collaborator_list (a
    # visitor lists no users); package_update (a record of no organization changed only by whoever made it).
    | chained_auth(people_auth.chained_auth_functions(), unowned.chained_auth_functions())
)
@tk.blanket.validators(
    validators.validators()
    | harvested_fields.validators()
    | states.validators()
    | identity.validators()
    | openness_validators.validators()
    | series.validators()
)
@tk.blanket.helpers(
    vocab.helpers()
    | vocabularies_helpers.helpers()
    | display.helpers()
    | openness_helpers.helpers()
    | completeness.helpers()
    | visibility.helpers()
    | workflow_helpers.helpers()
    | people_helpers.helpers()
    | series.helpers()
    | licences.helpers()
)
# A callable: the script messages' routes follow the configured locales, read when the app is made.
@tk.blanket.blueprints(lambda: views.blueprints() + openness_views.blueprints() + script_translations.blueprints())
class PassportPlugin(PassportTranslation, p.SingletonPlugin, tk.DefaultOrganizationForm):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IClick)
    p.implements(p.IFacets, inherit=True)
    p.implements(p.IPermissionLabels)
    p.implements(p.IPackageController, inherit=True)
    p.implements(p.IMiddleware, inherit=True)
    p.implements(p.IGroupForm, inherit=False)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport", ("scheming_datasets",), SCHEMING_SETTINGS)
        add_templates(config, "catalog")
        add_assets("catalog", "ckanext-passport")
        licences.use_shipped_list(config)

    def make_middleware(self, app: Any, config: Any) -> Any:
        app.before_request(language.mend_plural_rule)
        return rate_limits.behind_proxies(app)

    def get_commands(self) -> list:
        # `ckan passport`, with the commands of the passport plugins loaded (cli.command_tree).
        from ckanext.passport.cli import command_tree

        return [command_tree(p.plugin_loaded)]

    def dataset_facets(self, facets_dict: dict, package_type: str) -> dict:
        return vocab.dataset_facets(facets_dict, package_type)

    # CKAN consults only one IPermissionLabels plugin: start from its default labels and refine them.
    def get_dataset_labels(self, dataset_obj: Any) -> list[str]:
        return visibility.dataset_labels(DefaultPermissionLabels().get_dataset_labels(dataset_obj), dataset_obj)

    def get_user_dataset_labels(self, user_obj: Any) -> list[str]:
        return visibility.user_dataset_labels(
            DefaultPermissionLabels().get_user_dataset_labels(user_obj), user_obj
        )

    def before_dataset_index(self, pkg_dict: dict) -> dict:
        return visibility.before_dataset_index(vocab.before_dataset_index(pkg_dict))

    # A licence's title follows the reader's language, not the saver's (catalog.vocabularies.licences).
    def after_dataset_show(self, context: dict, pkg_dict: dict) -> dict:
        return licences.show_in_reader_language(pkg_dict)

    def after_dataset_search(self, search_results: dict, search_params: dict) -> dict:
        return licences.search_in_reader_language(search_results)

    # IGroupForm: CKAN's organization form and actions, with the publisher's IČO and INNs a sysadmin sets
    # (catalog.people.publishers). The one IGroupForm of organizations: a site with ckanext-scheming's
    # scheming_organizations cannot load this plugin.
    is_organization = True

    def group_types(self) -> tuple[str, ...]:
        return ("organization",)

    def is_fallback(self) -> bool:
        return False

    def create_group_schema(self) -> dict:
        return publishers.create_schema(super().create_group_schema())

    def update_group_schema(self) -> dict:
        return publishers.create_schema(super().update_group_schema())

    def show_group_schema(self) -> dict:
        return publishers.show_schema(super().show_group_schema())
