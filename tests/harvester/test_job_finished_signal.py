"""Each job of our source types that a ``harvest_jobs_run`` finishes is announced once by one signal,
``harvest.recovery.job_finished`` (sender: the job's id; ``source_type``): a job ended past ``ckan.harvest.timeout``
as well as one ckanext-harvest marked finished, of either type. Whoever acts on a finished job subscribes to it
(passport_conformance through CKAN's ISignal, tests/conformance/test_job_summary.py), instead of a second chain of
the run reading a context key the first one wrote (issue 43)."""
from __future__ import annotations

import datetime
from contextlib import contextmanager

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj, HarvestObjectObj

from ckanext.passport.harvest import recovery

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]


@contextmanager
def announced():
    """The (job id, source type) pairs ``job_finished`` announced inside the block."""
    heard: list[tuple[str, str]] = []

    def hear(job_id: str, source_type: str, **_) -> None:
        heard.append((job_id, source_type))

    recovery.job_finished.connect(hear)
    try:
        yield heard
    finally:
        recovery.job_finished.disconnect(hear)


def _source(source_type: str) -> dict:
    url = "http://127.0.0.1:9/catalog" if source_type == "lkod" else "http://127.0.0.1:9/opendata/list.csv"
    return call_action("harvest_source_create", context={"user": factories.Sysadmin()["name"]},
                       name=f"signal-{source_type}", title="A source", url=url, source_type=source_type,
                       owner_org=factories.Organization()["id"], config="")


def _running_job(source: dict, idle_minutes: float, object_state: str) -> HarvestJob:
    """A running job gathered ``idle_minutes`` ago, its one object in ``object_state`` since."""
    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    then = datetime.datetime.utcnow() - datetime.timedelta(minutes=idle_minutes)
    job.status = "Running"
    job.created = job.gather_started = job.gather_finished = then
    job.save()
    only = HarvestObjectObj(guid="only", job=job)
    only.state, only.gathered = object_state, then
    if object_state == "COMPLETE":
        only.import_finished = then
    only.save()
    return job


@pytest.mark.ckan_config("ckan.harvest.timeout", "120")
def test_a_job_ended_past_the_timeout_is_announced_with_its_sources_type():
    job = _running_job(_source("lkod"), idle_minutes=180, object_state="WAITING")
    with announced() as heard:
        call_action("harvest_jobs_run")
    assert heard == [(job.id, "lkod")]


def test_a_job_ckanext_harvest_marks_finished_is_announced_once():
    job = _running_job(_source("passport"), idle_minutes=5, object_state="COMPLETE")
    with announced() as heard:
        call_action("harvest_jobs_run")
        call_action("harvest_jobs_run")
    assert heard == [(job.id, "passport")]


def test_a_job_still_running_is_not_announced():
    _running_job(_source("passport"), idle_minutes=5, object_state="WAITING")
    with announced() as heard:
        call_action("harvest_jobs_run")
    assert heard == []
