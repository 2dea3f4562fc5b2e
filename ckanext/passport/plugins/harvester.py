"""Plugin ``passport_harvester``: registers the MR harvester with ckanext-harvest."""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.harvester import PassportHarvester

from .shared import PassportTranslation, declaration_file


@tk.blanket.config_declarations(declaration_file("harvester"))
class PassportHarvesterPlugin(PassportTranslation, PassportHarvester):
    """ckanext-harvest finds harvesters as plugins implementing IHarvester: the plugin is the harvester."""

    p.implements(p.ITranslation)
