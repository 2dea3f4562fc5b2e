"""A record returned to its curator, in Czech, in a real browser (Debian's Chromium) against a live CKAN (issue 41).

An editor returns a submitted record with a comment through its page; the curator signs in, finds it on the
dashboard among the records waiting for them (and on "Moje záznamy", linked from the header), and reads who returned
it, when and why at the top of the record's page and of its edit form. Screenshots of the dashboard and the record's
page go to test-output/curator-dashboard-cs.png and test-output/returned-record-cs.png (their paths printed).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import EDITORS_ORG, PASSWORD, sign_in
from tests.support.catalog_records import complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG),
]

COMMENT = "Doplňte prosím odkaz na licenci a kontaktní e-mail."
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture
def cast(live_ckan) -> dict:
    curator = factories.User(name="kurator", fullname="Karel Kurátor", password=PASSWORD)
    editor = factories.User(name="redaktor", fullname="Eva Redaktorová", password=PASSWORD)
    publisher = factories.Organization(
        name="csu", title="Český statistický úřad", users=[{"name": curator["name"], "capacity": "editor"}]
    )
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    record = factories.Dataset(**complete_record(name="skoly", title="Školy v obcích"), owner_org=publisher["id"],
                               user=curator)
    draft = factories.Dataset(**complete_record(name="rozpocet", title="Rozpočet obce"), owner_org=publisher["id"],
                              user=curator)
    call_action("passport_workflow_transition", {"user": curator["name"]}, id=record["id"], to="submitted")
    return {"curator": curator, "editor": editor, "record": record, "draft": draft}


def test_a_curator_sees_in_czech_the_record_returned_to_them_and_why(browser: Browser, live_ckan: str, cast):
    record = cast["record"]
    editor = sign_in(browser, live_ckan, cast["editor"], locale="cs")
    editor.goto(f"/cs/dataset/{record['name']}")
    form = editor.locator("form.passport-transition[data-target=returned]")
    form.locator("textarea[name=comment]").fill(COMMENT)
    form.locator("button[type=submit]").click()
    editor.wait_for_load_state()
    expect(editor.locator(".passport-state .badge").first).to_have_attribute("data-state", "returned")

    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs")
    curator.goto("/cs/dashboard/datasets")
    waiting = curator.locator(".passport-my-records")
    expect(waiting).to_contain_text("Vráceno k úpravám (1)")
    expect(waiting.locator("[data-state=returned]")).to_contain_text(COMMENT)
    expect(waiting.locator("[data-state=returned]")).to_contain_text("Eva Redaktorová")
    expect(waiting.locator("[data-state=draft] a")).to_have_text("Rozpočet obce")
    OUTPUT.mkdir(exist_ok=True)
    curator.screenshot(path=str(OUTPUT / "curator-dashboard-cs.png"), full_page=True)
    print(f"\nThe curator's dashboard: {OUTPUT / 'curator-dashboard-cs.png'}")

    curator.locator(".passport-my-records-link").click()
    curator.wait_for_url("**/passport/my-records")
    expect(curator.locator("h1")).to_have_text("Moje záznamy")
    curator.get_by_role("link", name="Školy v obcích").click()
    curator.wait_for_url(f"**/dataset/{record['name']}")
    notice = curator.locator(".passport-return-notice")
    expect(notice).to_be_in_viewport()
    expect(notice).to_contain_text("Záznam vám byl vrácen k úpravám")
    expect(notice).to_contain_text("Eva Redaktorová")
    expect(notice.locator(".passport-return-comment")).to_have_text(COMMENT)
    curator.screenshot(path=str(OUTPUT / "returned-record-cs.png"))
    print(f"The returned record's page: {OUTPUT / 'returned-record-cs.png'}")

    notice.get_by_role("link", name="Upravit záznam").click()
    curator.wait_for_url(f"**/dataset/edit/{record['name']}")
    expect(curator.locator(".passport-return-notice .passport-return-comment")).to_have_text(COMMENT)
    expect(curator.locator(".passport-return-notice")).to_be_in_viewport()
