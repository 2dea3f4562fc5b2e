"""Plugin ``passport_lkod_harvester``: registers the ``lkod`` harvest source type (another Czech LKOD, DCAT-AP-CZ).

It needs ``dcat`` (ckanext-dcat's parser and the ``dcat_ap_cz`` profile), the base plugin ``passport`` (the
fetch options) and ``passport_harvester``, whose chained job actions show this type's findings in the reader's
language too (:mod:`ckanext.passport.harvest.findings`).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.lkod import context
from ckanext.passport.lkod.harvester import LkodHarvester

from .shared import PassportTranslation, require


class PassportLkodHarvesterPlugin(PassportTranslation, LkodHarvester):
    """ckanext-harvest finds harvesters as plugins implementing IHarvester: the plugin is the harvester."""

    p.implements(p.ITranslation)
    p.implements(p.IConfigurer)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport_lkod_harvester", ("harvest", "dcat", "passport", "passport_harvester"))
        # No JSON-LD read in this process, ckanext-dcat's parser's included, reaches for a remote context.
        context.guard_rdflib()
