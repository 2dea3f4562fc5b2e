"""A sysadmin harvests an MR site from the web alone, on a portal's harvest machinery (as `make demo` runs it).

The source is made in ckanext-harvest's form, every job is started by the "Reharvest" button, and the gather
consumer, fetch consumer and periodic `ckan harvester run` (separate processes) must finish it within a minute.
"""
from __future__ import annotations

import shutil

import pytest
from tests.support.browser_walk import PASSWORD, expect_counts, reharvest, sign_in, wait_for_finished_job
from ckan.tests import factories
from tests.support.demo_site import retitle_pharmacies
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)
from playwright.sync_api import Browser, Page, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]



def create_source(page: Page, url: str, organization: dict) -> str:
    """ckanext-harvest's new-source form, filled as an admin would. Returns the source's admin page path."""
    page.goto("/harvest/new", wait_until="networkidle")  # the slug is filled in by the form's script
    page.fill("#field-url", url)
    page.fill("#field-title", "MR site of the district")
    page.check("input[name=source_type][value=passport]")
    page.fill("#field-config", '{"allow_private_addresses": true}')
    page.select_option("#field-organizations", organization["id"], force=True)
    page.click("#save")
    page.wait_for_url("**/harvest/mr-site-of-the-district")
    return "/harvest/admin/mr-site-of-the-district"


def test_a_source_made_in_the_form_is_harvested_and_reharvested_from_its_page(
    browser: Browser, live_ckan: str, harvest_machinery: HarvestProcesses, demo_site
):
    admin = factories.Sysadmin(password=PASSWORD)
    district = factories.Organization(title="Predgorny district")
    page = sign_in(browser, live_ckan, admin)

    source = create_source(page, f"{demo_site.url}/opendata/", district)
    reharvest(page, source)
    wait_for_finished_job(page, source, harvest_machinery)
    expect_counts(page, added=6, updated=0, error=0)

    page.goto(source.replace("/admin/", "/"))
    expect(page.locator(".nums dd").first).to_have_text("6")
    expect(page.locator(".dataset-item")).to_have_count(6)

    retitle_pharmacies(demo_site.root, "Аптеки района (новое)")
    reharvest(page, source)
    wait_for_finished_job(page, source, harvest_machinery)
    expect_counts(page, updated=1, not_modified=5, added=0, error=0)
    page.goto("/dataset/7709876545-pharmacies")
    expect(page.locator("h1").first).to_contain_text("Аптеки района (новое)")

    # A passport the site stops serving: the job reports it, and a Czech admin reads why in Czech.
    shutil.rmtree(demo_site.root / "opendata" / "5027123457-bustops")
    reharvest(page, source)
    wait_for_finished_job(page, source, harvest_machinery)
    expect_counts(page, error=1, updated=0, added=0, deleted=0)
    page.goto("/cs/harvest/mr-site-of-the-district/job/last")
    report = page.locator("body")
    expect(report).to_contain_text("5027123457-bustops")
    expect(report).to_contain_text("Soubor nebyl nalezen (HTTP 404)")
    page.goto("/dataset/5027123457-bustops")
    expect(page.locator("h1").first).to_be_visible()
