"""A visitor reads the scoreboard in Russian, in a real browser against a live CKAN (issue 25): from the site's header
to the table, sorted by change, then a publisher's page with its history and sources.

Three publishers' job summaries are written directly (the pages, not a harvest): Rosstat improved most over the month,
the town hall least, the ministry in between.
"""
from __future__ import annotations

import pytest
from ckan.tests import factories
from playwright.sync_api import Browser, expect
from tests.support.scoreboard_rows import add_source, add_summary

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

ROSSTAT = "7708234640"


@pytest.fixture
def publishers(live_ckan: str) -> dict[str, str]:
    town = factories.Organization(title="Администрация города")
    statistics = add_source("rosstat-statistics", title="Статистика")
    registers = add_source("rosstat-registers", title="Реестры")
    for days, score in ((40, 40.0), (10, 60.0), (1, 80.0)):
        add_summary(statistics, ROSSTAT, days, score, name="Росстат", codes={"csv.empty": 1})
    add_summary(registers, ROSSTAT, 2, 80.0, name="Росстат")
    ministry = add_source("ministry")
    add_summary(ministry, "7703092752", 35, 50.0, name="Минфин")
    add_summary(ministry, "7703092752", 1, 60.0, name="Минфин")
    town_source = add_source("town-hall", owner_org=town["id"])
    add_summary(town_source, f"org:{town['id']}", 35, 70.0, name="Администрация города")
    add_summary(town_source, f"org:{town['id']}", 1, 65.0, name="Администрация города")
    return {"town": f"org:{town['id']}"}


def test_a_visitor_sorts_the_scoreboard_by_change_and_opens_a_publisher_in_russian(
        browser: Browser, live_ckan: str, publishers):
    page = browser.new_page(base_url=live_ckan, locale="ru-RU", viewport={"width": 1280, "height": 900})
    page.goto("/ru/dataset/")
    page.locator('header a[href="/ru/passport/scoreboard"]').click()
    expect(page).to_have_url(f"{live_ckan}/ru/passport/scoreboard")
    rows = page.locator("tr.passport-scoreboard-row")
    expect(rows).to_have_count(3)

    page.locator('th[data-sort="change"] a').click()
    expect(page.locator('th[data-sort="change"]')).to_have_attribute("aria-sort", "descending")
    # Rosstat +40 (80 now, 40 a month ago), the ministry +10, the town hall -5.
    expect(rows.first).to_have_attribute("data-publisher", ROSSTAT)
    expect(rows.last).to_have_attribute("data-publisher", publishers["town"])
    expect(rows.first.locator('[data-field="change"]')).to_have_text("+40.0")

    rows.first.locator("a.passport-scoreboard-publisher").click()
    expect(page).to_have_url(f"{live_ckan}/ru/passport/scoreboard/publisher/{ROSSTAT}")
    expect(page.locator("h1")).to_have_text("Росстат")
    expect(page.locator(".passport-scoreboard-sources li")).to_have_count(2)
    expect(page.locator('.passport-scoreboard-sources a[href="/ru/harvest/rosstat-statistics/conformance"]')) \
        .to_have_text("Статистика")
    expect(page.locator("tr.passport-scoreboard-job")).to_have_count(4)
    expect(page.locator(".passport-chart-history svg polyline")).to_have_count(1)
    # The code's meaning in Russian (the catalogue's own translation).
    expect(page.locator('.passport-scoreboard-publisher-codes tr[data-code="csv.empty"]')).to_contain_text("Файл пуст")


@pytest.fixture
def long_rows(publishers) -> None:
    """The demo's widest row: a long name, the most frequent findings with long codes and meanings, the last job
    failed with its coded reason."""
    source = add_source("ministry-of-regional-development")
    add_summary(source, "66002222", 3, 35.0, name="Ministerstvo pro místní rozvoj České republiky",
                codes={"passport.standard_version_variant": 7, "csv.html_instead_of_csv": 4, "csv.row_too_wide": 2})
    add_summary(source, "66002222", 1, None, name="Ministerstvo pro místní rozvoj České republiky",
                status="failed", failure_code="harvest.gather_unexpected")


@pytest.mark.parametrize("language", ["cs", "ru"])
def test_the_scoreboard_table_fits_1280_pixels_without_scrolling(browser: Browser, live_ckan: str, long_rows,
                                                                language):
    page = browser.new_page(base_url=live_ckan, locale=language, viewport={"width": 1280, "height": 900})
    page.goto(f"/{language}/passport/scoreboard")
    expect(page.locator("tr.passport-scoreboard-row")).to_have_count(4)

    scroller = page.locator(".passport-scoreboard-table").locator("xpath=..")
    assert scroller.evaluate("box => box.scrollWidth <= box.clientWidth"), scroller.evaluate(
        "box => [box.scrollWidth, box.clientWidth]")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
