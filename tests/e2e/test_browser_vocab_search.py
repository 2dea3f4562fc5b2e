"""A curator classifies a record by a EUROVOC concept found by typing, in Czech, in a real browser.

The edit form holds only the record's chosen concepts; the curator adds a concept, types part of its Czech label
without diacritics, picks it among what the search offers and saves: the record has the concept, and every other
field is as it was.
"""
from __future__ import annotations

import re

import ckan.model as model
import pytest
from tests.support.browser_walk import PASSWORD, choose_in_vocabulary, save_dataset_form, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

from tests.support.catalog_records import EUROVOC_DEMOGRAPHY, EUROVOC_ECONOMICS, complete_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

LAND_TRANSPORT = "http://eurovoc.europa.eu/100239"  # microthesaurus 4816 "pozemní doprava"
# What a save changes by itself (when, who saved), and the licence's title: not stored, but the licence's name in
# the language this process last rendered.
NOT_COMPARED = {"metadata_modified", "modified_by", "modified_at", "license_title"}


@pytest.fixture
def curator_and_record(live_ckan) -> tuple[dict, dict]:
    curator = factories.User(name="kurator", password=PASSWORD)
    org = factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    record = call_action(
        "package_create", {"user": curator["name"]},
        **complete_record(owner_org=org["id"], data_themes=["TRAN", "REGI"], accrual_periodicity="QUARTERLY"),
    )
    return curator, record


def test_a_curator_finds_a_eurovoc_concept_by_typing_part_of_its_czech_label_and_saves_it(
    browser: Browser, live_ckan: str, curator_and_record
):
    curator, record = curator_and_record
    before = call_action("package_show", id=record["id"])
    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.goto(f"/cs/dataset/edit/{record['name']}")
    expect(page.locator("#field-eurovoc-0-uri")).to_contain_text("2816 demografie a obyvatelstvo")

    page.locator("fieldset:has([data-field=eurovoc]) a[name=repeating-add]").click()
    choose_in_vocabulary(page, "eurovoc-2-uri", "pozemni dop", "4816 pozemní doprava")
    expect(page.locator("#field-eurovoc-2-uri")).to_contain_text("4816 pozemní doprava")
    save_dataset_form(page)
    page.wait_for_url(f"**/cs/dataset/{record['name']}")

    expect(page.locator("tr[data-field=eurovoc] td")).to_contain_text("pozemní doprava")
    model.Session.remove()  # read what the server committed, not this session's cached record
    after = call_action("package_show", id=record["id"])
    assert [item["uri"] for item in after["eurovoc"]] == [EUROVOC_DEMOGRAPHY, EUROVOC_ECONOMICS, LAND_TRANSPORT]
    unchanged = {key for key in before if key not in NOT_COMPARED | {"eurovoc"}}
    assert {key: after.get(key) for key in unchanged} == {key: before[key] for key in unchanged}


# Each searchable vocabulary field of the Czech form, by its id, and the label a screen reader must say for it.
VOCABULARY_LABELS = {
    "eurovoc-0-uri": "Koncept",
    "cz_nace": "CZ-NACE",
    "spatial_area": "Související geografické území",
    "data_themes": "Témata dat (EU)",
    "hvd_category": "Kategorie datové sady s vysokou hodnotou",
}


def test_every_searchable_vocabulary_field_is_named_by_its_label_not_by_its_concept(
    browser: Browser, live_ckan: str, curator_and_record
):
    curator, record = curator_and_record
    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.goto(f"/cs/dataset/edit/{record['name']}")

    for field, label in VOCABULARY_LABELS.items():
        page.locator(f"#field-{field}.select2-container").wait_for()
        typing = page.locator(f"#field-{field}").locator(
            "input.select2-focusser, .select2-search-field input, .select2-selection").first
        expect(typing).to_have_accessible_name(re.compile(rf"^\W*{re.escape(label)}\W*$"))  # its * and :
    # and no field has two labels (axe form-field-multiple-labels): the axe check of every walk (conftest.py)
