"""A curator gives a record what the national catalog (LKOD) needs, in Czech, in a real browser.

The record is a complete Czech record without its LKOD part: in its edit form the curator picks two EU data themes
and the update frequency among their Czech labels, leaves the conditions of use to the licence (CC BY 4.0, which the
blank choice names) and saves; the record's page shows the themes and the frequency by their Czech labels, and the
conditions the licence decides marked as derived from it.
"""
from __future__ import annotations

import ckan.model as model
import pytest
from tests.support.browser_walk import PASSWORD, choose_in_vocabulary, save_dataset_form, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

from tests.support.catalog_records import complete_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]


@pytest.fixture
def curator_and_record(live_ckan) -> tuple[dict, dict]:
    curator = factories.User(name="kurator", password=PASSWORD)
    org = factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    record = call_action("package_create", {"user": curator["name"]}, **complete_record(owner_org=org["id"]))
    return curator, record


def test_a_curator_sets_data_themes_and_frequency_in_czech_and_sees_them_on_the_page(
    browser: Browser, live_ckan: str, curator_and_record
):
    curator, record = curator_and_record
    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.goto(f"/cs/dataset/edit/{record['name']}")
    expect(page.locator("#group-data_themes")).to_have_text("Národní katalog (LKOD)")
    choose_in_vocabulary(page, "data_themes", "doprav", "Doprava")
    choose_in_vocabulary(page, "data_themes", "regiony", "Regiony a města")
    page.select_option("#field-accrual_periodicity", label="čtvrtletně")
    expect(page.locator("#field-use_author_work option:checked")).to_have_text(
        "Podle licence: Licencováno pod CC BY 4.0"
    )
    save_dataset_form(page)
    page.wait_for_url(f"**/cs/dataset/{record['name']}")

    # in the order of the EU table, whatever order they were picked in
    expect(page.locator("tr[data-field=data_themes] td li")).to_have_text(["Regiony a města", "Doprava"])
    expect(page.locator("tr[data-field=accrual_periodicity] td")).to_have_text("čtvrtletně")
    expect(page.locator("tr[data-field=use_author_work] td")).to_have_text(
        "Licencováno pod CC BY 4.0 (odvozeno z licence)"
    )
    model.Session.remove()  # read what the server committed, not this session's cached record (CKAN 2.12's extras)
    stored = call_action("package_show", id=record["id"])
    assert (stored["data_themes"], stored["accrual_periodicity"]) == (["REGI", "TRAN"], "QUARTERLY")
    assert "use_author_work" not in stored  # left to the licence, not copied into the record
