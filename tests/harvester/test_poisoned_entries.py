"""A registry with entries that break what reads or stores them: each such entry is its own coded error, and the
rest of the registry is gathered, fetched and imported as if it were not there.

The poisons (support/poisoned_site.py): a link no URL parser reads (``http://[x/``: the registry reader skips it with
its own code), and a passport the search index refuses (a title far beyond what Solr keeps in one term: CKAN raises
out of ``package_create``), which the harvest's guard turns into the object's error. A source whose stored config no
longer loads fails its gather with a coded error instead of the gather consumer.
"""
from __future__ import annotations

import json

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject, HarvestSource
from tests.support.poisoned_site import GOOD, HUGE, poisoned_site

pytestmark = [pytest.mark.stack]

ALLOW = {"allow_private_addresses": True}


@pytest.fixture(scope="module")
def harvested(stack_once, tmp_path_factory, serve_site, harvest_source, run_harvest):
    root = tmp_path_factory.mktemp("poisoned")
    poisoned_site(root)
    site = serve_site(root)
    return run_harvest(harvest_source(f"{site.url}/opendata/list.json", ALLOW))


def codes_of(messages) -> set[str]:
    return {message.split("]", 1)[0].lstrip("[") for message in messages}


def gather_codes(job: dict) -> set[str]:
    return codes_of(e["message"] for e in call_action("harvest_job_report", id=job["id"])["gather_errors"])


def test_every_good_entry_lands_beside_the_poisoned_ones(harvested):
    results, job = harvested
    assert job["status"] == "Finished"
    for identifier in GOOD:
        assert results[identifier.lower()]["report_status"] == "added", results[identifier.lower()]


def test_a_passport_the_search_index_refuses_is_an_index_error_of_its_object_with_its_record_kept(harvested):
    results, _ = harvested
    result = results[HUGE.lower()]
    assert result["report_status"] == "errored"
    assert "harvest.index_failed" in codes_of(e.message for e in result["errors"])
    harvest_object = HarvestObject.get(result["obj_id"])
    assert harvest_object.state == "ERROR"
    assert model.Package.get(harvest_object.package_id).state == "active"


def test_a_source_whose_stored_config_no_longer_loads_fails_its_gather_with_a_code(
        stack_once, harvested, harvest_source, run_harvest):
    source = harvest_source("http://127.0.0.1:9/opendata/list.json", ALLOW)
    # As a config saved before an option's rule (or edited in the table) is stored: no validation on the way.
    stored = HarvestSource.get(source["id"])
    stored.config = json.dumps({"timeout": "soon"})
    stored.save()
    results, job = run_harvest(source)
    assert results == {}
    assert job["status"] == "Finished"
    assert "harvest.gather_unexpected" in gather_codes(job)
