"""A Czech curator picks a licence by typing its short name, and reads a chosen concept whole, in a real browser.

Typing "CC BY" in the licence picker finds CC BY 4.0 and CC BY-SA 4.0 by their Czech titles with versions; the record
keeps the licence's id, and its page names it in Czech. The "×" that clears a searchable vocabulary field's concept
sits beside the concept's text, not over its first character.
"""
from __future__ import annotations

from pathlib import Path

import ckan.model as model
import pytest
from tests.support.browser_walk import PASSWORD, save_dataset_form, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, Page, expect

from tests.support.catalog_records import complete_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

SCREENSHOT = Path(__file__).resolve().parents[2] / "test-output" / "licence-picker-cs.png"
CC_BY = "Creative Commons Uveďte původ 4.0 (CC BY 4.0)"
CC_BY_SA = "Creative Commons Uveďte původ-Zachovejte licenci 4.0 (CC BY-SA 4.0)"


@pytest.fixture
def curator_and_record(live_ckan) -> tuple[dict, dict]:
    curator = factories.User(name="kurator-licence", password=PASSWORD)
    org = factories.Organization(name="csu-licence", users=[{"name": curator["name"], "capacity": "editor"}])
    record = call_action("package_create", {"user": curator["name"]},
                         **complete_record(name="licence-record", owner_org=org["id"]))
    return curator, record


def _licences_offered_for(page: Page, typed: str):
    """Opens the licence picker (select2 3.5 on CKAN 2.11, 4 on 2.12), types, and returns what it offers."""
    four = page.locator("#field-license_id + .select2-container .select2-selection")
    if four.count():
        four.click()
        page.keyboard.type(typed)
        return page.locator(".select2-container--open .select2-results__option")
    page.locator("#s2id_field-license_id").click()
    page.keyboard.type(typed)
    return page.locator(".select2-drop-active .select2-result-label")


def _boxes_overlap(page: Page, cross: str, text: str) -> bool:
    """Whether the box of ``cross`` overlaps the box of the first character of ``text``'s text."""
    return page.evaluate(
        """([cross, text]) => {
            const crossElement = document.querySelector(cross);
            const c = crossElement.getBoundingClientRect();
            // The concept's first character: select2 4 puts the cross inside the text's element, before the text.
            const walker = document.createTreeWalker(document.querySelector(text), NodeFilter.SHOW_TEXT);
            let node = walker.nextNode();
            while (node && (crossElement.contains(node) || !node.textContent.trim())) node = walker.nextNode();
            const first = node.textContent.search(/\S/);
            const range = document.createRange();
            range.setStart(node, first);
            range.setEnd(node, first + 1);
            const t = range.getBoundingClientRect();
            return c.left < t.right && t.left < c.right && c.top < t.bottom && t.top < c.bottom;
        }""",
        [cross, text],
    )


def test_a_czech_curator_finds_cc_by_by_typing_it_and_the_record_names_it_in_czech(
    browser: Browser, live_ckan: str, curator_and_record
):
    curator, record = curator_and_record
    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/cs/dataset/edit/{record['name']}")

    offered = _licences_offered_for(page, "CC BY")
    expect(offered).to_have_text([CC_BY, CC_BY_SA])
    page.screenshot(path=str(SCREENSHOT))
    offered.filter(has_text="CC BY-SA 4.0").click()
    save_dataset_form(page)
    page.wait_for_url(f"**/cs/dataset/{record['name']}")

    expect(page.locator("body")).to_contain_text(CC_BY_SA)
    model.Session.remove()
    assert call_action("package_show", id=record["id"])["license_id"] == "cc-by-sa"


def test_the_cross_clearing_a_chosen_concept_leaves_its_first_character_readable(
    browser: Browser, live_ckan: str, curator_and_record
):
    curator, record = curator_and_record
    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.goto(f"/cs/dataset/edit/{record['name']}")
    field = "#field-eurovoc-0-uri"
    page.locator(f"{field}.select2-container").wait_for()
    # select2 3.5 (CKAN 2.11) and 4 (CKAN 2.12) name the chosen concept and its cross differently.
    chosen = f"{field} .select2-chosen, {field} .select2-selection__rendered"
    cross = f"{field} .select2-search-choice-close, {field} .select2-selection__clear"
    expect(page.locator(chosen)).to_contain_text("2816 demografie a obyvatelstvo")

    expect(page.locator(cross)).to_be_visible()
    assert not _boxes_overlap(page, cross, chosen)
