"""The harvest source form in a real browser (Debian's Chromium) against a live CKAN server.

An organization admin (not a sysadmin) fills in a passport source whose config reaches past their
organization; the form comes back with the refusal as the error of its Configuration field, in English and
in Czech, and no source is made. A sysadmin saving the same config gets the source.
"""
from __future__ import annotations

import json

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

# Loopback, a closed port: saving a source reads its registry once (source_check), and a test reaches no network.
SITE = "http://127.0.0.1:9/opendata/"


@pytest.fixture
def cast() -> dict:
    admin = factories.User(name="spravce-zdroju", password=PASSWORD)
    sysadmin = factories.Sysadmin(name="spravce-portalu", password=PASSWORD)
    own = factories.Organization(name="mesto", users=[{"name": admin["name"], "capacity": "admin"}])
    factories.Organization(name="ministerstvo")
    return {"admin": admin, "sysadmin": sysadmin, "own": own}


def fill_source(page: Page, prefix: str, config: dict, owner_org: str = "") -> None:
    """The new source form filled and saved; ``owner_org`` chosen where the user has several organizations (the
    select starts at "Choose an organization")."""
    page.goto(f"{prefix}/harvest/new", wait_until="networkidle")  # the slug is filled in by the form's script
    if owner_org:
        page.select_option("#field-organizations", owner_org, force=True)
    page.fill("#field-url", SITE)
    page.fill("#field-title", "Mestska data")  # the form's script makes the slug mestska-data of it
    page.check("input[name=source_type][value=passport]")
    page.fill("#field-config", json.dumps(config))
    page.click("#save")
    page.wait_for_load_state()


def config_error(page: Page):
    """The error shown under the Configuration field."""
    return page.locator(".form-group:has(#field-config) .error-block")


def finding(page: Page, code: str):
    """The sentence of the config error whose code (in small type after it) is ``code``."""
    line = config_error(page).locator("li", has=page.locator(".passport-finding-code code", has_text=code))
    return line.locator(".passport-finding-text")


def source_exists(page: Page) -> bool:
    """Whether the source was made, asked as the signed-in user (a source is shown to its organization)."""
    return page.request.get("/api/3/action/harvest_source_show?id=mestska-data").ok


def test_organization_admin_sees_the_refused_organization_as_a_config_field_error(
    browser: Browser, live_ckan: str, cast
):
    page = sign_in(browser, live_ckan, cast["admin"])
    fill_source(page, "", {"organization": "ministerstvo"})

    expect(finding(page, "config.organization_not_allowed")).to_contain_text(
        "You may not create datasets in the organization 'ministerstvo'")
    expect(page.locator(".error-explanation")).to_contain_text("[config.organization_not_allowed]")
    expect(page.locator("#field-config")).to_have_value('{"organization": "ministerstvo"}')
    assert not source_exists(page)


def test_organization_admin_sees_the_refusals_in_czech(browser: Browser, live_ckan: str, cast):
    page = sign_in(browser, live_ckan, cast["admin"], locale="cs")
    fill_source(page, "/cs", {"organization": "ministerstvo", "allow_private_addresses": True})

    expect(finding(page, "config.organization_not_allowed")).to_contain_text(
        "V organizaci 'ministerstvo' nesmíte vytvářet datové sady")
    expect(finding(page, "config.private_addresses_sysadmin_only")).to_contain_text(
        "Sklízení privátních adres smí povolit jen správce systému.")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    assert not source_exists(page)


def test_organization_admin_may_name_their_own_organization(browser: Browser, live_ckan: str, cast):
    page = sign_in(browser, live_ckan, cast["admin"])
    with page.expect_response("**/harvest/mestska-data") as source_page:
        fill_source(page, "", {"organization": "mesto"})

    expect(config_error(page)).to_have_count(0)
    assert source_exists(page)
    assert source_page.value.status == 200  # the config's organization left the source's own on its page


def test_sysadmin_may_harvest_into_any_organization(browser: Browser, live_ckan: str, cast):
    page = sign_in(browser, live_ckan, cast["sysadmin"])
    fill_source(page, "", {"organization": "ministerstvo"}, owner_org=cast["own"]["id"])

    expect(config_error(page)).to_have_count(0)
    assert source_exists(page)


def test_an_admin_saving_an_address_without_a_registry_reads_why_on_the_source_page(
    browser: Browser, live_ckan: str, cast
):
    page = sign_in(browser, live_ckan, cast["admin"])
    fill_source(page, "", {"organization": "mesto"})

    assert source_exists(page)
    notice = page.locator(".flash-messages .alert", has_text="leads to no MR registry yet")
    # The address is on loopback, which a source's harvest may not read unless a sysadmin allowed it.
    expect(notice).to_contain_text("[registry.not_discovered]")
