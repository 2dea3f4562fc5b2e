"""Plugin ``passport_conformance``: MR conformance in the portal.

A harvest source's Conformance tab and report (``/harvest/<name>/conformance``), a record's findings on its
page for its curators and editors, and the publisher's site check (``/passport/check``, a CKAN background
job). Thin wiring: the behaviour lives in ``ckanext.passport.conformance``. It needs ``passport_harvester``,
whose chain of ``harvest_jobs_run`` announces each finished job (``harvest.recovery.job_finished``): it subscribes
to that signal to summarize a passport job and send its notices (``conformance.finished_jobs``).
"""
from __future__ import annotations

import ckan.plugins as p
import ckan.plugins.toolkit as tk

from ckanext.passport.conformance.harvest import actions as harvest_actions
from ckanext.passport.conformance.harvest import views as harvest_views
from ckanext.passport.conformance import finished_jobs
from ckanext.passport.conformance.notices import views as notices_views
from ckanext.passport.conformance.scoreboard import actions as scoreboard_actions
from ckanext.passport.conformance.scoreboard import health
from ckanext.passport.conformance.scoreboard import views as scoreboard_views
from ckanext.passport.conformance.site_check import actions as site_check_actions
from ckanext.passport.conformance.site_check import views as site_check_views

from .shared import PassportTranslation, add_templates, declaration_file, require, templates_first


@tk.blanket.config_declarations(declaration_file("conformance"))
@tk.blanket.actions({**harvest_actions.actions(), **site_check_actions.actions(), **scoreboard_actions.actions(),
                     **health.actions()})
@tk.blanket.auth_functions({**harvest_actions.auth_functions(), **site_check_actions.auth_functions(),
                            **scoreboard_actions.auth_functions(), **health.auth_functions()})
@tk.blanket.blueprints(harvest_views.blueprints() + site_check_views.blueprints() + notices_views.blueprints()
                       + scoreboard_views.blueprints())
@tk.blanket.helpers(harvest_views.helpers())
class PassportConformancePlugin(PassportTranslation, p.SingletonPlugin):
    p.implements(p.IConfigurer)
    p.implements(p.ITranslation)
    p.implements(p.ISignal)

    def update_config(self, config: "tk.CKANConfig") -> None:
        require(config, "passport_conformance", ("harvest", "passport", "passport_harvester"))
        add_templates(config, "conformance")
        # The Conformance tab on ckanext-harvest's source and job pages.
        templates_first(config, harvest_views.HARVEST_OVERRIDES)

    # A finished passport job: its summary and notices (its `ckan passport notices` commands: cli.command_tree).
    def get_signal_subscriptions(self) -> dict:
        return finished_jobs.signal_subscriptions()
