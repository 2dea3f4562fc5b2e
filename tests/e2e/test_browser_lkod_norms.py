"""A sysadmin, in Czech, harvests a regional catalog as the country publishes them: a catalog document in the
2021-01-11 norm, served locally, listing dataset documents its publishers write in 2024-05-28 and a few still in
2021-01-11 (the norm's official examples, each its own IRI with Czech letters and its own title). The source is made
in ckanext-harvest's form with the type "lkod", its job started by the Reharvest button; the separate gather and
fetch consumers land every dataset, the source's page counts the documents it read per norm and names the catalog
document's, and /lkod/ shows this publisher's catalog still in 2021-01-11 among the portal's harvested catalogs.

Screenshots of the source's page and of /lkod/'s table are saved to test-output/lkod-norms-source-cs.png and
lkod-norms-portal-cs.png (their paths printed).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import PASSWORD, expect_counts, reharvest, sign_in, wait_for_finished_job
from ckan.tests import factories
from demo_lkod import DOCUMENTS, title_of, write_catalog
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)
from playwright.sync_api import Browser, expect

from ckanext.passport.lkod import norms

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

SCREENSHOT = Path(__file__).resolve().parents[2] / "test-output" / "lkod-norms-source-cs.png"
PORTAL_SCREENSHOT = SCREENSHOT.with_name("lkod-norms-portal-cs.png")


def test_a_sysadmin_harvests_a_2021_catalog_of_2024_documents_and_reads_its_norms_on_the_source_page(
    browser: Browser, live_ckan: str, harvest_machinery: HarvestProcesses, tmp_path: Path, serve_site
):
    root = tmp_path / "kraj"
    catalog_url = write_catalog(root, serve_site(root).url)
    admin = factories.Sysadmin(password=PASSWORD)
    reader = factories.Organization(title="Kraj")
    page = sign_in(browser, live_ckan, admin, locale="cs")

    page.goto("/cs/harvest/new", wait_until="networkidle")
    page.fill("#field-url", catalog_url)
    page.fill("#field-title", "LKOD kraje")
    page.check("input[name=source_type][value=lkod]")
    page.fill("#field-config", '{"allow_private_addresses": true}')
    page.select_option("#field-organizations", reader["id"], force=True)
    page.click("#save")
    page.wait_for_url("**/harvest/lkod-kraje")
    admin_page = "/cs/harvest/admin/lkod-kraje"

    reharvest(page, admin_page, "cs")
    wait_for_finished_job(page, admin_page, harvest_machinery)
    expect_counts(page, added=len(DOCUMENTS), updated=0, error=0)

    page.goto("/cs/harvest/lkod-kraje")
    expect(page.locator(".dataset-item")).to_have_count(len(DOCUMENTS))
    for name in DOCUMENTS:
        expect(page.locator(".dataset-item", has_text=title_of(name))).to_have_count(1)
    norms_read = page.locator(".passport-read-norms")
    expect(norms_read.locator("h3")).to_have_text("Normy dokumentů datových sad")
    expect(norms_read.locator("tbody tr")).to_have_count(2)
    expect(norms_read.locator(f"tr[data-norm='{norms.NORM_2021}'] td")).to_have_text([norms.NORM_2021, "2"])
    expect(norms_read.locator(f"tr[data-norm='{norms.NORM_2024}'] td")).to_have_text([norms.NORM_2024, "3"])
    expect(norms_read.locator(".passport-catalog-norm")).to_have_text(f"Katalog: {norms.NORM_2021}")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    print(f"\nSource page screenshot: {SCREENSHOT}")

    # The portal's view of every local catalog it harvests: this publisher's catalog is still in 2021-01-11.
    page.goto("/cs/lkod/")
    row = page.locator(".lkod-harvested-norms tr[data-source='lkod-kraje']")
    expect(row.locator(".lkod-catalog-norm")).to_have_text(norms.NORM_2021)
    expect(row.locator(f"td[data-norm='{norms.NORM_2021}']")).to_have_text("2")
    expect(row.locator(f"td[data-norm='{norms.NORM_2024}']")).to_have_text("3")
    page.locator(".lkod-harvested-norms").screenshot(path=str(PORTAL_SCREENSHOT))
    print(f"/lkod/ screenshot: {PORTAL_SCREENSHOT}")
