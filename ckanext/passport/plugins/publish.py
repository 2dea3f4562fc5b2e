"""Plugin ``passport_publish``: RDFa on dataset pages and the MR exports under ``/opendata/``."""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from .shared import PassportTranslation, declaration_file


@tk.blanket.config_declarations(declaration_file("publish"))
class PassportPublishPlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)

    def update_config(self, config: "tk.CKANConfig") -> None:
        tk.add_template_directory(config, "../templates/publish")
