"""Each passport plugin checks at load that the plugins and ckanext-scheming settings it needs are there, and
fails with a message naming every one missing (issue 43)."""
from __future__ import annotations

import pytest
from ckan.exceptions import CkanConfigurationException

from ckanext.passport.plugins.catalog import PassportPlugin
from ckanext.passport.plugins.conformance import PassportConformancePlugin
from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

SCHEMING = {
    "scheming.dataset_schemas": "ckanext.passport.catalog:schemas/dataset.yaml",
    "scheming.presets": "ckanext.scheming:presets.json ckanext.passport.catalog:schemas/presets.yaml",
}


def test_the_conformance_plugin_without_the_harvester_plugin_fails_naming_it():
    config = {"ckan.plugins": "activity harvest scheming_datasets dcat passport passport_conformance", **SCHEMING}
    with pytest.raises(CkanConfigurationException) as refused:
        PassportConformancePlugin().update_config(config)
    assert str(refused.value) == ("The plugin passport_conformance needs the plugin passport_harvester "
                                  "(docs/install.md).")


def test_the_lkod_harvester_plugin_names_every_plugin_it_misses():
    config = {"ckan.plugins": "harvest scheming_datasets passport passport_lkod_harvester", **SCHEMING}
    with pytest.raises(CkanConfigurationException, match="needs the plugin dcat, the plugin passport_harvester "):
        PassportLkodHarvesterPlugin().update_config(config)


def test_the_base_plugin_without_its_record_schema_in_scheming_fails_naming_the_setting():
    config = {**SCHEMING, "ckan.plugins": "scheming_datasets passport",
              "scheming.dataset_schemas": "ckanext.scheming:ckan_dataset.yaml"}
    with pytest.raises(CkanConfigurationException) as refused:
        PassportPlugin().update_config(config)
    assert "ckanext.passport.catalog:schemas/dataset.yaml in scheming.dataset_schemas" in str(refused.value)
