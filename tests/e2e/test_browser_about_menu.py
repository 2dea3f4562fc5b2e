"""A Czech and a Russian visitor read CKAN's own "About" in the main menu of every page, and a harvest source's
About tab under its own word (issue 41): the word translated for the tab once renamed the menu item on every page
("O zdroji" / "Об источнике" instead of "O nás" / "О проекте"), since our catalog is merged over CKAN's."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.browser_walk import axe_violations
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

WORDS = {"cs": ("cs-CZ", "O nás", "O zdroji"), "ru": ("ru-RU", "О проекте", "Об источнике")}


@pytest.fixture
def source() -> dict:
    sysadmin = factories.Sysadmin()
    return call_action("harvest_source_create", context={"user": sysadmin["name"]}, name="about-source",
                       title="About source", url="http://example.org/opendata/list.csv", source_type="passport",
                       owner_org=factories.Organization()["id"], config=json.dumps({}))


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_main_menu_says_ckans_about_and_the_source_tab_its_own(browser: Browser, live_ckan: str, source, lang):
    locale, menu_word, tab_word = WORDS[lang]
    page = browser.new_page(base_url=live_ckan, locale=locale, viewport={"width": 1280, "height": 900})
    for path in (f"/{lang}/", f"/{lang}/dataset/", f"/{lang}/harvest/{source['name']}"):
        page.goto(path)
        menu = page.locator("header nav").first
        expect(menu.get_by_role("link", name=menu_word, exact=True)).to_be_visible()
        expect(menu.get_by_role("link", name=tab_word)).to_have_count(0)
    tabs = page.locator(".nav-tabs")
    expect(tabs.get_by_role("link", name=tab_word)).to_be_visible()
    page.screenshot(path=f"test-output/about-menu-{lang}.png")
    assert axe_violations(page) == []
    page.close()
