"""An organization admin reads the conformance mail of a harvest that got worse, follows its link and lands on the
source's Conformance tab for that job, then reads it in Czech (issue 25's walk; docs/scoreboard.md "Mail").

The district's MR site of the demo (dev/demo-region, one passport) is copied and harvested twice in-process, its
second edition in place for the second job: a data version listed whose file was never uploaded. The test process
ends the jobs (ckanext-harvest's harvest_jobs_run), so its config is the one that mails: the loopback SMTP sink, every
source opted in, and the live server's address as the site's, so that the mail's link leads to the live portal.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, expect
from tests.support.smtp_sink import SmtpSink, body

SINK = SmtpSink()  # bound now, so the marks below can name it; it answers while the module runs
pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("smtp.server", SINK.address),
    pytest.mark.ckan_config("ckanext.passport.notify_sources", "true"),
]

REGION = Path(__file__).resolve().parents[2] / "dev" / "demo-region"
SOURCE = "mr-district-libraries"
ADMIN_MAIL = "spravce@obec.example.cz"


@pytest.fixture(scope="module", autouse=True)
def sink():
    with SINK.serving() as serving:
        yield serving


def test_an_organization_admin_follows_the_mail_of_a_worse_job_to_its_conformance_tab(
    browser: Browser, live_ckan: str, ckan_config, monkeypatch, tmp_path, serve_site, harvest_source, run_harvest
):
    monkeypatch.setitem(ckan_config, "ckan.site_url", live_ckan)
    admin = factories.User(email=ADMIN_MAIL, password=PASSWORD)
    organization = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}])
    root = tmp_path / "site"
    shutil.copytree(REGION / "opendata", root / "opendata")
    site = serve_site(root)
    source = harvest_source(f"{site.url}/opendata/list.csv", {"allow_private_addresses": True, "check_data": True},
                            name=SOURCE, title="Knihovny okresu", owner_org=organization["id"])
    run_harvest(source)
    assert SINK.to(ADMIN_MAIL) == [], "a source's first job that did not fail is never worse"
    # Copied as published now (shutil.copy: a new modification time, or the conditional fetch would be told 304).
    shutil.copytree(REGION / "second-edition" / "opendata", root / "opendata", dirs_exist_ok=True,
                    copy_function=shutil.copy)
    _, job = run_harvest(source)

    # One mail, to the organization's admin, whose link names the job.
    [mail] = SINK.to(ADMIN_MAIL)
    link = re.search(r"^\s*(https?://\S+/conformance\?job_id=\S+)$", body(mail), re.MULTILINE).group(1)
    assert link == f"{live_ckan}/harvest/{SOURCE}/conformance?job_id={job['id']}"

    # Signed in, the admin opens the link as mailed: the tab, on that job.
    page = sign_in(browser, live_ckan, admin, locale="cs")
    page.goto(link)
    summary = page.locator(".passport-conformance-summary")
    expect(summary.locator("[data-summary=mean_score]")).to_have_text("80")
    expect(summary.locator("[data-summary=conformant]")).to_have_text("0")

    # The same address under /cs/: the tab in Czech, the job's new finding listed with its Czech message.
    address = urlsplit(link)
    page.goto(f"/cs{address.path}?{address.query}")
    expect(page.locator(".nav-tabs")).to_contain_text("Soulad s MR")
    expect(summary).to_contain_text("Průměrné hodnocení")
    expect(summary.locator("[data-summary=mean_score]")).to_have_text("80")
    row = page.locator(".passport-conformance-row[data-identifier='5031012340-libraries']")
    finding = row.locator(".passport-finding[data-code='fetch.not_found']")
    expect(finding).to_be_visible()
    expect(finding).to_contain_text("404")
    assert "file not found" not in finding.inner_text(), "the finding's message is Czech, not English"
