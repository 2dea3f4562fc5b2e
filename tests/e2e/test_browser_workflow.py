"""The editorial workflow in a real browser (Debian's Chromium) against a live CKAN server.

A curator creates a record through the dataset form and submits it, an editor returns it with a comment,
the curator fixes and resubmits it, the editor publishes it, and an anonymous visitor leaves feedback. On a record
reviewed that way, a visitor reads in Czech its state and since when, but not who reviewed it nor what they wrote
(neither on the page nor in its activity stream); its curator reads both on the same page.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import re

import pytest
from tests.support.browser_walk import EDITORS_ORG, PASSWORD, choose_in_vocabulary, save_dataset_form, sign_in
from tests.support.catalog_records import complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    # The transitions a walk takes in-process, before the browser reads the record, by the live server's editors.
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG),
]

RETURN_COMMENT = "Doplňte odkaz na licenci"
CONFIRMATION_SCREENSHOT = Path(__file__).resolve().parents[2] / "test-output" / "feedback-confirmed.png"

@pytest.fixture
def cast() -> dict:
    curator = factories.User(name="kurator", fullname="Karel Kurátor", password=PASSWORD)
    editor = factories.User(name="redaktor", fullname="Eva Redaktorová", password=PASSWORD)
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
    choose_in_vocabulary(page, "eurovoc-0-uri", "16", re.compile(r"^16 "))  # ECONOMICS, by its code
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


def expect_confirmed_in_sight(page: Page, block: str, text: str) -> None:
    """The page landed on ``block`` with the action's confirmation in it, in the viewport, focused and said."""
    confirmation = page.locator(f"#passport-{block} .passport-confirmation")
    expect(confirmation).to_contain_text(text)
    expect(confirmation).to_have_attribute("role", "status")
    expect(confirmation).to_be_in_viewport()
    expect(confirmation).to_be_focused()
    expect(page.locator(".flash-messages .alert")).to_have_count(0)


def expect_state(page: Page, state: str) -> None:
    expect(page.locator(".passport-state .badge").first).to_have_attribute("data-state", state)


def test_a_record_goes_from_draft_to_published_and_gets_public_feedback(browser: Browser, live_ckan: str, cast):
    curator = sign_in(browser, live_ckan, cast["curator"])
    record = create_record(curator, cast["publisher"])
    expect_state(curator, "draft")
    take_transition(curator, "submitted", "Prosím o kontrolu")
    expect_state(curator, "submitted")
    expect_confirmed_in_sight(curator, "workflow", "The record is now: Submitted for review")

    editor = sign_in(browser, live_ckan, cast["editor"])
    editor.goto("/passport/queue")
    editor.get_by_role("link", name="Obyvatelstvo obcí").click()
    take_transition(editor, "returned", RETURN_COMMENT)
    expect_state(editor, "returned")

    curator.goto(record)
    expect(curator.locator(".passport-history")).to_contain_text(RETURN_COMMENT)
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
    expect_confirmed_in_sight(visitor, "feedback", "Thank you for your feedback")
    CONFIRMATION_SCREENSHOT.parent.mkdir(exist_ok=True)
    visitor.screenshot(path=str(CONFIRMATION_SCREENSHOT))
    print(f"\nThe feedback sent: {CONFIRMATION_SCREENSHOT}")
    expect(visitor.locator(".passport-feedback-list")).to_have_count(0)

    curator.goto(record)
    expect(curator.locator(".passport-feedback-item")).to_contain_text("Ve sloupci 3 chybí hlavička")
    history = curator.locator(".passport-history tbody tr")
    expect(history).to_have_count(4)
    expect(history.nth(3)).to_contain_text(cast["editor"]["fullname"])


@pytest.fixture
def reviewed(cast) -> dict:
    """A record its curator submitted, the editor returned with a comment, the curator resubmitted and the editor
    published: each step through the workflow action, as the transition forms post it."""
    record = factories.Dataset(**complete_record(owner_org=cast["publisher"]["id"]), user=cast["curator"])
    for who, target, comment in [("curator", "submitted", "Prosím o kontrolu"),
                                 ("editor", "returned", RETURN_COMMENT),
                                 ("curator", "submitted", "Odkaz doplněn"),
                                 ("editor", "published", "")]:
        call_action("passport_workflow_transition", {"user": cast[who]["name"], "ignore_auth": False},
                    id=record["id"], to=target, comment=comment)
    return record


def test_a_visitor_reads_in_czech_a_published_record_s_state_and_since_when_but_not_its_reviewers(
        browser: Browser, live_ckan: str, cast, reviewed):
    visitor = browser.new_context(base_url=live_ckan, locale="cs-CZ").new_page()
    visitor.goto(f"/cs/dataset/{reviewed['name']}")
    expect(visitor.locator(".passport-state .badge")).to_have_text("Zveřejněno")
    workflow = visitor.locator("#passport-workflow")
    expect(workflow.locator("h3")).to_have_text("Redakční zpracování")
    expect(workflow).to_contain_text("Stav: Zveřejněno")
    expect(workflow.locator(".passport-state-since")).to_have_text(re.compile(r"^\(od .+\d{1,2}:\d{2}.*\)$"))
    expect(visitor.locator(".passport-history")).to_have_count(0)
    expect(visitor.locator("form.passport-transition")).to_have_count(0)
    text = visitor.locator("body").inner_text()
    for private in (cast["editor"]["fullname"], cast["editor"]["name"], RETURN_COMMENT, "Prosím o kontrolu",
                    "Odkaz doplněn"):
        assert private not in text


def test_a_visitor_reads_in_the_activity_stream_no_one_who_worked_on_a_published_record(
        browser: Browser, live_ckan: str, cast, reviewed):
    # The curator's edit after publication is an activity every visitor reads, named for "a portal user": no
    # portal login is published (catalog/people/); the transitions before it name nobody either.
    call_action("package_patch", {"user": cast["curator"]["name"]}, id=reviewed["id"],
                notes="Počet obyvatel obcí k 1. lednu 2025")
    visitor = browser.new_context(base_url=live_ckan, locale="cs-CZ").new_page()
    visitor.goto(f"/cs/dataset/activity/{reviewed['name']}")
    stream = visitor.locator("ul.activity")
    expect(stream).to_contain_text("uživatel portálu")
    text = visitor.locator("body").inner_text()
    for person in (cast["curator"], cast["editor"]):
        assert person["fullname"] not in text and person["name"] not in text


def test_the_curator_reads_the_reviewers_and_their_comments_on_the_same_page(
        browser: Browser, live_ckan: str, cast, reviewed):
    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs-CZ")
    curator.goto(f"/cs/dataset/{reviewed['name']}")
    expect(curator.locator(".passport-state .badge")).to_have_text("Zveřejněno")
    history = curator.locator(".passport-history")
    expect(history.locator("caption")).to_have_text("Historie")
    expect(history.locator("thead th")).to_have_text(["Kdy", "Kdo", "Ze stavu", "Do stavu", "Komentář"])
    rows = history.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(history).to_contain_text(RETURN_COMMENT)
    who = rows.locator("td:nth-child(2)")
    expect(who).to_have_text([cast["curator"]["fullname"], cast["editor"]["fullname"],
                              cast["curator"]["fullname"], cast["editor"]["fullname"]])
