"""The portal's harvest health (``passport_harvest_health``, sysadmins only): the sources whose last job failed (its
coded reason), is stalled (no progress past ``ckan.harvest.timeout``) or whose harvest is overdue by its frequency,
and none of the healthy ones.

The sources and their jobs are rows written once for the module with the times they need (hours or days ago); no
harvest runs and nothing sleeps.
"""
from __future__ import annotations

import datetime as dt

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj, HarvestObjectObj

from ckanext.passport.harvest.findings import save_gather_error
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once", "shared_plugins"),
              pytest.mark.ckan_config("ckan.harvest.timeout", "120"),
              pytest.mark.ckan_config("ckanext.passport.health_grace", "60")]

NOW = dt.datetime.utcnow()
NOT_DISCOVERED = problem("registry.not_discovered", site="http://127.0.0.1:9", tried=6)
TIMED_OUT = problem("harvest.job_timeout", minutes=120, last_action="2026-01-01 00:00 UTC")
LISTED = {"stalled-passport": "stalled", "unreadable-registry": "failed", "timed-out-lkod": "failed",
          "weekly-late": "overdue", "daily-never-harvested": "overdue"}


def _ago(**delta: float) -> dt.datetime:
    return NOW - dt.timedelta(**delta)


def _source(who: dict, name: str, frequency: str = "MANUAL", source_type: str = "passport",
            created: dt.datetime = NOW) -> str:
    source = call_action("harvest_source_create", context={"user": who["sysadmin"]}, name=name,
                         title=name.replace("-", " ").title(), url=f"http://127.0.0.1:9/{name}/list.csv",
                         source_type=source_type, frequency=frequency, owner_org=who["organization"],
                         config="")
    stored = HarvestSource.get(source["id"])
    stored.created = created
    stored.save()
    return source["id"]


def _job(source_id: str, status: str, at: dt.datetime, failure=None, waiting: bool = False) -> HarvestJob:
    """A job created, gathered and (when Finished) finished at ``at``; with a gather failure, or an entry still
    waiting for a fetch consumer."""
    job = HarvestJobObj(source=HarvestSource.get(source_id), run=False)
    job.status = status
    job.created = job.gather_started = job.gather_finished = at
    job.finished = at if status == "Finished" else None
    job.save()
    if failure is not None:
        save_gather_error(failure, job)
        model.Session.commit()
    if waiting:
        entry = HarvestObjectObj(guid=f"waiting-{job.id}", job=job)
        entry.state, entry.gathered = "WAITING", at
        entry.save()
    return job


@pytest.fixture(scope="module")
def portal(stack_once) -> dict:
    """Sources in every state, the healthy ones beside them (one organization's, made by one sysadmin)."""
    who = {"sysadmin": factories.Sysadmin()["name"], "organization": factories.Organization()["id"]}
    stalled = _source(who, "stalled-passport")
    stalled_job = _job(stalled, "Running", _ago(hours=5), waiting=True)
    _job(_source(who, "still-working", "DAILY"), "Running", _ago(minutes=30), waiting=True)
    unreadable = _source(who, "unreadable-registry", "DAILY")
    _job(unreadable, "Finished", _ago(days=2))
    failed_job = _job(unreadable, "Finished", _ago(hours=3), failure=NOT_DISCOVERED)
    _job(_source(who, "timed-out-lkod", source_type="lkod"), "Finished", _ago(hours=1), failure=TIMED_OUT)
    recovered = _source(who, "recovered-after-failure", "DAILY")
    _job(recovered, "Finished", _ago(days=2), failure=NOT_DISCOVERED)
    _job(recovered, "Finished", _ago(hours=2))
    weekly_late = _source(who, "weekly-late", "WEEKLY", created=_ago(days=60))
    late_job = _job(weekly_late, "Finished", _ago(days=9))
    _job(_source(who, "weekly-on-time", "WEEKLY", created=_ago(days=60)), "Finished", _ago(days=6))
    _job(_source(who, "manual-long-ago", created=_ago(days=400)), "Finished", _ago(days=400))
    _source(who, "daily-never-harvested", "DAILY", created=_ago(days=3))
    _source(who, "daily-just-created", "DAILY", created=_ago(hours=2))
    return {"stalled_job": stalled_job, "failed_job": failed_job, "late_job": late_job,
            "sysadmin": factories.SysadminWithToken(), "user": factories.UserWithToken()}


def _health(app, portal, prefix: str = "") -> dict:
    response = app.get(f"{prefix}/api/3/action/passport_harvest_health",
                       headers={"Authorization": portal["sysadmin"]["token"]})
    assert response.status_code == 200, response.body[-2000:]
    return response.json["result"]


@pytest.fixture
def rows(web, portal) -> dict[str, dict]:
    return {row["source_name"]: row for row in _health(web, portal)["rows"]}


def test_it_lists_the_failed_stalled_and_overdue_sources_and_no_healthy_one(rows):
    assert {name: row["state"] for name, row in rows.items()} == LISTED


def test_stalled_first_then_failed_then_overdue(web, portal):
    states = [row["state"] for row in _health(web, portal)["rows"]]
    assert states == sorted(states, key=["stalled", "failed", "overdue"].index)


def test_a_stalled_job_is_named_since_its_last_action(rows, portal):
    row = rows["stalled-passport"]
    assert row["code"] == "harvest.source_stalled"
    assert row["job_id"] == portal["stalled_job"].id
    assert row["since"] == portal["stalled_job"].gather_finished.isoformat()
    assert "more than 120 minutes" in row["message"]


def test_a_failed_job_gives_its_own_coded_reason(rows, portal):
    row = rows["unreadable-registry"]
    assert (row["code"], row["job_id"]) == ("registry.not_discovered", portal["failed_job"].id)
    assert row["message"] == NOT_DISCOVERED.message()
    assert row["since"] == portal["failed_job"].finished.isoformat()


def test_a_job_ended_past_the_timeout_is_failed_whatever_the_source_type(rows):
    assert (rows["timed-out-lkod"]["source_type"], rows["timed-out-lkod"]["code"]) == ("lkod", "harvest.job_timeout")


def test_an_overdue_source_is_due_since_its_last_finished_job_and_one_period(rows, portal):
    row = rows["weekly-late"]
    assert row["code"] == "harvest.source_overdue"
    assert row["last_finished"] == portal["late_job"].finished.isoformat()
    assert row["since"] == (portal["late_job"].finished + dt.timedelta(days=7)).isoformat()
    assert "every 7 days" in row["message"]


def test_a_source_never_harvested_is_overdue_from_its_creation(rows):
    row = rows["daily-never-harvested"]
    assert (row["last_finished"], row["job_id"]) == (None, None)
    assert row["code"] == "harvest.source_overdue"


def test_each_row_names_the_source_and_its_organization(rows):
    row = rows["weekly-late"]
    source = call_action("harvest_source_show", id=row["source_id"])
    organization = call_action("organization_show", id=source["owner_org"])
    assert (row["source_title"], row["source_type"], row["frequency"]) == ("Weekly Late", "passport", "WEEKLY")
    assert (row["organization_id"], row["organization_name"], row["organization_title"]) == (
        organization["id"], organization["name"], organization["title"])


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_reasons_speak_the_reader_s_language(web, portal, lang):
    rows = {row["source_name"]: row for row in _health(web, portal, f"/{lang}")["rows"]}
    message = rows["unreadable-registry"]["message"]
    assert message == NOT_DISCOVERED.message(translator(lang))
    assert message != NOT_DISCOVERED.message()


@pytest.mark.parametrize("who", ["user", "anonymous"])
def test_anyone_but_a_sysadmin_is_refused(web, portal, who):
    headers = {"Authorization": portal["user"]["token"]} if who == "user" else {}
    response = web.get("/api/3/action/passport_harvest_health", headers=headers)
    assert response.status_code == 403
