"""The ckanext-harvest adapter: gather / fetch / import stages over ``mr`` and ``mapping``."""
from __future__ import annotations

import json
from typing import Any

import ckan.plugins.toolkit as tk
from ckanext.harvest.harvesters.base import HarvesterBase

_ = tk._


class PassportHarvester(HarvesterBase):
    """Harvests sites publishing under the Russian Methodological Recommendations (MR 2.3 and 3.0)."""

    def info(self) -> dict[str, str]:
        return {
            "name": "passport",
            "title": _("Open data passports (MR 2.3 / 3.0)"),
            "description": _(
                "Harvests a site's open-data registry and dataset passports published under the "
                "Methodological Recommendations MR 2.3 and MR 3.0."
            ),
            "form_config_interface": "Text",
        }

    def validate_config(self, config: str) -> str:
        if not config:
            return config
        try:
            parsed: Any = json.loads(config)
        except ValueError as e:
            raise ValueError(_("The configuration is not valid JSON: {error}").format(error=e))
        if not isinstance(parsed, dict):
            raise ValueError(_("The configuration must be a JSON object."))
        return config

    def gather_stage(self, harvest_job: Any) -> list[str]:
        return []

    def fetch_stage(self, harvest_object: Any) -> bool:
        return False

    def import_stage(self, harvest_object: Any) -> bool:
        return False
