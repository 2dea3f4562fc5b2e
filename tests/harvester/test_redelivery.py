"""An object delivered to a consumer again after it was handled is left as it was.

ckanext-harvest's Redis queue delivers at least once: ``harvester run`` sends again every WAITING object not in the
fetch queue, which takes in those a gather has committed and not yet sent. Here the second delivery is
ckanext-harvest's own handling of a queued object (``fetch_and_import_stages``) over objects a real harvest of the
demo site handled: added, errored, and not modified by the next job.
"""
from __future__ import annotations

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject, HarvestObjectError
from ckanext.harvest.queue import fetch_and_import_stages
from tests.support.http_site import Fault

from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
BROKEN = "/opendata/7701234560-schools/meta.xml"


@pytest.fixture
def harvest(demo_site, harvest_source, run_harvest):
    """``harvest()``: one job more of the demo site, its schools passport answering 500; the job's id."""
    demo_site.fault(BROKEN, Fault(status=500))
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"formats": ["meta.xml"]})
    return lambda: run_harvest(source)[1]["id"]


def _handled_again(object_id: str) -> None:
    model.Session.remove()
    fetch_and_import_stages(PassportHarvesterPlugin(), HarvestObject.get(object_id))


def _state(object_id: str) -> tuple:
    model.Session.remove()
    obj = HarvestObject.get(object_id)
    errors = model.Session.query(HarvestObjectError).filter_by(harvest_object_id=object_id).count()
    return obj.state, obj.report_status, obj.current, obj.package_id, errors


def _one(job_id: str, report_status: str) -> str:
    """An object of the job with that report."""
    model.Session.remove()
    found = HarvestObject.filter(harvest_job_id=job_id, report_status=report_status).first()
    assert found is not None, f"no object {report_status} in the job"
    return found.id


def test_an_added_record_delivered_again_stays_added_unfetched_and_unwritten(harvest, demo_site):
    object_id = _one(harvest(), "added")
    before = _state(object_id)
    dataset = call_action("package_show", id=before[3])
    requests = len(demo_site.requests)

    _handled_again(object_id)

    assert _state(object_id) == before
    assert len(demo_site.requests) == requests
    assert call_action("package_show", id=before[3])["metadata_modified"] == dataset["metadata_modified"]


def test_a_not_modified_record_delivered_again_stays_not_modified(harvest, demo_site):
    harvest()
    object_id = _one(harvest(), "not modified")
    before = _state(object_id)
    requests = len(demo_site.requests)

    _handled_again(object_id)

    assert _state(object_id) == before
    assert len(demo_site.requests) == requests


def test_an_errored_entry_delivered_again_stays_errored_with_its_errors_once(harvest, demo_site):
    object_id = _one(harvest(), "errored")
    before = _state(object_id)
    assert before[0] == "ERROR" and before[4] >= 1
    requests = len(demo_site.requests)

    _handled_again(object_id)

    assert _state(object_id) == before
    assert len(demo_site.requests) == requests
