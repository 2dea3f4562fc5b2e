"""A harvest job runs by itself on a portal's harvest machinery, as it does in `make demo`.

Nothing here runs a harvest stage in-process: the job is only created, as the source page's "Reharvest" creates
it, and the gather consumer, fetch consumer and periodic `ckan harvester run` started as separate processes
(tests/support/harvest_processes.py) must take it to "Finished".
"""
from __future__ import annotations

import time

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

DEMO_SITE_DATASETS = 6


def wait_for_job(job_id: str, seconds: float) -> dict:
    """The job once it is finished, or as it stands after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        model.Session.remove()  # read what the consumers committed, not this session's cached rows
        job = call_action("harvest_job_show", id=job_id)
        if job["status"] == "Finished" or time.monotonic() > deadline:
            return job
        time.sleep(1)


def test_a_job_created_to_run_finishes_with_every_dataset_within_a_minute(
    demo_site, harvest_source, harvest_machinery: HarvestProcesses
):
    source = harvest_source(f"{demo_site.url}/opendata/", {"allow_private_addresses": True})
    job = call_action("harvest_job_create", source_id=source["id"], run=True)

    finished = wait_for_job(job["id"], 60)

    assert finished["status"] == "Finished", harvest_machinery.log_tails()
    assert finished["stats"].get("added") == DEMO_SITE_DATASETS, finished["stats"]
    found = call_action("package_search", fq=f'owner_org:"{source["owner_org"]}"', include_private=True,
                        include_drafts=True)
    assert found["count"] == DEMO_SITE_DATASETS


def test_stopping_the_machinery_leaves_no_process_running(harvest_machinery: HarvestProcesses):
    time.sleep(3)  # the periodic run is then inside a `ckan harvester run` or its sleep: a child of its own
    assert len(harvest_machinery.running()) > len(harvest_machinery.groups)
    harvest_machinery.stop()
    assert harvest_machinery.running() == []
