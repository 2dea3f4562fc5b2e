"""The site check's way in and its private reports, in Czech in a real browser (Debian's Chromium, a live CKAN).

A publisher opens a link to the check with an address in it, signs in from it and comes back to the form with the
address kept; the site they type is on the portal's own network, and the form says so in a sentence, marks the
field and names who could check it. A sysadmin checks it with private addresses: the report's page says only
sysadmins can open it. The publisher who opens its link gets a page in Czech that says so, with no code.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, expect
from tests.support.site_check_jobs import clean_site_checks, home_site  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
WANTED = "https://opendata.example.cz/opendata/"


def test_a_publisher_signs_in_back_to_the_check_is_told_who_may_check_a_private_site_and_cannot_open_its_report(
        browser: Browser, live_ckan: str, home_site, clean_site_checks):
    OUTPUT.mkdir(exist_ok=True)
    factories.User(name="vydavatel", password=PASSWORD)
    publisher = browser.new_context(base_url=live_ckan, locale="cs-CZ").new_page()
    publisher.goto(f"/cs/passport/check?url={WANTED}")
    publisher.get_by_role("link", name="Pro kontrolu webu se přihlaste.").click()
    publisher.fill("#field-login", "vydavatel")
    publisher.fill("#field-password", PASSWORD)
    publisher.press("#field-password", "Enter")
    expect(publisher).to_have_url(re.compile(r"/cs/passport/check\?url="), timeout=30_000)
    field = publisher.locator("input[name=url]")
    expect(field).to_have_value(WANTED)
    publisher.screenshot(path=str(OUTPUT / "site-check-after-sign-in-cs.png"), full_page=True)

    site = home_site.url + "/opendata/"
    field.fill(site)
    publisher.get_by_role("button", name="Zkontrolovat web").click()
    expect(field).to_have_attribute("aria-invalid", "true")
    error = publisher.locator("#" + field.get_attribute("aria-describedby"))
    expect(error).to_have_text("Tato adresa je v privátní, místní nebo zvláštní síti a kontrola webu čte jen veřejné "
                               "weby. Zkontrolovat ji může správce portálu, s volbou čtení privátních adres.")
    expect(publisher.locator("#content")).not_to_contain_text("site_check.")
    publisher.screenshot(path=str(OUTPUT / "site-check-private-refused-cs.png"), full_page=True)

    admin = sign_in(browser, live_ckan, factories.Sysadmin(name="spravce", password=PASSWORD), locale="cs-CZ")
    admin.goto("/cs/passport/check")
    admin.fill("input[name=url]", site)
    admin.check("input[name=allow_private_addresses]")
    admin.get_by_role("button", name="Zkontrolovat web").click()
    admin.wait_for_url("**/cs/passport/check/*")
    expect(admin.locator(".passport-site-check-audience")).to_have_text(
        "Tato kontrola četla i adresy v privátní a místní síti, proto tento výsledek mohou podle jeho adresy otevřít "
        "jen správci portálu: odkaz vydavateli webu neposílejte.")
    admin.screenshot(path=str(OUTPUT / "site-check-private-report-cs.png"), full_page=True)

    answer = publisher.goto(admin.url)
    assert answer.status == 403
    expect(publisher.locator("h1")).to_have_text("Tento výsledek je jen pro správce portálu")
    page_text = publisher.locator("#content")
    for english in ("site_check.", "login", "403"):
        expect(page_text).not_to_contain_text(english)
    publisher.screenshot(path=str(OUTPUT / "site-check-private-report-refused-cs.png"), full_page=True)
