"""Plugin ``passport_lkod``: the portal as a Czech local open-data catalog (LKOD) under ``/lkod/``.

Thin wiring: the behaviour lives in ``ckanext.passport.lkod``. It needs the base plugin ``passport`` (the
record's fields) and ckanext-dcat (``dcat``, whose RDF machinery the DCAT-AP-CZ profile builds on).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.lkod import catalog_stream, context, views
from ckanext.passport.lkod.links import actions as link_actions
from ckanext.passport.lkod.links import job as link_job
from ckanext.passport.lkod.links import views as link_views

from .shared import PassportTranslation, add_templates, declaration_file, require


@tk.blanket.config_declarations(declaration_file("lkod"))
@tk.blanket.blueprints(views.blueprints())
@tk.blanket.actions(link_actions.actions())
@tk.blanket.auth_functions(link_actions.auth_functions())
@tk.blanket.helpers(link_views.helpers())
class PassportLkodPlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IPackageController, inherit=True)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport_lkod", ("dcat", "passport"))
        # No JSON-LD read in this process, ckanext-dcat's included, reaches for a remote context.
        context.guard_rdflib()
        add_templates(config, "lkod")

    def before_dataset_index(self, pkg_dict: dict) -> dict:
        return catalog_stream.index_eligibility(pkg_dict)

    # A record published, or a published public record updated: its links are checked by a background job.
    def after_dataset_create(self, context: dict, pkg_dict: dict) -> None:
        link_job.after_write(pkg_dict)

    def after_dataset_update(self, context: dict, pkg_dict: dict) -> None:
        link_job.after_write(pkg_dict)
