"""The demo's workflow as its people meet it (issue 24: the demo had no editors organization and nothing awaiting
review): after dev/demo_workflow.py, the editor signs in with the printed login, finds the harvested record waiting
in the review queue and publishes it; the curator, signed in with theirs, may edit the demo's harvested records."""
from __future__ import annotations

import pytest
from tests.support.browser_walk import EDITORS_ORG
from ckan.tests import factories
from tests.support.demo_setup import demo_source_config, demo_workflow
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("ckanext.passport.initial_states", "submitted published"),
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG),
]


@pytest.fixture
def waiting(live_ckan: str, demo_site, harvest_source, run_harvest) -> str:
    """The demo set up on the live portal's database: its MR site harvested as dev/demo.sh harvests it, then
    dev/demo_workflow.py's people and reviews; the name of the record left waiting."""
    site_org = factories.Organization(name=demo_workflow.CURATED[0])
    for name in demo_workflow.CZECH_PUBLISHERS:
        factories.Organization(name=name)
    run_harvest(harvest_source(f"{demo_site.url}/opendata/", demo_source_config(), owner_org=site_org["id"]))
    name = demo_workflow.set_up(EDITORS_ORG)
    assert name
    return name


def signed_in(browser: Browser, live_ckan: str, person: demo_workflow.Person) -> Page:
    page = browser.new_context(base_url=live_ckan, locale="en-GB").new_page()
    page.goto("/user/login")
    page.fill("#field-login", person.name)
    page.fill("#field-password", person.password)
    page.press("#field-password", "Enter")
    page.wait_for_url("**/dashboard/datasets")
    return page


def test_the_demo_editor_finds_the_harvested_record_in_the_queue_and_publishes_it(
    browser: Browser, live_ckan: str, waiting: str
):
    editor = signed_in(browser, live_ckan, demo_workflow.EDITOR)
    editor.locator(".passport-review-queue-link").click()

    items = editor.locator(".passport-queue-item")
    expect(items).to_have_count(1)
    items.first.locator(f"a[href$='/dataset/{waiting}']").click()
    editor.locator("form.passport-transition[data-target=published] button[type=submit]").click()
    expect(editor.locator(".passport-state .badge").first).to_have_attribute("data-state", "published")
    editor.goto("/passport/queue")
    expect(editor.locator(".passport-queue-item")).to_have_count(0)


def test_the_demo_curator_may_edit_the_harvested_record(browser: Browser, live_ckan: str, waiting: str):
    curator = signed_in(browser, live_ckan, demo_workflow.CURATOR)
    curator.goto(f"/dataset/{waiting}")

    expect(curator.locator(f"a[href$='/dataset/edit/{waiting}']").first).to_be_visible()
