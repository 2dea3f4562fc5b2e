"""The site check in a real browser (Debian's Chromium) against a live CKAN and a real ``ckan jobs worker``.

A sysadmin opens the Czech form under /cs/, checks the local demo site (on loopback, so with private addresses
allowed: a user who is not a sysadmin is refused it, in a Czech sentence under the field, first), watches the
check's page wait for the worker, count the passports read, and end with the report; then downloads its CSV. A
check of a site publishing a passport far past what a report keeps reads, in Czech, its cut title and why it was
cut and why it has no corrected files, beside a small passport whose corrected files are offered.
"""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import Iterator

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from tests.support.demo_site import IDENTIFIERS
from tests.support.fault_passports import valid_passport
from tests.support.http_site import Fault
from tests.support.local_demo_site import local_demo_site
from tests.support.site_check_jobs import clean_site_checks, run_worker_burst, worker  # noqa: F401
from playwright.sync_api import Browser, expect

from ckanext.passport.conformance.shape import CSV_COLUMNS

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
# The third passport's answer is held until the page has been seen counting between the second and the third:
# a fixed delay let a loaded machine finish the check between two of the page's refreshes.
SLOW = "/opendata/2618017120-politicaldivisions/meta.json"


@pytest.fixture
def third_passport_held() -> threading.Event:
    return threading.Event()


@pytest.fixture
def slow_demo_site(tmp_path: Path, serve_site, third_passport_held: threading.Event):
    site = local_demo_site(tmp_path / "site", serve_site)
    site.fault(SLOW, Fault(delay=120, hold=third_passport_held,
                           body=(site.root / SLOW.lstrip("/")).read_bytes(), content_type="application/json"))
    yield site
    third_passport_held.set()


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator:
    """``start_worker()`` starts ``ckan jobs worker`` (as `make demo` runs it) over the test's database and queue."""
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        process = worker(burst=False, log=tmp_path / "worker.log")
        started.append(process)
        return process

    yield start
    for process in started:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_a_sysadmin_checks_a_site_in_czech_watches_it_run_and_downloads_the_csv(
        browser: Browser, live_ckan: str, slow_demo_site, third_passport_held: threading.Event,
        clean_site_checks, start_worker, tmp_path: Path):
    site = slow_demo_site.url + "/opendata/"

    publisher = sign_in(browser, live_ckan, factories.User(name="vydavatel", password=PASSWORD), locale="cs-CZ")
    publisher.goto("/cs/passport/check")
    expect(publisher.locator("input[name=allow_private_addresses]")).to_have_count(0)
    publisher.fill("input[name=url]", site)
    publisher.get_by_role("button", name="Zkontrolovat web").click()
    expect(publisher.locator(".passport-site-check-url-error")).to_contain_text(
        "Tato adresa je v privátní, místní nebo zvláštní síti a kontrola webu čte jen veřejné weby.")

    admin = sign_in(browser, live_ckan, factories.Sysadmin(name="spravce", password=PASSWORD), locale="cs-CZ")
    admin.goto("/cs/dataset/")
    admin.locator("a.passport-site-check-link").click()
    expect(admin.locator("h1")).to_have_text("Kontrola webu")
    admin.fill("input[name=url]", site)
    admin.check("input[name=allow_private_addresses]")
    admin.get_by_role("button", name="Zkontrolovat web").click()
    admin.wait_for_url("**/cs/passport/check/*")
    status = admin.locator(".passport-site-check-status")
    expect(status).to_have_text("Čeká na spuštění")

    start_worker()
    expect(status).to_have_text("Probíhá", timeout=30_000)
    expect(admin.locator(".passport-site-check-progress")).to_contain_text(
        f"Zkontrolované pasporty: 2 z {len(IDENTIFIERS)}", timeout=30_000)
    third_passport_held.set()
    expect(status).to_have_text("Dokončeno", timeout=60_000)

    passports = admin.locator(".passport-site-check-passport")
    expect(passports).to_have_count(len(IDENTIFIERS))
    expect(admin.locator("[data-field=passports]")).to_have_text(str(len(IDENTIFIERS)))
    expect(admin.locator(".passport-site-check-report")).to_contain_text("Průměrné hodnocení")
    expect(passports.first.locator(".passport-site-check-fixed-files a")).to_have_count(3)
    OUTPUT.mkdir(exist_ok=True)
    admin.screenshot(path=str(OUTPUT / "site-check-report.png"), full_page=True)
    print("site check report screenshot:", OUTPUT / "site-check-report.png")

    with admin.expect_download() as download:
        admin.get_by_role("link", name="CSV", exact=True).click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert {row[0] for row in rows[1:]} == IDENTIFIERS
    assert any(row[5] and row[7] for row in rows[1:])  # findings with their code and Czech message
    assert "fetch.connection_error" not in {row[5] for row in rows[1:]}  # every file read was on the local site


INN = "7701234560"
LONG_TITLE = "Набор " * 2000  # 12,000 characters: a report keeps 1,000 of a text
BIG_DESCRIPTION = "x" * 1_300_000  # past the 1,000,000 characters kept for corrected files, within the 2 MiB read


@pytest.fixture
def big_passport_site(tmp_path: Path, serve_site):
    """A registry of two passports: one of 1.3 MB with a 12,000-character title, one small."""
    entries = []
    for identifier, passport in [
            (f"{INN}-big", {**valid_passport(f"{INN}-big", LONG_TITLE), "description": BIG_DESCRIPTION}),
            (f"{INN}-small", valid_passport(f"{INN}-small", "Малый"))]:
        folder = tmp_path / "opendata" / identifier
        folder.mkdir(parents=True)
        (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
        entries.append(f"{identifier},{passport['title']},/opendata/{identifier}/meta.json,json")
    (tmp_path / "opendata" / "list.csv").write_text(
        "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
        + "\n".join(entries) + "\n", "utf-8")
    return serve_site(tmp_path)


def test_the_report_of_a_huge_passport_shows_in_czech_its_cut_title_and_why_it_has_no_corrected_files(
        browser: Browser, live_ckan: str, big_passport_site, clean_site_checks):
    admin = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD), locale="cs-CZ")
    admin.goto("/cs/passport/check")
    admin.fill("input[name=url]", big_passport_site.url + "/opendata/list.csv")
    admin.check("input[name=allow_private_addresses]")
    admin.get_by_role("button", name="Zkontrolovat web").click()
    admin.wait_for_url("**/cs/passport/check/*")
    run_worker_burst()
    # The page reloads itself until the check ends (a reload of ours could cut one of its own short).
    expect(admin.locator(".passport-site-check-status")).to_have_text("Dokončeno", timeout=60_000)

    big = admin.locator(f".passport-site-check-passport[data-identifier='{INN}-big']")
    title = big.locator("h3").inner_text()
    assert title.startswith(f"{INN}-big: Набор Набор") and title.endswith("…") and len(title) < 1_100
    expect(big).to_contain_text("Z tohoto protokolu bylo vynecháno")
    expect(big).to_contain_text("z každého textu se uchovává prvních 1000 znaků a pak končí znakem …")
    expect(big).to_contain_text("Opravené soubory se pro tento pasport nenabízejí")
    expect(big.locator(".passport-site-check-fixed")).to_have_count(0)
    assert BIG_DESCRIPTION[:2000] not in admin.content()

    small = admin.locator(f".passport-site-check-passport[data-identifier='{INN}-small']")
    expect(small.locator(".passport-site-check-fixed-files a")).to_have_count(3)
