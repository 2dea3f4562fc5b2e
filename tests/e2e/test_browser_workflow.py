"""The editorial workflow in a real browser (Debian's Chromium) against a live CKAN server.

A curator creates a record through the dataset form and submits it, an editor returns it with a comment,
the curator fixes and resubmits it, the editor publishes it, and an anonymous visitor leaves feedback.
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from browser_walk import EDITORS_ORG, PASSWORD, save_dataset_form, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("with_plugins"),
]

@pytest.fixture
def cast() -> dict:
    curator = factories.User(name="kurator", password=PASSWORD)
    editor = factories.User(name="redaktor", password=PASSWORD)
    publisher = factories.Organization(
        name="csu", title="Český statistický úřad", users=[{"name": curator["name"], "capacity": "editor"}]
    )
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    return {"curator": curator, "editor": editor, "publisher": publisher}


def create_record(page: Page, publisher: dict) -> str:
    """Both stages of CKAN's dataset form: the record's attributes, then one data source. Returns its path."""
    page.goto("/dataset/new", wait_until="networkidle")  # the slug is filled in by the form's script
    page.fill("#field-title", "Obyvatelstvo obcí")
    page.fill("#field-notes", "Počet obyvatel obcí")
    page.select_option("#field-organizations", publisher["id"], force=True)
    page.select_option("#field-private", "False")  # CKAN's form proposes a private dataset
    page.fill("#field-publisher_id", "00025593")
    page.fill("#field-publisher_name", "Český statistický úřad")
    page.fill("#field-publisher_email", "infoservis@czso.cz")
    for condition in ("complete", "accessible", "machine_readable", "open_format", "open_terms", "free"):
        page.select_option(f"#field-openness_conditions-{condition}", "yes")
    page.select_option("#field-eurovoc-0-uri", "http://eurovoc.europa.eu/100146")
    page.click("button[name=save]")
    page.wait_for_url("**/resource/new")
    path = urlsplit(page.url).path.split("/resource/new")[0]  # the slug the form chose
    page.get_by_role("button", name="Link").click()
    page.fill("#field-resource-url", "https://data.example.cz/obyvatelstvo.csv")
    page.fill("#field-name", "Obyvatelstvo 2024")
    page.click("button[name=save][value=go-metadata]")
    page.wait_for_url(f"**{path}")
    return path


def take_transition(page: Page, target: str, comment: str = "") -> None:
    form = page.locator(f"form.passport-transition[data-target={target}]")
    if comment:
        form.locator("textarea[name=comment]").fill(comment)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def expect_state(page: Page, state: str) -> None:
    expect(page.locator(".passport-state .badge").first).to_have_attribute("data-state", state)


def test_a_record_goes_from_draft_to_published_and_gets_public_feedback(browser: Browser, live_ckan: str, cast):
    curator = sign_in(browser, live_ckan, cast["curator"])
    record = create_record(curator, cast["publisher"])
    expect_state(curator, "draft")
    take_transition(curator, "submitted", "Prosím o kontrolu")
    expect_state(curator, "submitted")

    editor = sign_in(browser, live_ckan, cast["editor"])
    editor.goto("/passport/queue")
    editor.get_by_role("link", name="Obyvatelstvo obcí").click()
    take_transition(editor, "returned", "Doplňte odkaz na licenci")
    expect_state(editor, "returned")

    curator.goto(record)
    expect(curator.locator(".passport-history")).to_contain_text("Doplňte odkaz na licenci")
    curator.goto(record.replace("/dataset/", "/dataset/edit/"))
    curator.fill("#field-license_url", "https://creativecommons.org/licenses/by/4.0/")
    save_dataset_form(curator)
    curator.wait_for_url(f"**{record}")
    expect_state(curator, "returned")
    take_transition(curator, "submitted", "Odkaz doplněn")

    editor.goto("/passport/queue")
    expect(editor.locator(".passport-queue-item")).to_have_count(1)
    editor.get_by_role("link", name="Obyvatelstvo obcí").click()
    take_transition(editor, "published")
    expect_state(editor, "published")
    editor.goto("/passport/queue")
    expect(editor.locator(".passport-queue-item")).to_have_count(0)

    visitor = browser.new_context(base_url=live_ckan, locale="en-GB").new_page()
    visitor.goto(record)
    expect_state(visitor, "published")
    expect(visitor.locator("form.passport-transition")).to_have_count(0)
    rows = visitor.locator("tr[data-field]")
    expect(rows.first).to_be_visible()
    assert all(text.strip() for text in rows.locator("td").all_inner_texts())
    expect(visitor.locator(".passport-missing")).to_have_count(0)
    visitor.select_option("#passport-feedback-kind", "error")
    visitor.fill("#passport-feedback-text", "Ve sloupci 3 chybí hlavička")
    visitor.click(".passport-feedback-form button[type=submit]")
    expect(visitor.locator(".flash-messages, .alert").first).to_contain_text("Thank you for your feedback")
    expect(visitor.locator(".passport-feedback-list")).to_have_count(0)

    curator.goto(record)
    expect(curator.locator(".passport-feedback-item")).to_contain_text("Ve sloupci 3 chybí hlavička")
    history = curator.locator(".passport-history tbody tr")
    expect(history).to_have_count(4)
    expect(history.nth(3)).to_contain_text(cast["editor"]["fullname"])
