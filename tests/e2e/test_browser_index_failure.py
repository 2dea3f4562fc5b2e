"""A sysadmin reharvests while the harvest consumers cannot reach the search index, reads why in Czech on the job's
page, and the next Reharvest, with the index back and no passport changed, makes every record searchable again."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from tests.support.browser_walk import PASSWORD, expect_counts, reharvest, sign_in, wait_for_finished_job
from ckan.tests import factories
from tests.support.harvest_processes import COMMANDS, ROOT, HarvestProcesses
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

CLOSED_SOLR = "http://127.0.0.1:9/solr/closed"
CONSUMERS = ("gather-consumer", "fetch-consumer")


@pytest.fixture
def periodic_run(live_ckan: str, tmp_path: Path) -> Iterator[HarvestProcesses]:
    """The periodic ``harvester run`` and the jobs worker over the real index: marking a job finished re-indexes its
    source, which this walk leaves to the index's own outage."""
    logs = tmp_path / "periodic"
    logs.mkdir()
    processes = HarvestProcesses(ROOT / "test.ini", logs, commands=machinery("harvest-cron", "jobs-worker")).start()
    yield processes
    processes.stop()


def consumers(tmp_path: Path, name: str, env: dict[str, str]) -> HarvestProcesses:
    logs = tmp_path / name
    logs.mkdir()
    return HarvestProcesses(ROOT / "test.ini", logs, commands=machinery(*CONSUMERS), env=env).start()


def machinery(*names: str) -> dict[str, list[str]]:
    return {name: COMMANDS[name] for name in names}


def test_records_the_index_did_not_take_are_reported_in_czech_and_indexed_by_the_next_reharvest(
        browser: Browser, live_ckan: str, periodic_run: HarvestProcesses, demo_site, harvest_source, tmp_path):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", {"allow_private_addresses": True},
                            name="district-site")
    admin = factories.Sysadmin(password=PASSWORD)
    page = sign_in(browser, live_ckan, admin)
    admin_page = f"/harvest/admin/{source['name']}"

    cut_off = consumers(tmp_path, "without-index", {"CKAN_SOLR_URL": CLOSED_SOLR})
    try:
        reharvest(page, admin_page)
        wait_for_finished_job(page, admin_page, cut_off, seconds=120)
    finally:
        cut_off.stop()
    # Six objects, and the gather's index check: each is an error of the job.
    expect_counts(page, error=7, added=0)
    page.goto(f"/cs/harvest/{source['name']}/job/last")
    not_indexed = page.locator('.harvest-error-list .error[data-code="harvest.index_failed"]').first
    expect(not_indexed.locator(".passport-finding-text")).to_contain_text(
        "Záznam byl uložen, ale vyhledávací index ho nepřijal")
    expect(not_indexed.locator(".passport-finding-code")).to_have_text("harvest.index_failed")
    index_check = page.locator('.harvest-error-list .error[data-code="harvest.index_check_failed"]').first
    expect(index_check.locator(".passport-finding-code")).to_have_text("harvest.index_check_failed")
    page.goto(f"/harvest/{source['name']}")
    expect(page.locator(".dataset-item")).to_have_count(0)

    restored = consumers(tmp_path, "with-index", {})
    try:
        reharvest(page, admin_page)
        wait_for_finished_job(page, admin_page, restored, seconds=120)
    finally:
        restored.stop()
    expect_counts(page, error=0, added=0, updated=0, not_modified=6)
    page.goto(f"/harvest/{source['name']}")
    expect(page.locator(".dataset-item")).to_have_count(6)
    page.goto("/dataset/?q=pharmacies")
    expect(page.locator(".dataset-item")).not_to_have_count(0)
