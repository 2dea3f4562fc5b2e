"""The site check in a real browser (Debian's Chromium) against a live CKAN and a real ``ckan jobs worker``.

A sysadmin opens the Czech form under /cs/, checks the local demo site (on loopback, so with private addresses
allowed: a user who is not a sysadmin is refused it, in Czech, first), watches the check's page wait for the
worker, count the passports read, and end with the report; then downloads its CSV.
"""
from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import Iterator

import pytest
from browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from demo_site import IDENTIFIERS
from http_site import Fault
from local_demo_site import local_demo_site
from site_check_support import clean_site_checks, worker  # noqa: F401
from playwright.sync_api import Browser, expect

from ckanext.passport.conformance.shape import CSV_COLUMNS

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("with_plugins")]

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
    expect(publisher.locator(".passport-site-check-errors")).to_contain_text(
        "[site_check.private_address] 127.0.0.1 je v privátní, místní nebo zvláštní síti")

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
