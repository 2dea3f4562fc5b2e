"""Plugin ``passport_harvester``: registers the MR harvester with ckanext-harvest.

It needs the base plugin ``passport``, which declares the harvest's options (fetch limits, User-Agent): its
openness check fetches with them too. It chains ckanext-harvest's job actions so that our findings are shown
in the reader's language (:mod:`ckanext.passport.harvest.findings`), and its job run so that no object of either
source type stays mid-stage (:mod:`ckanext.passport.harvest.recovery`).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.harvest import findings as harvest_findings, recovery
from ckanext.passport.harvest.mr_harvester import PassportHarvester

from .shared import PassportTranslation


@tk.blanket.actions(lambda: harvest_findings.actions() | recovery.actions())
class PassportHarvesterPlugin(PassportTranslation, PassportHarvester):
    """ckanext-harvest finds harvesters as plugins implementing IHarvester: the plugin is the harvester."""

    p.implements(p.ITranslation)
