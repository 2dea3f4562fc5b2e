"""An organization editor, in Czech, cannot point a sysadmin's source elsewhere (issue 37).

A sysadmin's ``passport`` source may harvest private addresses. An editor of its organization opens its edit page at
``/cs/``, puts another address in the URL field and saves: the form comes back with why, in Czech, as the URL
field's error, and the source still harvests the address the sysadmin gave it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.translation import translator

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

# Loopback, a closed port: saving a source from its form reads its registry once (source_check), and a test reaches
# no network.
SITE = "http://127.0.0.1:9/opendata/"
INTERNAL = "http://10.0.0.7/admin/"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output"


def test_an_editor_is_told_in_czech_why_a_sysadmins_source_keeps_its_address(
    browser: Browser, live_ckan: str, harvest_source
):
    editor = factories.User(name="redaktorka", password=PASSWORD)
    town = factories.Organization(name="mesto", users=[{"name": editor["name"], "capacity": "editor"}])
    source = harvest_source(SITE, {"allow_private_addresses": True}, name="mestska-data", title="Městská data",
                            owner_org=town["id"])
    page = sign_in(browser, live_ckan, editor, locale="cs")

    page.goto("/cs/harvest/edit/mestska-data")
    page.fill("#field-url", INTERNAL)
    page.click("#save")
    page.wait_for_load_state()

    refusal = problem("config.retarget_sysadmin_only", options="allow_private_addresses").message(translator("cs"))
    assert refusal.startswith("Adresu, typ nebo organizaci tohoto zdroje smí změnit jen správce systému")
    url_error = page.locator(".form-group:has(#field-url) .error-block")
    expect(url_error).to_have_text(f"[config.retarget_sysadmin_only] {refusal}")
    expect(page.locator(".error-explanation")).to_contain_text("[config.retarget_sysadmin_only]")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("body")).not_to_contain_text("Traceback")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "source-retarget-cs.png"), full_page=True)

    shown = call_action("harvest_source_show", id=source["id"])
    assert (shown["url"], shown["config"]) == (SITE, '{"allow_private_addresses": true}')
