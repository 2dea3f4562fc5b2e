"""The guard every harvest stage runs in, on the real database: a gather that fails after committing some objects
leaves none of them behind (nothing would fetch them, and the job would wait for them), and says why."""
from __future__ import annotations

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource

from ckanext.passport.harvest import stage_guard
from ckanext.passport.harvest.objects import add_object

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def test_a_gather_failing_after_it_committed_objects_leaves_none_behind_and_a_coded_error(harvest_source):
    source = harvest_source("http://127.0.0.1:9/opendata/list.csv", {"allow_private_addresses": True})
    job = HarvestJob(source=HarvestSource.get(source["id"]))
    job.save()

    def failing_after_a_batch() -> list[str]:
        ids = [add_object(job, f"7701234560-entry{n}", "new", "{}", None) for n in range(3)]
        model.Session.commit()
        raise RecursionError(ids)

    assert stage_guard.gather_stage(job, failing_after_a_batch) == []

    assert HarvestObject.filter(harvest_job_id=job.id).count() == 0
    [error] = call_action("harvest_job_report", id=job.id)["gather_errors"]
    assert error["message"].startswith("[harvest.gather_unexpected]")
    assert "RecursionError" in error["message"]
