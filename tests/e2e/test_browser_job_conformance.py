"""A portal admin reads a harvest job's page and meets the job's conformance: what the source's Conformance tab
lists for that job (the summary, the findings by severity and by code), and a link to the tab for that job. A job
whose passports were imported with errors in them no longer says "No errors for this job".

The demo site is harvested first (the harvest's own stages, in-process): every passport lands, so ckanext-harvest
stores no error row, while some passports hold errors the conformance check found.
"""
from __future__ import annotations

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

SOURCE = "mr-district-jobs"


def _codes(page: Page) -> dict[str, str]:
    rows = page.locator(".passport-conformance-codes tbody tr")
    return {row.get_attribute("data-code"): row.locator(".passport-code-count").inner_text() for row in rows.all()}


def _summary(page: Page) -> dict[str, str]:
    return {item.get_attribute("data-summary"): item.inner_text()
            for item in page.locator(".passport-conformance-summary dd").all()}


def test_a_job_page_shows_the_jobs_conformance_and_links_its_report(
    browser: Browser, live_ckan: str, demo_site, harvest_source, run_harvest
):
    admin = factories.Sysadmin(password=PASSWORD)
    _, job = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", {"allow_private_addresses": True},
                                        name=SOURCE, title="MR site of the district"))
    assert job["stats"].get("errored", 0) == 0, "every passport imported: no error row for ckanext-harvest"
    page = sign_in(browser, live_ckan, admin)

    page.goto(f"/harvest/{SOURCE}/job/{job['id']}")
    findings = page.locator(".passport-job-conformance")
    expect(findings).to_be_visible()
    errors = int(findings.locator("[data-severity=error]").inner_text())
    assert errors > 0, "the demo site's passports hold errors the conformance check found"
    expect(page.locator("body")).not_to_contain_text("No errors for this job")
    summary, codes = _summary(page), _codes(page)
    assert codes and int(summary["conformant"]) < int(summary["passports"])

    # The link opens the Conformance tab on this very job, which lists the same figures and codes.
    findings.get_by_role("link", name="This job's conformance report").click()
    page.wait_for_url(f"**/harvest/{SOURCE}/conformance?job_id={job['id']}")
    assert _summary(page) == summary
    assert _codes(page) == codes
    assert page.locator(".passport-conformance-row .passport-finding-error").count() > 0
