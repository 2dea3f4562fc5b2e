"""A curator and an editor read the record page, the form and the review queue in Czech, in a real browser (Debian's
Chromium) against a live CKAN: the harvested record's validity reads as the form fills it in, with no raw CKAN state
under it; the form's openness legend is no larger than the section heading above it; the editor's header names how
many records wait, the queue shows each one's completeness and score, and the record's publish and return buttons
look apart.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import EDITORS_ORG, PASSWORD, sign_in
from tests.support.catalog_records import complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.factories import HarvestedRecord
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


def font_size(locator) -> float:
    return locator.evaluate("element => parseFloat(getComputedStyle(element).fontSize)")


def test_a_curator_and_an_editor_read_the_record_form_and_queue_in_czech(browser: Browser, live_ckan: str):
    OUTPUT.mkdir(exist_ok=True)
    curator = factories.User(name="kurator", password=PASSWORD)
    editor = factories.User(name="redaktor", password=PASSWORD)
    publisher = factories.Organization(name="rosstat", users=[{"name": curator["name"], "capacity": "editor"}])
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    harvested = HarvestedRecord(owner_org=publisher["id"])
    waiting = call_action("package_create", {"user": curator["name"]}, owner_org=publisher["id"],
                          **complete_record(name="obyvatelstvo-obci"))
    call_action("passport_workflow_transition", {"user": curator["name"], "ignore_auth": False},
                id=waiting["id"], to="submitted", comment="hotovo")

    reader = sign_in(browser, live_ckan, curator, locale="cs-CZ")
    reader.goto(f"/cs/dataset/{harvested['name']}")
    info = reader.locator("section.additional-info:not(.passport-publication)")
    expect(info.locator("tr[data-field=record_validity] td")).to_have_text("Platný")
    expect(info).not_to_contain_text("active")
    info.screenshot(path=str(OUTPUT / "record-additional-info-cs.png"))

    reader.goto(f"/cs/dataset/edit/{harvested['name']}")
    legend = reader.locator("#field-openness_conditions legend")
    heading = reader.locator("h2.passport-form-group").first
    assert font_size(legend) <= font_size(heading)
    reader.locator("#field-openness_conditions").screenshot(path=str(OUTPUT / "record-form-openness-legend-cs.png"))

    desk = sign_in(browser, live_ckan, editor, locale="cs-CZ")
    desk.goto("/cs/dataset/")
    link = desk.locator("a.passport-review-queue-link")
    expect(link).to_have_attribute("aria-label", "Fronta ke kontrole: čeká 1 záznam")
    expect(link.locator(".passport-queue-count")).to_have_text("1")
    link.click()
    row = desk.locator("tr.passport-queue-item")
    expect(row.locator(".passport-queue-missing")).to_have_text("Úplný")
    expect(row.locator(".passport-queue-score")).to_have_text("–")
    desk.screenshot(path=str(OUTPUT / "review-queue-cs.png"), full_page=True)

    row.get_by_role("link", name="Obyvatelstvo obcí").click()
    publish = desk.get_by_role("button", name="Zveřejnit")
    send_back = desk.get_by_role("button", name="Vrátit k úpravám")
    expect(publish).to_have_class("btn btn-primary")
    expect(send_back).to_have_class("btn btn-warning")
    assert publish.evaluate("b => getComputedStyle(b).backgroundColor") != send_back.evaluate(
        "b => getComputedStyle(b).backgroundColor")
    desk.locator("#passport-workflow").screenshot(path=str(OUTPUT / "workflow-buttons-cs.png"))
