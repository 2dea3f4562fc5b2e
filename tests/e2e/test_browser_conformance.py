"""A portal admin reads a source's MR conformance in a real browser: the Conformance tab beside ckanext-harvest's
tabs, its charts and table, a filter by code, the table sorted by score, the CSV download, a record's block with
its corrected files, and the page in Czech.

The demo site is harvested first (the harvest's own stages, in-process); the walk then uses the live portal only.
A screenshot of the tab is saved to test-output/conformance-tab.png (its path printed).
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

SCREENSHOT = Path(__file__).resolve().parents[2] / "test-output" / "conformance-tab.png"
SOURCE = "mr-district"
COST = {"error": 20, "warning": 5, "info": 0}


def _scores(page) -> list[int]:
    return [int(s) for s in page.locator(".passport-conformance-row").evaluate_all(
        "rows => rows.map(r => r.dataset.score)") if s != ""]


def test_an_admin_reads_filters_sorts_and_downloads_a_sources_conformance(
    browser: Browser, live_ckan: str, demo_site, harvest_source, run_harvest
):
    admin = factories.Sysadmin(password=PASSWORD)
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", {"allow_private_addresses": True},
                               name=SOURCE, title="MR site of the district"))
    page = sign_in(browser, live_ckan, admin)

    # The tab beside ckanext-harvest's Datasets and About.
    page.goto(f"/harvest/{SOURCE}")
    page.get_by_role("link", name="Conformance").click()
    page.wait_for_url(f"**/harvest/{SOURCE}/conformance")
    expect(page.locator(".passport-chart-distribution svg .passport-chart-bar")).to_have_count(12)
    expect(page.locator(".passport-chart-history svg .passport-chart-point")).to_have_count(1)
    expect(page.locator(".passport-conformance-row")).to_have_count(6)
    expect(page.locator("[data-summary=passports]")).to_have_text("6")
    scores = _scores(page)
    assert scores == sorted(scores), "worst first by default"
    # Each score is what its findings cost (every stored finding is shown, whatever form the passport had).
    for row in page.locator(".passport-conformance-row").all():
        worst: dict[str, int] = {}
        for item in row.locator(".passport-finding").all():
            cost = COST[item.get_attribute("class").rsplit("passport-finding-", 1)[1]]
            worst[item.get_attribute("data-code")] = max(worst.get(item.get_attribute("data-code"), 0), cost)
        assert int(row.get_attribute("data-score")) == max(0, 100 - sum(worst.values()))
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    print(f"\nConformance tab screenshot: {SCREENSHOT}")

    # Filter by the code most passports have: only they are listed, each with that code's findings only.
    first_code = page.locator(".passport-conformance-codes tbody tr").first
    code, count = first_code.get_attribute("data-code"), int(first_code.locator(".passport-code-count").inner_text())
    page.select_option("#passport-filter-code", code)
    page.get_by_role("button", name="Show", exact=True).click()
    page.wait_for_url(f"**/conformance?code={code}**")
    expect(page.locator(".passport-conformance-row")).to_have_count(count)
    codes = page.locator(".passport-conformance-row .passport-finding").evaluate_all(
        "items => items.map(i => i.dataset.code)")
    assert set(codes) == {code}

    # Sort by score: the header's link turns the order to best first, keeping the filter.
    page.locator("th.passport-sort-score a").click()
    page.wait_for_url("**sort=-score**")
    scores = _scores(page)
    assert scores == sorted(scores, reverse=True) and len(scores) == count

    # The CSV of what is shown: one row per finding, in the columns of the report.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    assert download.value.suggested_filename == f"{SOURCE}-conformance.csv"
    assert rows and {row["code"] for row in rows} == {code}
    assert len({row["identifier"] for row in rows}) == count

    # A record's page shows its conformance to its editors (a sysadmin is one), with the corrected files.
    page.goto("/dataset/7708234640-okvedva")
    block = page.locator("#passport-conformance")
    expect(block.locator(".passport-score")).to_have_attribute("data-score", re.compile(r"^\d+$"))
    with page.expect_download() as download:
        block.get_by_role("link", name="meta.json").click()
    assert json.loads(Path(download.value.path()).read_text("utf-8"))["identifier"] == "7708234640-okvedva"

    # The same tab in Czech under /cs/: its texts and the findings' messages.
    page.goto(f"/cs/harvest/{SOURCE}/conformance")
    expect(page.locator(".nav-tabs")).to_contain_text("Soulad s MR")
    expect(page.locator(".passport-conformance-summary")).to_contain_text("Průměrné hodnocení")
    expect(page.get_by_role("link", name="Stáhnout CSV")).to_be_visible()
    expect(page.locator(".passport-finding").first).to_contain_text(
        page.locator(".passport-finding").first.get_attribute("data-code"))
    assert "chyba" in page.locator(".passport-conformance-table").inner_text() or \
        "varování" in page.locator(".passport-conformance-table").inner_text()
