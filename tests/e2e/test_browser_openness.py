"""The openness check from the dataset page in a real browser (Debian's Chromium), against a live CKAN and a real
``ckan jobs worker``, in Czech.

A curator presses "Spustit kontrolu otevřenosti" under /cs/: the form posts with its CSRF token, the page says the
check of each data source is queued, and once the jobs worker has run, the page gives the result. The data sources
are files of a local test site: on loopback, which a curator's check never reads (a sysadmin's may, when asked).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_walk import EDITORS_ORG, PASSWORD, sign_in
from tests.support.catalog_records import complete_record, complete_resource
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.http_site import Site
from playwright.sync_api import Browser, Page, expect
from tests.support.site_check_jobs import clean_site_checks, run_worker_burst  # noqa: F401 (fixtures)

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins", "clean_site_checks"),
    # The transitions a walk takes in-process, by the live server's editors.
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG),
]

GOOD_CSV = "kód;název;počet obyvatel\n582786;Brno;396778\n554782;Praha;1384732\n".encode("utf-8")
BUTTON = "Spustit kontrolu otevřenosti"
PRIVATE = "Číst i z adres privátních a místních sítí (jen správci systému)"
NOT_RUN = "Kontrola otevřenosti zdrojů dat zatím neproběhla."
QUEUED = "kontrola čeká ve frontě: výsledek se tu objeví, až úlohový proces (jobs worker) soubor přečte"


@pytest.fixture
def site(tmp_path: Path, serve_site) -> Site:
    root = tmp_path / "site"
    root.mkdir()
    (root / "obce.csv").write_bytes(GOOD_CSV)
    return serve_site(root)


@pytest.fixture
def curator() -> dict:
    return factories.User(name="kurator", fullname="Karel Kurátor", password=PASSWORD)


@pytest.fixture
def record(site: Site, curator: dict) -> dict:
    """The curator's draft record with one data source, a CSV table of the local site."""
    org = factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    return factories.Dataset(
        **complete_record(owner_org=org["id"], resources=[
            complete_resource(name="Obce", url=f"{site.url}/obce.csv", format="CSV", mimetype="text/csv",
                              mimetype_inner=""),
        ]),
        user=curator,
    )


def results(page: Page):
    return page.locator("#passport-openness-results .passport-openness-result")


def run_the_check(page: Page) -> None:
    """Press the button and wait for the page it posts to (the record's, back at its results)."""
    with page.expect_navigation():
        page.get_by_role("button", name=BUTTON).click()


def test_a_curator_runs_the_openness_check_and_reads_that_it_is_queued(
        browser: Browser, live_ckan: str, curator, record, site: Site):
    page = sign_in(browser, live_ckan, curator, locale="cs-CZ")
    page.goto(f"/cs/dataset/{record['name']}")
    expect(page.locator("#passport-openness-results")).to_contain_text(NOT_RUN)
    form = page.locator("form.passport-openness-start")
    expect(form.locator("input[name=_csrf_token]")).to_have_count(1)
    expect(form.get_by_label(PRIVATE)).to_have_count(0)  # a sysadmin's option
    run_the_check(page)
    assert page.url.split("#")[0].endswith(f"/cs/dataset/{record['name']}")
    expect(page.locator(".passport-openness-pending")).to_have_text(QUEUED)
    assert site.hits == []  # the web request only queued the check


def test_after_the_jobs_worker_the_curator_reads_why_a_file_on_a_private_address_was_not_read(
        browser: Browser, live_ckan: str, curator, record, site: Site):
    page = sign_in(browser, live_ckan, curator, locale="cs-CZ")
    page.goto(f"/cs/dataset/{record['name']}")
    run_the_check(page)
    run_worker_burst()
    page.reload()
    result = results(page)
    expect(result.locator(".passport-openness-verdict")).to_have_text("nevyhovuje")
    expect(result.locator(".passport-check-available.failed")).to_contain_text(
        "Lze stáhnout: soubor nelze stáhnout: stahování z 127.0.0.1 je odmítnuto: není to veřejná adresa")
    expect(page.locator(".passport-openness-pending")).to_have_count(0)
    assert site.hits == []  # a curator's check never reads the portal's own network


def test_a_sysadmin_who_asks_for_private_addresses_reads_the_file_s_result_check_by_check(
        browser: Browser, live_ckan: str, record, site: Site):
    page = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD), locale="cs-CZ")
    page.goto(f"/cs/dataset/{record['name']}")
    page.get_by_label(PRIVATE).check()
    run_the_check(page)
    expect(page.locator(".passport-openness-pending")).to_have_text(QUEUED)
    run_worker_burst()
    page.reload()
    result = results(page)
    expect(result.locator(".passport-openness-verdict")).to_have_text("vyhovuje")
    expect(result.locator("li.passport-check")).to_have_text([
        "Lze stáhnout", "Kódování UTF-8", "Tabulkový formát (CSV, XML nebo JSON)", "Jedna tabulka v distribuci",
        "Řádek hlavičky", "Všechny řádky mají strukturu hlavičky"])
    expect(result.locator("li.passport-check.failed")).to_have_count(0)
    assert site.hits == ["/obce.csv"]


def test_a_post_without_its_csrf_token_is_refused_and_queues_nothing(
        browser: Browser, live_ckan: str, curator, record):
    page = sign_in(browser, live_ckan, curator, locale="cs-CZ")
    page.goto(f"/cs/dataset/{record['name']}")
    page.locator("form.passport-openness-start input[name=_csrf_token]").evaluate("input => input.remove()")
    with page.expect_response(lambda answer: answer.request.method == "POST") as posted:
        page.get_by_role("button", name=BUTTON).click()
    assert posted.value.status == 400 and "CSRF" in posted.value.text()
    page.goto(f"/cs/dataset/{record['name']}")
    expect(page.locator("#passport-openness-results")).to_contain_text(NOT_RUN)


def test_a_visitor_and_a_signed_in_outsider_are_offered_no_openness_check(
        browser: Browser, live_ckan: str, curator, record):
    editor = factories.User()
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    for who, target in [(curator, "submitted"), (editor, "published")]:
        call_action("passport_workflow_transition", {"user": who["name"], "ignore_auth": False},
                    id=record["id"], to=target)
    visitor = browser.new_context(base_url=live_ckan, locale="cs-CZ").new_page()
    outsider = sign_in(browser, live_ckan, factories.User(password=PASSWORD), locale="cs-CZ")
    for page in (visitor, outsider):
        page.goto(f"/cs/dataset/{record['name']}")
        expect(page.locator("#passport-openness-results")).to_contain_text(NOT_RUN)
        expect(page.get_by_role("button", name=BUTTON)).to_have_count(0)
