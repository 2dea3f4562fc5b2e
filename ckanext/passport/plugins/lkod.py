"""Plugin ``passport_lkod``: the portal as a Czech local open-data catalog (LKOD) under ``/lkod/``.

Thin wiring: the behaviour lives in ``ckanext.passport.lkod``. It needs the base plugin ``passport`` (the
record's fields) and ckanext-dcat (``dcat``, whose RDF machinery the DCAT-AP-CZ profile builds on).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.lkod import catalog_stream, organizations, views

from .shared import PassportTranslation, declaration_file


@tk.blanket.config_declarations(declaration_file("lkod"))
@tk.blanket.blueprints(views.blueprints())
class PassportLkodPlugin(PassportTranslation, p.SingletonPlugin, tk.DefaultOrganizationForm):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IPackageController, inherit=True)
    p.implements(p.IGroupForm, inherit=False)

    def update_config(self, config: "tk.CKANConfig") -> None:
        tk.add_template_directory(config, "../templates/lkod")

    def before_dataset_index(self, pkg_dict: dict) -> dict:
        return catalog_stream.index_eligibility(pkg_dict)

    # IGroupForm: CKAN's organization form and actions, with the organization's IČO (lkod.organizations). The one
    # IGroupForm of organizations: a site with ckanext-scheming's scheming_organizations cannot load this plugin.
    is_organization = True

    def group_types(self) -> tuple[str, ...]:
        return ("organization",)

    def is_fallback(self) -> bool:
        return False

    def create_group_schema(self) -> dict:
        return organizations.create_schema(super().create_group_schema())

    def update_group_schema(self) -> dict:
        return organizations.create_schema(super().update_group_schema())

    def show_group_schema(self) -> dict:
        return organizations.show_schema(super().show_group_schema())
