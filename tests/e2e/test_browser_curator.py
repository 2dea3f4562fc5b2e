"""A curator completes and edits a harvested record in a real browser (Debian's Chromium) against a live CKAN.

The record is stored as a harvest stores it (tests/support/harvested_records.py: Rosstat's OKVED2 passport): it carries
its MR identity and lacks the curator's part. In Czech, the curator submits it incomplete and is told, where the
page lands, which fields to fill in, each linked to its place in the form; the opened form says it again at the
top. The curator saves it incomplete and sees each missing part beside its field, completes it and submits it;
the editor finds it in the queue. Editing the record and its
structure resource in the forms keeps the MR passport whole: the export still lists the data and structure.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.support.browser_walk import EDITORS_ORG, PASSWORD, choose_in_vocabulary, save_dataset_form, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.harvested_records import IDENTIFIER, LATEST_DATA_VERSION, STRUCTURE_VERSION, resource_of
from tests.support.factories import HarvestedRecord
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

CONDITIONS = ("complete", "accessible", "machine_readable", "open_format", "open_terms", "free")


@pytest.fixture
def cast(live_ckan) -> dict:
    curator = factories.User(name="kurator", password=PASSWORD)
    editor = factories.User(name="redaktor", password=PASSWORD)
    publisher = factories.Organization(name="rosstat", users=[{"name": curator["name"], "capacity": "editor"}])
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    return {"curator": curator, "editor": editor, "record": HarvestedRecord(owner_org=publisher["id"])}


def field_error(page: Page, field: str):
    """The error shown beside a field: in its form group, or in the composite's own fieldset."""
    return page.locator(f".form-group:has(#field-{field}) .error-block, fieldset#field-{field} .error-block")


def complete_in_form(page: Page, record: dict, locale_prefix: str = "") -> None:
    """Fill the curator's part of the record in its edit form and save it."""
    page.goto(f"{locale_prefix}/dataset/edit/{record['name']}")
    page.select_option("#field-publisher_id_scheme", "ico")
    page.fill("#field-publisher_id", "00025593")
    page.fill("#field-publisher_email", "infoservis@czso.cz")
    for condition in CONDITIONS:
        page.select_option(f"#field-openness_conditions-{condition}", "yes")
    choose_in_vocabulary(page, "eurovoc-0-uri", "16", re.compile(r"^16 "))  # ECONOMICS, by its code
    save_dataset_form(page)
    page.wait_for_url(f"**{locale_prefix}/dataset/{record['name']}")


def test_a_curator_completes_a_harvested_record_in_czech_and_submits_it(browser: Browser, live_ckan: str, cast):
    record = cast["record"]
    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs")
    curator.goto(f"/cs/dataset/edit/{record['name']}")
    with curator.expect_navigation() as saved:
        save_dataset_form(curator)

    assert saved.value.status == 200  # the form again, with its errors: no server error
    summary = curator.locator(".error-explanation")
    expect(summary).to_contain_text("Formulář obsahuje chybné položky")
    expect(summary).to_contain_text("Kontaktní e-mail poskytovatele: Chybí hodnota")
    expect(summary).to_contain_text("U každé podmínky otevřenosti uveďte, zda ji data splňují")
    expect(summary).to_contain_text("Koncept EUROVOC 1")
    expect(field_error(curator, "publisher_email")).to_contain_text("Chybí hodnota")
    expect(field_error(curator, "openness_conditions")).to_contain_text("U každé podmínky otevřenosti")
    expect(field_error(curator, "eurovoc-0-uri")).to_contain_text("Chybí hodnota")

    complete_in_form(curator, record, "/cs")
    expect(curator.locator(".passport-state .badge").first).to_have_attribute("data-state", "draft")
    form = curator.locator("form.passport-transition[data-target=submitted]")
    form.locator("button[type=submit]").click()
    curator.wait_for_load_state()
    expect(curator.locator(".passport-state .badge").first).to_have_attribute("data-state", "submitted")

    editor = sign_in(browser, live_ckan, cast["editor"], locale="cs")
    editor.goto("/cs/passport/queue")
    expect(editor.locator(".passport-queue-item")).to_have_count(1)
    expect(editor.get_by_role("link", name=record["title"])).to_be_visible()


# What a curator must never read: a raw dict of errors, a bare "missing value", the API's wording of the checklist.
LEAKS = ("{'", "['", "Chybí hodnota", "machine_readable", "complete, accessible")


def test_a_curator_submitting_an_incomplete_record_is_told_what_to_fill_in_where_the_page_lands(
    browser: Browser, live_ckan: str, cast
):
    record = cast["record"]
    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs")
    curator.goto(f"/cs/dataset/{record['name']}")
    curator.locator("form.passport-transition[data-target=submitted] button[type=submit]").click()
    curator.wait_for_url(f"**/cs/dataset/{record['name']}#passport-refusal")

    refusal = curator.locator("#passport-workflow .passport-refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_be_in_viewport()  # where the page lands, not at its top out of sight
    expect(refusal).to_be_focused()  # and said by a screen reader (role alert)
    expect(refusal).to_contain_text("Záznam zatím nelze odeslat ke kontrole")
    expect(curator.locator(".flash-messages .alert")).to_have_count(0)
    expect(refusal.locator("li[data-field=publisher_email] a")).to_have_text("Kontaktní e-mail poskytovatele")
    expect(refusal.locator("li[data-field=openness_conditions]")).to_contain_text(
        "U každé podmínky otevřenosti uveďte, zda ji data splňují"
    )
    expect(refusal.locator("li[data-field=eurovoc]")).to_contain_text("Zvolte alespoň jeden koncept EUROVOC")
    page_text = curator.locator("body").inner_text()
    for leak in LEAKS:
        assert leak not in page_text, leak
    expect(curator.locator(".passport-state .badge").first).to_have_attribute("data-state", "draft")

    # Each field's link opens the form at that field; the form names what is missing at its top.
    refusal.locator("li[data-field=publisher_email] a").click()
    curator.wait_for_url(f"**/cs/dataset/edit/{record['name']}#field-publisher_email")
    expect(curator.locator("#field-publisher_email")).to_be_in_viewport()
    summary = curator.locator(".passport-missing")
    expect(summary).to_contain_text("V záznamu chybí povinné údaje")
    expect(summary.locator("li[data-field=eurovoc] a")).to_have_text("Koncepty EUROVOC")
    summary.locator("li[data-field=eurovoc] a").click()
    expect(curator.locator("#field-eurovoc-0-uri")).to_be_in_viewport()
    page_text = curator.locator("body").inner_text()
    for leak in LEAKS:
        assert leak not in page_text, leak


def test_a_curator_finds_what_a_harvested_record_lacks_on_its_czech_page_and_completes_it(
    browser: Browser, live_ckan: str, cast
):
    record = cast["record"]
    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs")
    curator.goto(f"/cs/dataset/{record['name']}")
    notice = curator.locator(".passport-missing")
    expect(notice).to_contain_text("V záznamu chybí povinné údaje")
    expect(notice.locator("li[data-field=publisher_email]")).to_have_text("Kontaktní e-mail poskytovatele")
    expect(curator.locator("tr.passport-missing-field[data-field=publisher_email]")).to_have_count(1)
    notice.get_by_role("link", name="Doplnit záznam").click()
    curator.wait_for_url(f"**/cs/dataset/edit/{record['name']}")

    complete_in_form(curator, record, "/cs")
    expect(curator.locator(".passport-missing")).to_have_count(0)
    expect(curator.locator("tr[data-field=publisher_email] td")).to_have_text("infoservis@czso.cz")


def test_editing_a_harvested_record_and_its_structure_in_the_forms_keeps_its_mr_passport(
    browser: Browser, live_ckan: str, cast
):
    record = cast["record"]
    structure = resource_of(record, "structure", STRUCTURE_VERSION)
    curator = sign_in(browser, live_ckan, cast["curator"])
    complete_in_form(curator, record)
    curator.goto(f"/dataset/{record['name']}/resource/{structure['id']}/edit")
    curator.fill("#field-description", "Struktura klasifikace: kód, název, poznámka")
    curator.click("button[name=save]")
    curator.wait_for_url(f"**/dataset/{record['name']}/resource/{structure['id']}")

    # The exports are the public's: the record is published first (the workflow's own walk tests the buttons).
    call_action("passport_workflow_transition", {"user": cast["curator"]["name"]}, id=record["id"], to="submitted")
    call_action("passport_workflow_transition", {"user": cast["editor"]["name"]}, id=record["id"], to="published")
    visitor = browser.new_context(base_url=live_ckan).new_page()
    response = visitor.request.get(f"/opendata/{IDENTIFIER}/meta.json")
    assert response.ok
    document = response.json()
    data_links = [item["source"].rsplit("/", 1)[1] for item in document["data"]]
    structure_links = [item["source"].rsplit("/", 1)[1] for item in document["structure"]]
    assert document["identifier"] == IDENTIFIER
    assert f"data-{LATEST_DATA_VERSION}-structure-{STRUCTURE_VERSION}.csv" in data_links
    assert structure_links == [f"structure-{STRUCTURE_VERSION}.csv"]
    assert len(data_links) == len([r for r in record["resources"] if r["resource_type"] == "data"])


ANSWERS = {"complete": "yes", "accessible": "no", "machine_readable": "yes", "open_format": "yes", "open_terms": "no",
           "free": "yes"}
KEPT_ANSWERS_SCREENSHOT = Path(__file__).resolve().parents[2] / "test-output" / "curator-answers-kept-cs.png"


def test_a_curator_s_openness_answers_survive_a_wrong_ico_in_czech(browser: Browser, live_ckan: str, cast):
    record = cast["record"]
    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs")
    curator.goto(f"/cs/dataset/edit/{record['name']}")
    for condition, answer in ANSWERS.items():
        curator.select_option(f"#field-openness_conditions-{condition}", answer)
    curator.select_option("#field-publisher_id_scheme", "ico")
    curator.fill("#field-publisher_id", "00025594")  # wrong check digit
    save_dataset_form(curator)

    expect(field_error(curator, "publisher_id")).to_be_visible()
    for condition, answer in ANSWERS.items():
        expect(curator.locator(f"#field-openness_conditions-{condition}")).to_have_value(answer)
    curator.locator("#field-openness_conditions").scroll_into_view_if_needed()
    KEPT_ANSWERS_SCREENSHOT.parent.mkdir(exist_ok=True)
    curator.screenshot(path=str(KEPT_ANSWERS_SCREENSHOT))
    print(f"\nThe form after a wrong IČO: {KEPT_ANSWERS_SCREENSHOT}")
