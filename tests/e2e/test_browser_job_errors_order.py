"""A portal admin reads the job of a source whose address holds no registry: the page and the Conformance tab say
first that no registry was found (registry.not_discovered), then each address tried (404s, an HTML page)."""
from __future__ import annotations

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

SOURCE = "town-news"
CAUSE = "registry.not_discovered"
SENTENCE = "No open data registry found on "


def test_a_job_of_a_site_without_a_registry_names_the_cause_before_the_addresses_tried(
    browser: Browser, live_ckan: str, tmp_path, serve_site, harvest_source, run_harvest
):
    (tmp_path / "index.html").write_text("<html><body><p>Municipal news</p></body></html>", "utf-8")
    site = serve_site(tmp_path)
    _, job = run_harvest(harvest_source(f"{site.url}/", {"allow_private_addresses": True}, name=SOURCE))
    page = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD))

    page.goto(f"/harvest/{SOURCE}/job/{job['id']}")
    summary = page.locator(".harvest-error-summary tbody tr td:nth-child(2)")
    report = page.locator(".harvest-error-list .error")
    report_codes = report.locator(".passport-finding-code").all_inner_texts()
    assert len(report_codes) > 2 and report_codes[0].strip() == CAUSE, report_codes
    assert report.first.locator(".passport-finding-text").inner_text().startswith(SENTENCE)
    assert summary.first.locator(".passport-finding-code").inner_text().strip() == CAUSE
    assert summary.first.locator(".passport-finding-text").inner_text().startswith(SENTENCE)
    site_findings = page.locator(".passport-job-conformance .passport-conformance-site-problems li")
    assert site_findings.first.get_attribute("data-code") == CAUSE

    page.goto(f"/harvest/{SOURCE}/conformance?job_id={job['id']}")
    codes = page.locator(".passport-conformance-site-problems li").evaluate_all("items => items.map(i => i.dataset.code)")
    assert len(codes) > 2 and codes[0] == CAUSE, codes
