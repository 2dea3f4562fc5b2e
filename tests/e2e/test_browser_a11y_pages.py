"""Every page of the extension a Czech curator, editor, admin or publisher meets, at 1280 px, checked by axe-core
(WCAG 2.1 A and AA, conftest.py) and kept as a screenshot in test-output/a11y-<name>.png to be looked at (issue 41).

The demo site is harvested once; a sysadmin then walks the record, its edit form, the source's Conformance tab and
last job, the scoreboard and a publisher's page, the site check's form and a report, /opendata/, /lkod/, the home
page, the dashboard and the harvest source form.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, Page, expect
from tests.support.site_check_jobs import clean_site_checks, run_worker_burst  # noqa: F401

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
SOURCE = "okresni-web"


def _shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"a11y-{name}.png"), full_page=True)


def test_every_page_of_the_extension_in_czech_at_1280_pixels_has_no_axe_violation_of_ours(
        browser: Browser, live_ckan: str, demo_site, harvest_source, run_harvest, clean_site_checks):
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", {"allow_private_addresses": True},
                               name=SOURCE, title="Web okresu"))
    record = call_action("package_search", rows=1, sort="name asc")["results"][0]["name"]
    admin = factories.Sysadmin(password=PASSWORD)
    page = sign_in(browser, live_ckan, admin, locale="cs-CZ")
    page.set_viewport_size({"width": 1280, "height": 900})

    for name, path, shown in [
        ("home", "/cs/", ".passport-home"),
        ("dashboard", "/cs/dashboard/datasets", "#content"),
        ("record", f"/cs/dataset/{record}", ".passport-publication"),
        ("record-edit", f"/cs/dataset/edit/{record}", "#field-eurovoc-0-uri.select2-container"),
        ("conformance-tab", f"/cs/harvest/{SOURCE}/conformance", ".passport-chart-distribution"),
        ("job", f"/cs/harvest/{SOURCE}/job/last", ".passport-job-conformance"),
        ("scoreboard", "/cs/passport/scoreboard", "tr.passport-scoreboard-row"),
        ("opendata", "/cs/opendata/", ".opendata-registry"),
        ("lkod", "/cs/lkod/", ".lkod-catalog-url"),
        ("source-form", "/cs/harvest/new", "#source-new"),
        ("site-check-form", "/cs/passport/check", "input[name=url]"),
    ]:
        page.goto(path)
        expect(page.locator(shown).first).to_be_visible()
        _shot(page, name)

    page.goto("/cs/passport/scoreboard")
    page.locator("a.passport-scoreboard-publisher").first.click()
    expect(page.locator(".passport-chart-history")).to_be_visible()
    _shot(page, "publisher")

    page.goto("/cs/passport/check")
    page.fill("input[name=url]", f"{demo_site.url}/opendata/list.csv")
    page.check("input[name=allow_private_addresses]")
    page.get_by_role("button", name="Zkontrolovat web").click()
    page.wait_for_url("**/cs/passport/check/*")
    run_worker_burst()
    expect(page.locator(".passport-site-check-status")).to_have_text("Dokončeno", timeout=60_000)
    _shot(page, "site-check-report")
