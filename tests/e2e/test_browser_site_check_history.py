"""A publisher comes back to the site check in a real browser (Debian's Chromium, a live CKAN, a real
``ckan jobs worker``): the form lists their earlier check of the site, a second check's report links the first, and
in "Passports by problem" a code's meaning stands beside it and its passport's link leads to that passport's section,
where the findings of its data file are marked and its score without them is said.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from tests.support.local_demo_site import local_demo_site
from playwright.sync_api import Browser, Page, expect
from tests.support.site_check_jobs import clean_site_checks, run_worker_burst  # noqa: F401

from ckanext.passport.conformance.harvest.views import meaning
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
TERORG = "7703092752-terorg"  # its data file heads its columns otherwise than its structure names them


@pytest.fixture
def home_site(tmp_path, serve_site):
    return local_demo_site(tmp_path / "site", serve_site)


def check_to_its_end(page: Page, site: str) -> str:
    """Send the form for ``site`` (on loopback: private addresses asked for), run the worker; the report's path."""
    page.fill("input[name=url]", site)
    page.check("input[name=allow_private_addresses]")
    page.get_by_role("button", name="Check the site").click()
    page.wait_for_url("**/passport/check/*")
    run_worker_burst()
    # The page reloads itself until the check ends.
    expect(page.locator(".passport-site-check-status")).to_have_text("Finished", timeout=60_000)
    return urlsplit(page.url).path


def test_a_publisher_finds_an_earlier_check_and_follows_a_problem_to_its_passport(
        browser: Browser, live_ckan: str, home_site, clean_site_checks):
    site = home_site.url + "/opendata/"
    publisher = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD))
    publisher.goto("/passport/check")
    first = check_to_its_end(publisher, site)

    publisher.get_by_role("link", name="Check another site").click()
    earlier = publisher.locator(".passport-site-check-earlier")
    expect(earlier.locator("h2")).to_have_text("Your earlier checks")
    expect(earlier.locator(".passport-site-check-earlier-check a")).to_have_attribute("href", first)

    second = check_to_its_end(publisher, site)
    assert second != first
    others = publisher.locator(".passport-site-check-earlier")
    expect(others.locator("h2")).to_have_text("Your other checks of this site")
    others.locator(".passport-site-check-earlier-check a").click()
    publisher.wait_for_url(f"**{first}")

    row = publisher.locator(".passport-site-check-codes tr[data-code='data.field_renamed']")
    expect(row.locator(".passport-code-meaning")).to_have_text(meaning("data.field_renamed", translator("en")))
    row.get_by_role("link", name=TERORG).click()
    section = publisher.locator(f".passport-site-check-passport[data-identifier='{TERORG}']")
    expect(section).to_be_in_viewport()
    assert re.search(r"#passport-\d+$", publisher.url)
    expect(section.locator(".passport-finding[data-code='data.field_renamed'] .passport-finding-data-file").first).to_be_visible()
    expect(section.locator(".passport-site-check-data-note")).to_contain_text("Without them it would score")
    OUTPUT.mkdir(exist_ok=True)
    publisher.locator(".passport-site-check-codes").screenshot(path=str(OUTPUT / "site-check-by-problem.png"))
    section.screenshot(path=str(OUTPUT / "site-check-data-file-findings.png"))

    publisher.goto(f"/ru{first}")
    expect(publisher.locator(".passport-site-check-codes tr[data-code='data.field_renamed'] .passport-code-meaning")
           ).to_have_text(meaning("data.field_renamed", translator("ru")))
