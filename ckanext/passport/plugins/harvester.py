"""Plugin ``passport_harvester``: registers the MR harvester with ckanext-harvest.

It needs the base plugin ``passport``, which declares the harvest's options (fetch limits, User-Agent): its
openness check fetches with them too.
"""
from __future__ import annotations

import ckan.plugins as p

from ckanext.passport.harvester import PassportHarvester

from .shared import PassportTranslation


class PassportHarvesterPlugin(PassportTranslation, PassportHarvester):
    """ckanext-harvest finds harvesters as plugins implementing IHarvester: the plugin is the harvester."""

    p.implements(p.ITranslation)
