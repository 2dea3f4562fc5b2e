"""A Czech admin re-harvests a source two of whose records were removed outside the harvest (issue 39).

One record is purged (a cleanup script's `dataset_purge`), one deleted from its page by a person. The next job of the
unchanged site, started by the "Sklidit znovu" button and run by the portal's harvest processes, brings the purged
one back and keeps the deleted one deleted, and its job page says both, in Czech.
"""
from __future__ import annotations

import pytest
from tests.support.browser_walk import PASSWORD, expect_counts, reharvest, sign_in, wait_for_finished_job
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)
from playwright.sync_api import Browser, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
]

PURGED = "7709876545-pharmacies"
DELETED = "5027123457-bustops"


def test_a_reharvest_brings_back_a_purged_record_and_says_a_deleted_one_stays_deleted_in_czech(
    browser: Browser, live_ckan: str, harvest_machinery: HarvestProcesses, demo_site
):
    admin = factories.Sysadmin(password=PASSWORD)
    district = factories.Organization(title="Predgorny district")
    call_action("harvest_source_create", {"user": admin["name"]}, name="district-site", title="District site",
                url=f"{demo_site.url}/opendata/", source_type="passport", owner_org=district["id"],
                config='{"allow_private_addresses": true}')
    source = "/cs/harvest/admin/district-site"
    page = sign_in(browser, live_ckan, admin, locale="cs-CZ")
    reharvest(page, source, "cs")
    wait_for_finished_job(page, source, harvest_machinery)
    expect_counts(page, added=6, error=0)

    call_action("dataset_purge", {"user": admin["name"]}, id=PURGED)
    page.goto(f"/cs/dataset/delete/{DELETED}")
    with page.expect_navigation(timeout=30_000):
        page.click("#confirm-dataset-delete-form button[name=delete]")

    reharvest(page, source, "cs")
    wait_for_finished_job(page, source, harvest_machinery)
    # ckanext-harvest has no warning status: the entry kept deleted, with its warning, is counted beside the errors.
    expect_counts(page, added=1, error=1)
    page.goto("/cs/harvest/district-site/job/last")
    expect(page.locator("[data-records=brought_back]")).to_have_text(
        "1 položka, jejíž záznam chyběl, byla vrácena")
    expect(page.locator("[data-records=kept_deleted]")).to_have_text(
        "1 položka, kterou zdroj stále uvádí, zůstává v portálu smazaná")
    page.screenshot(path="test-output/records-removed-outside-cs.png", full_page=True)

    assert call_action("package_show", id=PURGED)["state"] == "active"
    assert call_action("package_show", id=DELETED)["state"] == "deleted"
