"""Plugin ``passport``: the Czech catalog record (schema, vocabularies) and its editorial workflow."""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from .shared import PassportTranslation, declaration_file


@tk.blanket.config_declarations(declaration_file("catalog"))
class PassportPlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.IClick)

    def update_config(self, config: "tk.CKANConfig") -> None:
        tk.add_template_directory(config, "../templates")
        tk.add_public_directory(config, "../assets")

    def get_commands(self) -> list:
        from ckanext.passport.cli import passport

        return [passport]
