"""No object stays mid-stage: ``harvest_jobs_run`` (``ckan harvester run``) makes an object left in FETCH or IMPORT
for longer than twice the object budget an error, so that its job finishes and the next job can start."""
from __future__ import annotations

import datetime

import pytest
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj, HarvestObjectObj

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

BUDGET = 10  # seconds: stalled after 20


@pytest.fixture
def running_job(harvest_source) -> HarvestJob:
    """A running, gathered job of a passport source."""
    source = HarvestSource.get(harvest_source("http://127.0.0.1:9/opendata/list.csv")["id"])
    job = HarvestJobObj(source=source, run=False)
    job.status = "Running"
    job.gather_started = job.gather_finished = datetime.datetime.utcnow() - datetime.timedelta(minutes=5)
    job.save()
    return job


def _object_in(job: HarvestJob, state: str, seconds_ago: float, guid: str) -> HarvestObject:
    harvest_object = HarvestObjectObj(guid=guid, job=job)
    started = datetime.datetime.utcnow() - datetime.timedelta(seconds=seconds_ago)
    harvest_object.state = state
    harvest_object.fetch_started = started
    if state == "IMPORT":
        harvest_object.import_started = started
    harvest_object.save()
    return harvest_object


@pytest.mark.ckan_config("ckanext.passport.harvest_object_budget", BUDGET)
@pytest.mark.parametrize("state", ["FETCH", "IMPORT"])
def test_an_object_stalled_mid_stage_becomes_an_error_and_its_job_finishes(running_job, state):
    stalled = _object_in(running_job, state, seconds_ago=3 * BUDGET, guid="stalled")
    call_action("harvest_jobs_run", source_id=running_job.source_id)
    stalled = HarvestObject.get(stalled.id)
    assert (stalled.state, stalled.report_status) == ("ERROR", "errored")
    assert [error.message.split("]")[0] for error in stalled.errors] == ["[harvest.object_stalled"]
    assert HarvestJob.get(running_job.id).status == "Finished"


@pytest.mark.ckan_config("ckanext.passport.harvest_object_budget", BUDGET)
def test_an_object_still_within_twice_the_budget_is_left_to_its_consumer(running_job):
    working = _object_in(running_job, "IMPORT", seconds_ago=BUDGET, guid="working")
    call_action("harvest_jobs_run", source_id=running_job.source_id)
    assert HarvestObject.get(working.id).state == "IMPORT"
    assert HarvestJob.get(running_job.id).status == "Running"


@pytest.mark.ckan_config("ckanext.passport.harvest_object_budget", BUDGET)
def test_the_next_job_of_the_source_can_start_once_the_stalled_one_finished(running_job):
    _object_in(running_job, "FETCH", seconds_ago=3 * BUDGET, guid="stalled")
    call_action("harvest_jobs_run", source_id=running_job.source_id)
    job = call_action("harvest_job_create", source_id=running_job.source_id, run=False)
    assert job["status"] == "New"


@pytest.mark.ckan_config("ckanext.passport.harvest_object_budget", BUDGET)
def test_the_stalled_error_is_translated_for_the_reader(web, running_job):
    from ckan.tests import factories

    _object_in(running_job, "IMPORT", seconds_ago=3 * BUDGET, guid="stalled")
    call_action("harvest_jobs_run", source_id=running_job.source_id)
    sysadmin = factories.SysadminWithToken()
    source = call_action("harvest_source_show", id=running_job.source_id)
    page = web.get(f"/cs/harvest/{source['name']}/job/{running_job.id}", headers={"Authorization": sysadmin["token"]})
    assert "<code>harvest.object_stalled</code>" in page.body
    assert "nedokončila do 20 sekund" in page.body
