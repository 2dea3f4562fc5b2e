"""A passport source saved from its form is read once at once: an address that leads to no MR registry is said on
the page the form leads to, with the coded reason; and a registry that answers says nothing."""
from __future__ import annotations

import shutil

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_site import DEMO_SITE
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

PRIVATE = '{"allow_private_addresses": true}'


@pytest.fixture
def sysadmin_browser(web) -> SignedIn:
    return SignedIn(web, factories.Sysadmin())


@pytest.fixture
def site(tmp_path, serve_site):
    shutil.copytree(DEMO_SITE, tmp_path / "site")
    return serve_site(tmp_path / "site")


def save_source(browser: SignedIn, url: str, name: str, prefix: str = "") -> str:
    organization = factories.Organization()
    saved = browser.post(f"{prefix}/harvest/new", data={
        "url": url, "title": name, "name": name, "source_type": "passport", "config": PRIVATE,
        "frequency": "MANUAL", "owner_org": organization["id"], "save": "",
    }, follow_redirects=True)
    assert saved.status_code == 200
    return saved.get_data(as_text=True)


def test_an_address_without_a_registry_is_said_when_the_source_is_saved(sysadmin_browser, site):
    page = save_source(sysadmin_browser, f"{site.url}/nothing-here/", "no-registry")
    assert "[registry.not_discovered]" in page
    assert call_action("harvest_source_show", id="no-registry")["url"] == f"{site.url}/nothing-here/"


def test_the_reason_is_said_in_the_readers_language(sysadmin_browser, site):
    page = save_source(sysadmin_browser, f"{site.url}/nothing-here/", "bez-registru", prefix="/cs")
    assert "Zdroj je uložen, ale jeho adresa zatím nevede k žádnému registru MR" in page


def test_an_address_with_a_registry_saves_without_a_word(sysadmin_browser, site):
    page = save_source(sysadmin_browser, f"{site.url}/opendata/", "with-registry")
    assert "registry.not_discovered" not in page and "leads to no MR registry" not in page

