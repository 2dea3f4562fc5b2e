"""CKAN's JavaScript messages reach Czech pages: CKAN files its Czech under cs_CZ, the site serves cs."""
from __future__ import annotations

import pytest
from ckan.lib.i18n import build_js_translations

from ckanext.passport.script_translations import regional_catalog

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]


@pytest.fixture
def built(ckan_config, tmp_path, monkeypatch):
    """The JavaScript catalogs as `ckan run` and `ckan translation js` build them, in a storage folder of their own."""
    monkeypatch.setitem(ckan_config, "ckan.storage_path", str(tmp_path))
    build_js_translations()


def test_czech_is_found_under_its_region_and_russian_under_its_name():
    assert regional_catalog("cs") == "cs_CZ"
    assert regional_catalog("ru") is None


def test_the_czech_javascript_messages_are_ckans_own(web, built):
    messages = web.get("/api/i18n/cs").json
    assert messages["Upload"][1] == "Nahrát"
    assert messages["No matches found"][1]
    assert messages[""]["lang"] == "cs"


def test_russian_javascript_messages_stay_ckans_route(web, built):
    messages = web.get("/api/i18n/ru").json
    assert messages["Upload"][1] == "Загрузка"
