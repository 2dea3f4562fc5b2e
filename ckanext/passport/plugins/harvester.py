"""Plugin ``passport_harvester``: registers the MR harvester with ckanext-harvest.

It needs the base plugin ``passport``, which declares the harvest's options (fetch limits, User-Agent): its
openness check fetches with them too. It chains ckanext-harvest's job actions so that our findings are shown
in the reader's language (:mod:`ckanext.passport.harvest.findings`), and its job run so that no object of either
source type stays mid-stage and each job the run finished is announced by a signal
(:mod:`ckanext.passport.harvest.recovery`). It puts its own copy of ckanext-harvest's
source form first (:mod:`ckanext.passport.harvest.source_form`), and reads a source's registry once when it is
saved from that form (:mod:`ckanext.passport.harvest.source_check`). It chains ``package_update`` so that every update
of a source of either type is judged on its effective config (:mod:`ckanext.passport.harvest.config_authority`).
It chains ``harvest_object_show``'s auth so that an object is shown only to whoever may see its source
(:mod:`ckanext.passport.harvest.object_access`).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.harvest import config_authority, findings as harvest_findings, recovery, source_check, source_form
from ckanext.passport.harvest import object_access, source_type
from ckanext.passport.harvest.mr_harvester import PassportHarvester

from .shared import PassportTranslation, chained, chained_auth, require, templates_first


# Wrapped, nothing new: ckanext-harvest's job report, job show, source status and object show (findings in the
# reader's language), its harvest_jobs_run (no object left mid-stage; each finished job announced), and
# package_update (a source's options judged on its effective config).
@tk.blanket.actions(lambda: chained(harvest_findings.chained_actions(), recovery.chained_actions(),
                                    config_authority.chained_actions()))
# Wrapped: ckanext-harvest's harvest_object_show auth (an object shown only to whoever may see its source).
@tk.blanket.auth_functions(chained_auth(object_access.chained_auth_functions()))
@tk.blanket.helpers(source_form.helpers())
class PassportHarvesterPlugin(PassportTranslation, PassportHarvester):
    """ckanext-harvest finds harvesters as plugins implementing IHarvester: the plugin is the harvester."""

    p.implements(p.ITranslation)
    p.implements(p.IConfigurer)
    p.implements(p.IPackageController, inherit=True)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport_harvester", ("harvest", "passport"))
        # ckanext-harvest's source form, with organizations by title and the config box's keys (source_form).
        templates_first(config, source_form.TEMPLATES)

    # A passport source saved from its form: its registry read once, and what blocks it said (source_check).
    def after_dataset_create(self, context: dict, pkg_dict: dict) -> None:
        source_check.after_source_saved(pkg_dict)

    def after_dataset_update(self, context: dict, pkg_dict: dict) -> None:
        source_check.after_source_saved(pkg_dict)

    def after_dataset_show(self, context: dict, pkg_dict: dict) -> dict:
        return source_type.keep_organization(pkg_dict)
