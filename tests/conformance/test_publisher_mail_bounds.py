"""The mails a source makes the portal send outside it are bounded by the site (issue 37): no source mails the MR
publishers while the site option ``ckanext.passport.notify_publishers`` is off, whatever its config asks, and the
jobs of one source mail at most ``ckanext.passport.notify_publishers_per_day`` publishers' contacts a day.

One source, its config set by a sysadmin to mail its publishers, harvests a private copy of the demo site twice: a
first job, then one after two passports with different contacts (and so two publishers to mail) lost their creator. The tests announce the second
job's end again under the settings they set.
"""
from __future__ import annotations

import re
import shutil

import pytest
from ckan import model
from ckan.tests import factories
from tests.support.demo_site import DEMO_SITE
from tests.support.smtp_sink import SmtpSink

from ckanext.passport.conformance import notices
from ckanext.passport.conformance.notices.model import JOB, PUBLISHER, NoticeSent

SINK = SmtpSink()
pytestmark = [
    pytest.mark.stack,
    pytest.mark.ckan_config("smtp.server", SINK.address),
    pytest.mark.ckan_config("ckanext.passport.notify_sources", "true"),
]

BUSTOPS, SCHOOLS = "5027123457-bustops", "7701234560-schools"
ADMIN_MAIL = "admin@bounds.example.ru"


@pytest.fixture(scope="module", autouse=True)
def sink():
    with SINK.serving() as serving:
        yield serving


def _harvest(site_root, serve_site, harvest_source, run_harvest) -> tuple[dict, str]:
    admin = factories.User(email=ADMIN_MAIL)
    organization = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}])
    shutil.copytree(DEMO_SITE, site_root)
    site = serve_site(site_root)
    source = harvest_source(f"{site.url}/opendata/list.csv",
                            {"allow_private_addresses": True, "notify_publisher": True},
                            name="bounded-source", owner_org=organization["id"])
    run_harvest(source)
    opendata = site_root / "opendata"
    bustops = opendata / BUSTOPS / "meta.json"
    bustops.write_text(bustops.read_text("utf-8").replace('"creator": "Администрация городского округа Люберцы",', ""),
                       "utf-8")
    schools = opendata / SCHOOLS / "meta.xml"
    schools.write_text(re.sub(r"<creator>[^<]*</creator>", "", schools.read_text("utf-8")), "utf-8")
    _, job = run_harvest(source)
    return source, job["id"]


@pytest.fixture
def worse_job(built_once, tmp_path_factory, serve_site, harvest_source, run_harvest) -> tuple[dict, str]:
    """The source and its job that got worse, with no publisher mailed yet."""
    source, job_id = built_once("worse", lambda: _harvest(tmp_path_factory.mktemp("bounds") / "site", serve_site,
                                                          harvest_source, run_harvest))
    model.Session.query(NoticeSent).filter(NoticeSent.kind == PUBLISHER).delete()
    model.Session.commit()
    return source, job_id


def _announce(job_id: str) -> list[str]:
    """Let the job's end be announced again; the publishers' contacts it mailed (all but the admin)."""
    model.Session.query(NoticeSent).filter(NoticeSent.kind == JOB, NoticeSent.about == job_id).delete()
    model.Session.commit()
    before = len(SINK.messages)
    notices.job_finished(job_id)
    sent = [address for recipients, _ in SINK.messages[before:] for address in recipients]
    assert ADMIN_MAIL in sent  # the job is one that got worse: its organization's admin hears of it
    return [address for address in sent if address != ADMIN_MAIL]


def test_a_source_does_not_mail_its_publishers_while_the_site_option_is_off(worse_job):
    _, job_id = worse_job

    assert _announce(job_id) == []


def test_the_jobs_of_a_source_mail_at_most_the_sites_daily_number_of_publishers(worse_job, ckan_config, monkeypatch):
    _, job_id = worse_job
    monkeypatch.setitem(ckan_config, "ckanext.passport.notify_publishers", "true")
    monkeypatch.setitem(ckan_config, "ckanext.passport.notify_publishers_per_day", "1")

    [first] = _announce(job_id)
    # Another job of the source the same day: the other contact, not mailed this week, waits for tomorrow.
    assert _announce(job_id) == []

    monkeypatch.setitem(ckan_config, "ckanext.passport.notify_publishers_per_day", "10")
    rest = _announce(job_id)
    assert rest and first not in rest
