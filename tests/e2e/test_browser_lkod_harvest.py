"""A sysadmin harvests a Czech local catalog (LKOD) from the web alone, in Czech, on the portal's harvest machinery.

The catalog harvested is this portal's own /lkod/catalog (the demo's Czech records, published): the source is made
in ckanext-harvest's form with the type "lkod", its job started by the Reharvest button, and the separate gather and
fetch consumers land every record in the reading organization, listed on the source's page.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, expect_counts, reharvest, sign_in, wait_for_finished_job
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

DEMO_RECORDS = Path(__file__).resolve().parents[2] / "dev" / "demo-records.jsonl"


def publish_demo_records() -> int:
    sysadmin = {"user": factories.Sysadmin()["name"]}
    org = factories.Organization(name="demo-lkod")
    lines = [line for line in DEMO_RECORDS.read_text(encoding="utf-8").splitlines() if line.strip()]
    for line in lines:
        record = call_action("package_create", sysadmin, **dict(json.loads(line), owner_org=org["id"]))
        for state in ("submitted", "published"):
            call_action("passport_workflow_transition", sysadmin, id=record["id"], to=state)
    return len(lines)


def test_a_sysadmin_harvests_an_lkod_from_the_czech_source_form(
    browser: Browser, live_ckan: str, harvest_machinery: HarvestProcesses
):
    published = publish_demo_records()
    admin = factories.Sysadmin(password=PASSWORD)
    reader = factories.Organization(title="Čtenář")
    page = sign_in(browser, live_ckan, admin, locale="cs")

    page.goto("/cs/harvest/new", wait_until="networkidle")
    page.fill("#field-url", f"{live_ckan}/lkod/catalog")
    page.fill("#field-title", "Nas LKOD")
    page.check("input[name=source_type][value=lkod]")
    page.fill("#field-config", '{"allow_private_addresses": true}')
    page.select_option("#field-organizations", reader["id"], force=True)
    page.click("#save")
    page.wait_for_url("**/harvest/nas-lkod")
    admin_page = "/cs/harvest/admin/nas-lkod"

    reharvest(page, admin_page, "cs")
    wait_for_finished_job(page, admin_page, harvest_machinery)
    expect_counts(page, added=published, updated=0, error=0)

    page.goto("/cs/harvest/nas-lkod")
    expect(page.locator(".dataset-item")).to_have_count(published)
    titles = [json.loads(line)["title"] for line in DEMO_RECORDS.read_text(encoding="utf-8").splitlines() if line]
    for title in titles:
        expect(page.locator(".dataset-item", has_text=title)).to_have_count(1)
