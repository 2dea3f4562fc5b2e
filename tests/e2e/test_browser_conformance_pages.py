"""A portal admin pages through the Conformance tab of a source with more passports than one page holds, in Czech,
after the unchanged re-harvest a large source sees most days: the summary is the whole job's, each page lists the
next passports of one order (worst first), the pages together list each passport once, and a filter by code starts
again at its first page and lists that code only.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from tests.support.demo_site import DEMO_SITE
from playwright.sync_api import Browser, Page, expect

from ckanext.passport.conformance.harvest.views import PAGE_SIZE

pytestmark = [
    pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

SOURCE = "many-stops"
PASSPORTS = PAGE_SIZE + 30
MODEL = "5027123457-bustops"


def _identifier(number: int) -> str:
    return f"5027123457-stops{number:03d}"


def _site(root: Path) -> Path:
    """A site of ``PASSPORTS`` meta.json passports, copies of the demo's bus stops (its data and structure files
    shared); every third has no description, so their scores and findings differ from the others'."""
    model = json.loads((DEMO_SITE / "opendata" / MODEL / "meta.json").read_text("utf-8"))
    shutil.copytree(DEMO_SITE / "opendata" / MODEL, root / "opendata" / MODEL)
    lines = ["property,title,value,format",
             "standardversion,Версия методических рекомендаций,http://opendata.gosmonitor.ru/standard/3.0,"]
    for number in range(PASSPORTS):
        identifier = _identifier(number)
        passport = {**model, "identifier": identifier, "title": f"Остановки, участок {number}"}
        if number % 3 == 0:
            del passport["description"]
        folder = root / "opendata" / identifier
        folder.mkdir(parents=True)
        (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
        lines.append(f"{identifier},{passport['title']},/opendata/{identifier}/meta.json,json")
    (root / "opendata" / "list.csv").write_text("\n".join(lines) + "\n", "utf-8")
    return root


def _rows(page: Page) -> list[tuple[str, int]]:
    """The listed passports, (identifier, score), in the page's order."""
    return [(row["identifier"], int(row["score"])) for row in page.locator(".passport-conformance-row").evaluate_all(
        "rows => rows.map(r => ({identifier: r.dataset.identifier, score: r.dataset.score}))")]


def test_an_admin_pages_through_a_large_sources_conformance_in_czech(
    browser: Browser, live_ckan: str, tmp_path, serve_site, harvest_source, run_harvest
):
    site = serve_site(_site(tmp_path / "site"))
    source = harvest_source(f"{site.url}/opendata/list.csv", {"allow_private_addresses": True}, name=SOURCE)
    run_harvest(source)
    again, _ = run_harvest(source)
    assert {result["report_status"] for result in again.values()} == {"not modified"}, "unchanged, every one"
    page = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD))

    page.goto(f"/cs/harvest/{SOURCE}/conformance")
    expect(page.locator("[data-summary=passports]")).to_have_text(str(PASSPORTS))
    expect(page.locator(".passport-conformance-pages")).to_contain_text("Stránka 1 z 2")
    first = _rows(page)
    assert len(first) == PAGE_SIZE

    page.get_by_role("link", name="Další stránka").click()
    page.wait_for_url("**page=2**")
    expect(page.locator(".passport-conformance-pages")).to_contain_text("Stránka 2 z 2")
    expect(page.locator("[data-summary=passports]")).to_have_text(str(PASSPORTS))
    second = _rows(page)
    scores = [score for _, score in first + second]
    assert scores == sorted(scores), "worst first across the pages"
    assert sorted(identifier for identifier, _ in first + second) == sorted(
        _identifier(number) for number in range(PASSPORTS)), "each passport on one page, once"
    expect(page.get_by_role("link", name="Další stránka")).to_have_count(0)

    page.get_by_role("link", name="Předchozí stránka").click()
    page.wait_for_url(f"**/harvest/{SOURCE}/conformance")
    assert _rows(page) == first

    # A code fewer passports have than a page holds: one page, each passport listed with that code's findings only.
    codes = {row.get_attribute("data-code"): int(row.locator(".passport-code-count").inner_text())
             for row in page.locator(".passport-conformance-codes tbody tr").all()}
    code, count = next((code, count) for code, count in codes.items() if count < PAGE_SIZE)
    page.goto(f"/cs/harvest/{SOURCE}/conformance?page=2")
    page.select_option("#passport-filter-code", code)
    page.get_by_role("button", name="Zobrazit", exact=True).click()
    page.wait_for_url(f"**/conformance?code={code}**")
    assert "page=" not in page.url, "a new filter starts at its first page"
    assert len(_rows(page)) == count
    expect(page.locator(".passport-conformance-pages")).to_have_count(0)
    listed = page.locator(".passport-conformance-row .passport-finding").evaluate_all(
        "items => items.map(i => i.dataset.code)")
    assert set(listed) == {code}
