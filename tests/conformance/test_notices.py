"""Conformance mails (issue 25, docs/scoreboard.md "Mail"): real harvests of the demo site, a real SMTP server.

One source harvests a private copy of the demo site six times, each mail the portal sends kept by the step that
sent it: a first job, an unchanged one, one after a passport broke, one after another broke, one whose registry
is gone, one after it came back. The tests read those steps; the others call the notices again on the kept jobs
with other settings.
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import shutil
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest
from ckan import model
from ckan.tests import factories
from click.testing import CliRunner
from tests.support.demo_site import DEMO_SITE
from tests.support.smtp_sink import SmtpSink, body

from ckanext.passport.conformance import notices
from ckanext.passport.conformance.harvest.report import StoredPassport
from ckanext.passport.conformance.harvest.views import meaning
from ckanext.passport.conformance.notices import changes, jobs
from ckanext.passport.conformance.notices.cli import notices_group
from ckanext.passport.conformance.notices.digest import send_digests
from ckanext.passport.conformance.notices.model import NoticeSent, OptOut, opted_out
from ckanext.passport.conformance.notices.tokens import link as unsubscribe_link
from ckanext.passport.conformance.scoreboard.model import FAILED, FINISHED, JobSummary
from ckanext.passport.mr.translation import translator

SINK = SmtpSink()  # bound now, so the marks below can name it; it answers while the module runs (sink fixture)
pytestmark = [
    pytest.mark.stack,
    pytest.mark.ckan_config("smtp.server", SINK.address),
    pytest.mark.ckan_config("ckanext.passport.notify_sources", "true"),
    # The source's notify_publisher mails publishers only under the site's (issue 37).
    pytest.mark.ckan_config("ckanext.passport.notify_publishers", "true"),
]

BUSTOPS, SCHOOLS = "5027123457-bustops", "7701234560-schools"
BUSTOPS_MBOX, SCHOOLS_MBOX = "transport@lubreg.example.ru", "opendata@edu.example.ru"
ADMIN_MAIL, EDITOR_MAIL = "admin@org.example.ru", "editor@org.example.ru"


@pytest.fixture(scope="module", autouse=True)
def sink():
    with SINK.serving() as serving:
        yield serving


@dataclass
class Harvested:
    source: dict
    jobs: list[str] = field(default_factory=list)
    # The mails each job's end sent: [(recipients, message)] per job, in job order.
    mails: list[list[tuple[list[str], EmailMessage]]] = field(default_factory=list)

    def to(self, step: int, address: str) -> list[EmailMessage]:
        return [message for recipients, message in self.mails[step] if address in recipients]


def _harvest(site_root, serve_site, harvest_source, run_harvest) -> Harvested:
    admin = factories.User(email=ADMIN_MAIL)
    editor = factories.User(email=EDITOR_MAIL)
    organization = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"},
                                                 {"name": editor["name"], "capacity": "editor"}])
    shutil.copytree(DEMO_SITE, site_root)
    site = serve_site(site_root)
    opendata = site_root / "opendata"
    source = harvest_source(f"{site.url}/opendata/list.csv",
                            {"allow_private_addresses": True, "notify_publisher": True, "notify_score_drop": 4},
                            name="notified-source", title="Notified source", owner_org=organization["id"])
    harvested = Harvested(source)

    def run() -> None:
        before = len(SINK.messages)
        _, job = run_harvest(source)
        harvested.jobs.append(job["id"])
        harvested.mails.append(SINK.messages[before:])

    run()  # 0: the first job
    run()  # 1: nothing changed
    bustops = opendata / BUSTOPS / "meta.json"
    bustops.write_text(bustops.read_text("utf-8").replace('"creator": "Администрация городского округа Люберцы",', ""),
                       "utf-8")
    run()  # 2: the bus stops' passport lost its creator
    schools = opendata / SCHOOLS / "meta.xml"
    schools.write_text(re.sub(r"<creator>[^<]*</creator>", "", schools.read_text("utf-8")), "utf-8")
    run()  # 3: the schools' passport too
    registry = ("list.csv", "list.json", "list.xml", "opendatalist.csv", "index.html")
    for name in registry:
        (opendata / name).unlink()
    run()  # 4: the registry is gone
    for name in registry:
        shutil.copy(DEMO_SITE / "opendata" / name, opendata / name)
    run()  # 5: it is back, the passports as in job 3
    return harvested


@pytest.fixture
def harvested(built_once, tmp_path_factory, serve_site, harvest_source, run_harvest) -> Harvested:
    return built_once("harvested", lambda: _harvest(tmp_path_factory.mktemp("notices") / "site", serve_site,
                                                   harvest_source, run_harvest))


def _again(job_id: str) -> list[tuple[list[str], EmailMessage]]:
    """Forget that the job was mailed and let its end be announced again; the mails that sent."""
    model.Session.query(NoticeSent).filter(NoticeSent.about == job_id).delete()
    model.Session.commit()
    before = len(SINK.messages)
    notices.job_finished(job_id)
    return SINK.messages[before:]


def test_a_first_job_and_an_unchanged_job_are_not_mailed(harvested):
    assert harvested.mails[0] == [] and harvested.mails[1] == []


def test_a_job_whose_errors_grew_is_mailed_once_to_the_organization_admins(harvested):
    [mail] = harvested.to(2, ADMIN_MAIL)
    assert harvested.to(2, EDITOR_MAIL) == []
    assert mail["Subject"] == "[CKAN passport tests] The harvest of Notified source got worse"
    text = body(mail)
    assert "Error findings: 1 before, 2 now." in text
    assert "New findings by code:" in text
    assert "1 passport conformed before and does not now:" in text and f"  {BUSTOPS}" in text
    assert f"http://test.ckan.net/harvest/notified-source/conformance?job_id={harvested.jobs[2]}" in text
    # harvester run passes a finished job again: it is not mailed twice.
    sent = len(SINK.messages)
    notices.job_finished(harvested.jobs[2])
    assert len(SINK.messages) == sent


def test_a_job_whose_mean_score_dropped_by_the_sources_points_says_by_how_much(harvested):
    """The source asks for a drop of 4 points (the site's 5 by default); the bus stops' broken passport cost 4.1."""
    before, now = (JobSummary.get(job) for job in harvested.jobs[1:3])
    assert 4 <= before.mean_score - now.mean_score < 5
    assert f"Mean score: {before.mean_score:g} before, {now.mean_score:g} now." in body(harvested.to(2, ADMIN_MAIL)[0])


def _summary(**values: Any) -> JobSummary:
    row = {"status": FINISHED, "failure_code": None, "errors": 3, "mean_score": 80.0, "codes": {"a.b": 1}}
    return JobSummary(job_id="j", source_id="s", publisher_key="k", finished=dt.datetime(2026, 1, 1),
                      **{**row, **values})


def test_a_score_dropped_by_the_set_points_alone_is_worse():
    before = _summary()
    assert changes.worse(_summary(mean_score=75.0), before, 5).reasons == [changes.SCORE_DROPPED]
    assert changes.worse(_summary(mean_score=75.5), before, 5).reasons == []
    assert changes.worse(_summary(mean_score=75.5), before, 4).reasons == [changes.SCORE_DROPPED]
    assert changes.worse(_summary(errors=2, mean_score=90.0), before, 5).reasons == []


def test_a_source_config_overrides_the_site_options(harvest_source, shared_plugins):
    from ckanext.harvest.model import HarvestSource

    quiet = harvest_source("http://127.0.0.1:9/opendata/",
                           {"notify": False, "notify_score_drop": 12, "notify_publisher": False}, name="quiet-source")
    chosen = jobs.choices(HarvestSource.get(quiet["id"]))
    assert (chosen.notify, chosen.score_drop, chosen.publisher) == (False, 12, False)


def test_a_job_that_could_not_read_its_registry_is_mailed_with_the_reason(harvested):
    failed = JobSummary.get(harvested.jobs[4])
    assert failed.status == FAILED
    [mail] = harvested.to(4, ADMIN_MAIL)
    assert f"It could not read the registry: [{failed.failure_code}] {harvested.source['url']} " in body(mail)


def test_a_job_that_recovered_from_a_failed_one_is_compared_with_the_job_before_the_failure(harvested):
    """Job 5 reads the passports job 3 read: against the failed job 4 (the site's errors only, no mean) it would look
    worse; against job 3 it is no worse."""
    recovered = JobSummary.get(harvested.jobs[5])
    assert recovered.status == FINISHED and recovered.errors > JobSummary.get(harvested.jobs[4]).errors
    assert changes.baseline(recovered).job_id == harvested.jobs[3]
    assert harvested.mails[5] == []


def test_the_publisher_is_mailed_at_most_once_a_week_with_the_corrected_files(harvested):
    [mail] = harvested.to(2, BUSTOPS_MBOX)
    text = body(mail)
    assert f"  {BUSTOPS}" in text
    assert "http://test.ckan.net/harvest/notified-source/conformance/" in text and "/meta.json" in text
    # The next job broke the schools' passport: its own contact is told, the bus stops' is not told again.
    assert harvested.to(3, BUSTOPS_MBOX) == [] and len(harvested.to(3, SCHOOLS_MBOX)) == 1


def test_a_source_not_opted_in_is_not_mailed(harvested, ckan_config, monkeypatch):
    # (A test's own ckan_config mark would be overridden by the module's: CKAN applies the closest mark first.)
    assert _again(harvested.jobs[3]) != []
    monkeypatch.setitem(ckan_config, "ckanext.passport.notify_sources", "false")
    assert _again(harvested.jobs[3]) == []


@pytest.mark.parametrize("mbox, address", [
    ("opendata@edu.example.ru", "opendata@edu.example.ru"), ("mailto:a@b.ru ", "a@b.ru"), ("a@b", ""),
    ("a@b.ru\r\nBcc: c@d.ru", ""), ("a@b.ru, c@d.ru", ""), ("Ivan <a@b.ru>", ""), ("", ""),
])
def test_a_publishers_contact_is_one_plain_address_or_none(mbox, address):
    """The publisher writes publishermbox and the portal puts it in a mail header: nothing else gets through."""
    stored = StoredPassport(object_id="o", guid="g", package_id=None, identifier="i", title="", url="",
                            passport={"publisher": {"mbox": mbox}})
    assert changes.publisher_mbox(stored) == address


def test_the_mail_is_in_the_sites_language(harvested, ckan_config, monkeypatch):
    # Set once the module's harvests are made (a mark would make them in Czech when this test runs first).
    monkeypatch.setitem(ckan_config, "ckan.locale_default", "cs")
    [text] = [body(message) for recipients, message in _again(harvested.jobs[4]) if ADMIN_MAIL in recipients]
    code = JobSummary.get(harvested.jobs[4]).failure_code
    assert meaning(code, translator("cs")) in text and meaning(code, translator("cs")) != meaning(code, translator("en"))


@pytest.mark.parametrize("server", [None, "", "localhost"])
def test_nothing_is_mailed_or_logged_without_an_smtp_server(harvested, ckan_config, monkeypatch, caplog, server):
    if server is None:
        monkeypatch.delitem(ckan_config, "smtp.server", raising=False)
    else:
        monkeypatch.setitem(ckan_config, "smtp.server", server)
    attempts = []
    monkeypatch.setattr("ckanext.passport.mail.mail_recipient",
                        lambda *args, **kwargs: attempts.append(args))
    logger = logging.getLogger("ckanext")
    logger.addHandler(caplog.handler)  # the test ini's ckanext logger does not propagate to caplog's root handler
    try:
        caplog.set_level(logging.INFO, logger="ckanext")
        assert _again(harvested.jobs[3]) == [] and attempts == []
        assert CliRunner().invoke(notices_group, ["digest"]).output == "smtp.server is not set: no mail sent.\n"
    finally:
        logger.removeHandler(caplog.handler)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_the_weekly_digest_sums_up_each_sources_week_once(harvested):
    result = CliRunner().invoke(notices_group, ["digest"])
    assert result.exit_code == 0, result.output
    [digest] = [m for m in SINK.to(ADMIN_MAIL) if "This week's conformance" in m["Subject"]]
    text = body(digest)
    assert "Notified source" in text and "6 harvests finished, 1 failed" in text
    assert CliRunner().invoke(notices_group, ["digest"]).output == "0 digests sent.\n"


def test_an_organization_title_that_breaks_lines_is_mailed_on_one_line_and_the_digest_goes_on(harvest_source,
                                                                                             shared_plugins):
    """Its subject made the email package raise ValueError, and every organization after it got no digest (issue
    37). The digest takes the organizations in the order of their sources' titles."""
    first_admin, next_admin = factories.User(), factories.User()
    first = factories.Organization(title="Line\nbreaks\u2028in  a title",
                                   users=[{"name": first_admin["name"], "capacity": "admin"}])
    after = factories.Organization(users=[{"name": next_admin["name"], "capacity": "admin"}])
    harvest_source("http://first.example/opendata/list.csv", name="digest-first", title="A digest's first source",
                   owner_org=first["id"])
    harvest_source("http://next.example/opendata/list.csv", name="digest-next", title="B digest's next source",
                   owner_org=after["id"])
    send_digests()
    [mailed] = SINK.to(first_admin["email"])
    assert mailed["Subject"].endswith("This week's conformance of Line breaks in a title")
    assert len(SINK.to(next_admin["email"])) == 1


def test_an_unsubscribe_post_without_the_forms_csrf_token_is_refused(web):
    address = "kontakt-bez-tokenu@example.cz"
    path = unsubscribe_link(address).removeprefix("http://test.ckan.net")
    web.post(path, data={}, status=400)
    web.post(path, data={"_csrf_token": "not-the-forms-token"}, status=400)
    assert not opted_out(address)


def test_the_unsubscribe_link_stops_the_mails(harvested, web):
    link = re.search(r"To receive no more of these mails: (\S+)", body(harvested.to(2, ADMIN_MAIL)[0])).group(1)
    path = link.removeprefix("http://test.ckan.net")
    contact = web.test_client()  # one cookie jar: the form's CSRF token is checked against its session
    page = contact.get(path)
    assert ADMIN_MAIL in page.body and not opted_out(ADMIN_MAIL)
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page.body).group(1)
    try:
        done = contact.post(path, data={"_csrf_token": token})
        assert "receives no more conformance mails" in done.body and opted_out(ADMIN_MAIL)
        assert [r for r, _ in _again(harvested.jobs[4]) if ADMIN_MAIL in r] == []
        assert web.get(path[:-3] + "xyz", status=404)
    finally:  # the module's other tests mail the admin, in whatever order they run
        model.Session.query(OptOut).filter(OptOut.address == ADMIN_MAIL).delete()
        model.Session.commit()
