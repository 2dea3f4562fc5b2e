"""Plugin ``passport_publish``: RDFa on dataset pages and the MR exports under ``/opendata/``.

Thin wiring: the behaviour lives in ``ckanext.passport.publish``.
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.publish import rdfa, search, views

from .shared import PassportTranslation, add_templates, declaration_file, require


@tk.blanket.config_declarations(declaration_file("publish"))
@tk.blanket.blueprints(views.blueprints)
@tk.blanket.helpers(rdfa.helpers)
class PassportPublishPlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IPackageController, inherit=True)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport_publish", ("passport",))
        add_templates(config, "publish")

    def before_dataset_index(self, pkg_dict: dict) -> dict:
        return search.index_publication(pkg_dict)
