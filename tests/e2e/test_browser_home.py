"""The home page says what the portal is and leads to its parts; every page's footer links them too (issue 24:
nothing on the site linked to /opendata/, /lkod/ or /passport/check, and the home page was CKAN's placeholder)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

# Each part of the portal: the link's class, and the page it leads to (its address, and what the page shows).
PARTS = {
    "passport-link-datasets": ("/dataset/", "#field-giant-search"),
    "passport-link-opendata": ("/opendata/", "body"),
    "passport-link-lkod": ("/lkod/", ".lkod-catalog-url"),
    "passport-link-site-check": ("/passport/check", "form"),
}
# The LKOD link's name in each language: the home page speaks the reader's.
LKOD_LINK = {
    "en": "Local open data catalog",
    "cs": "Lokální katalog otevřených dat",
    "ru": "Локальный каталог открытых данных",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_the_home_page_says_what_the_portal_is_not_ckan_s_placeholder(browser: Browser, live_ckan: str, lang):
    page = browser.new_page(base_url=live_ckan)
    page.goto(f"/{lang}/")

    expect(page.locator(".passport-home-intro")).to_be_visible()
    expect(page.locator(".passport-home .passport-link-lkod a")).to_have_text(LKOD_LINK[lang])
    expect(page.locator("body")).not_to_contain_text("This is a nice introductory paragraph")
    expect(page.locator("img[src*='placeholder']")).to_have_count(0)


@pytest.mark.parametrize("part", PARTS)
def test_the_home_page_leads_to_each_part_of_the_portal(browser: Browser, live_ckan: str, part):
    address, shown = PARTS[part]
    page = browser.new_page(base_url=live_ckan)
    page.goto("/")

    page.locator(f".passport-home .{part} a").click()

    expect(page).to_have_url(re.compile(rf"{re.escape(live_ckan)}{re.escape(address)}$"))
    expect(page.locator(shown).first).to_be_visible()


def test_every_page_s_footer_links_the_portal_s_parts(browser: Browser, live_ckan: str):
    page = browser.new_page(base_url=live_ckan)
    page.goto("/cs/dataset/")

    footer = page.locator("footer.site-footer")
    for part, (address, _) in PARTS.items():
        expect(footer.locator(f".{part} a")).to_have_attribute("href", f"/cs{address}")
    expect(footer.locator(".passport-link-lkod a")).to_have_text("Lokální katalog otevřených dat")
