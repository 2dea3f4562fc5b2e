"""A job that never finishes is ended with a coded reason: past ckanext-harvest's ``ckan.harvest.timeout`` (minutes
without progress), ``harvest_jobs_run`` (``ckan harvester run``) ends a running job of our source types with the
finding ``harvest.job_timeout``, shown in the reader's language on the job page and the Conformance tab.

The jobs' times are set in the database (hours ago), nothing sleeps.
"""
from __future__ import annotations

import datetime
import json

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestGatherError, HarvestJob, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj, HarvestObjectObj

from ckanext.passport.harvest.findings import HarvestFinding

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once", "shared_plugins")]

TIMEOUT = 120  # minutes
STILL = "[harvest.job_timeout]"


def _running_job(source_id: str, idle_minutes: float) -> HarvestJob:
    """A running job of the source, gathered ``idle_minutes`` ago, its one object waiting for a fetch consumer
    since (a job with nothing left to do would simply be finished)."""
    job = HarvestJobObj(source=HarvestSource.get(source_id), run=False)
    then = datetime.datetime.utcnow() - datetime.timedelta(minutes=idle_minutes)
    job.status = "Running"
    job.created = job.gather_started = job.gather_finished = then
    job.save()
    waiting = HarvestObjectObj(guid="waiting", job=job)
    waiting.state, waiting.gathered = "WAITING", then
    waiting.save()
    return job


def _lkod_source(name: str) -> dict:
    return call_action("harvest_source_create", context={"user": factories.Sysadmin()["name"]}, name=name,
                       title="Another LKOD", url=f"http://127.0.0.1:9/{name}/catalog", source_type="lkod",
                       owner_org=factories.Organization()["id"], config="")


def _gather_messages(job_id: str) -> list[str]:
    return [message for (message,) in model.Session.query(HarvestGatherError.message).filter_by(harvest_job_id=job_id)]


@pytest.fixture(scope="module")
def timed_out(stack_once, harvest_source) -> dict:
    """A passport source whose running job has been idle for three hours, ended by one ``harvest_jobs_run`` with
    the timeout set; built once, the tests read it."""
    source = harvest_source("http://127.0.0.1:9/opendata/list.csv", name="idle-source", title="Idle MR site")
    job = _running_job(source["id"], idle_minutes=180)
    with _timeout(TIMEOUT):
        call_action("harvest_jobs_run", source_id=source["id"])
    return {"source": source, "job_id": job.id, "sysadmin": factories.SysadminWithToken()}


class _timeout:
    """``ckan.harvest.timeout`` set for a block (a module fixture cannot take ``ckan_config`` marks)."""

    def __init__(self, minutes: int) -> None:
        self.minutes = minutes

    def __enter__(self) -> None:
        from ckan.common import config

        self.before = config.get("ckan.harvest.timeout")
        config["ckan.harvest.timeout"] = str(self.minutes)

    def __exit__(self, *exc) -> None:
        from ckan.common import config

        config["ckan.harvest.timeout"] = self.before


def test_a_job_idle_past_the_timeout_is_finished(timed_out):
    job = HarvestJob.get(timed_out["job_id"])
    assert job.status == "Finished"
    assert job.finished is not None


def test_its_one_gather_error_is_the_coded_timeout_not_ckanext_harvests_plain_text(timed_out):
    (message,) = _gather_messages(timed_out["job_id"])
    assert message.startswith(f"{STILL} error: The harvest job made no progress for more than {TIMEOUT} minutes")


def test_the_finding_keeps_the_timeout_and_the_last_action_time(timed_out):
    job = HarvestJob.get(timed_out["job_id"])
    finding = (model.Session.query(HarvestFinding)
               .join(HarvestGatherError, HarvestGatherError.id == HarvestFinding.error_id)
               .filter(HarvestGatherError.harvest_job_id == job.id).one())
    params = json.loads(finding.finding)["params"]
    assert finding.code == "harvest.job_timeout"
    assert params == {"minutes": TIMEOUT, "last_action": f"{job.gather_finished:%Y-%m-%d %H:%M} UTC"}


@pytest.mark.parametrize("prefix, severity", [("/cs", "chyba"), ("/ru", "ошибка")])
def test_the_job_page_shows_the_finding_in_the_reader_s_language(web, timed_out, prefix, severity):
    source, token = timed_out["source"], timed_out["sysadmin"]["token"]
    page = web.get(f"{prefix}/harvest/{source['name']}/job/{timed_out['job_id']}", headers={"Authorization": token})
    assert page.status_code == 200
    # A sentence in the reader's language after its severity, its code apart in small type (issue 41).
    assert f">{severity}</span>" in page.body
    assert "<code>harvest.job_timeout</code>" in page.body
    assert f"{STILL} {severity}: " not in page.body


def test_the_job_report_api_speaks_russian_under_ru(web, timed_out):
    response = web.get("/ru/api/3/action/harvest_job_report", params={"id": timed_out["job_id"]},
                       headers={"Authorization": timed_out["sysadmin"]["token"]})
    (error,) = response.json["result"]["gather_errors"]
    assert error["message"].startswith(f"{STILL} ошибка: ")


def test_the_conformance_tab_lists_the_timeout_among_the_site_s_findings(web, timed_out):
    source, token = timed_out["source"], timed_out["sysadmin"]["token"]
    page = web.get(f"/cs/harvest/{source['name']}/conformance", headers={"Authorization": token})
    assert page.status_code == 200
    assert "harvest.job_timeout" in page.body


def test_the_next_job_of_the_source_can_start(timed_out):
    job = call_action("harvest_job_create", source_id=timed_out["source"]["id"], run=False)
    assert job["status"] == "New"


def test_a_job_idle_for_less_than_the_timeout_keeps_running(harvest_source):
    source = harvest_source("http://127.0.0.1:9/busy/list.csv", name="busy-source")
    job = _running_job(source["id"], idle_minutes=TIMEOUT - 5)
    with _timeout(TIMEOUT):
        call_action("harvest_jobs_run", source_id=source["id"])
    assert HarvestJob.get(job.id).status == "Running"
    assert _gather_messages(job.id) == []


def test_without_a_timeout_no_job_is_ended(harvest_source):
    source = harvest_source("http://127.0.0.1:9/untimed/list.csv", name="untimed-source")
    job = _running_job(source["id"], idle_minutes=10 * TIMEOUT)
    call_action("harvest_jobs_run", source_id=source["id"])
    assert HarvestJob.get(job.id).status == "Running"


def test_an_lkod_source_s_idle_job_gets_the_same_coded_reason():
    source = _lkod_source("idle-lkod")
    job = _running_job(source["id"], idle_minutes=180)
    with _timeout(TIMEOUT):
        call_action("harvest_jobs_run", source_id=source["id"])
    assert HarvestJob.get(job.id).status == "Finished"
    assert [message.split("]")[0] for message in _gather_messages(job.id)] == [STILL[:-1]]


def test_the_scoreboard_counts_it_a_failed_job_with_its_coded_reason(timed_out):
    from ckanext.passport.conformance.scoreboard.model import FAILED, JobSummary

    summary = JobSummary.get(timed_out["job_id"])
    assert summary is not None
    assert (summary.status, summary.failure_code) == (FAILED, "harvest.job_timeout")
