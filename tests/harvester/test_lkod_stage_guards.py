"""An ``lkod`` source's stages run inside the harvest's guards too: a dataset the search index refuses (a title far
beyond what Solr keeps in one term) is stored and is that object's coded error, and the catalog's other datasets
land; a stored config that no longer loads is a coded gather error; a dataset the index lost is indexed again by
the next harvest.
"""
from __future__ import annotations

import json

import pytest
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestSource
from tests.support.lkod_site import BAD, GOOD
from tests.support.lkod_harvest import lkod, lkod_source, organization, run_lkod  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}


def codes_of(messages) -> set[str]:
    return {message.split("]", 1)[0].lstrip("[") for message in messages}


def test_a_dataset_the_search_index_refuses_is_an_index_error_and_the_others_land(lkod, lkod_source, run_lkod):
    document = json.loads(lkod.dataset_text("hvd"))
    document["název"] = {"cs": "Velmi dlouhý název " * 4000}  # ~80 KB: Solr keeps at most 32,766 bytes a term
    lkod.write_dataset("hvd", json.dumps(document, ensure_ascii=False))

    results, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    assert job["status"] == "Finished"
    refused = results[lkod.dataset_iri("hvd")]
    assert refused["report_status"] == "errored"
    assert "harvest.index_failed" in codes_of(e.message for e in refused["errors"])
    landed = {name for name in GOOD if results[lkod.dataset_iri(name)]["report_status"] == "added"}
    assert landed == set(GOOD) - {"hvd"}
    assert len(results) == len(GOOD) + len(BAD)


def test_an_lkod_source_whose_stored_config_no_longer_loads_fails_its_gather_with_a_code(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    stored = HarvestSource.get(source["id"])
    stored.config = json.dumps({"timeout": "soon"})  # as stored before its option's rule, with no validation
    stored.save()

    results, job = run_lkod(source)

    assert results == {}
    gather = call_action("harvest_job_report", id=job["id"])["gather_errors"]
    assert "harvest.gather_unexpected" in codes_of(e["message"] for e in gather)


def test_a_dataset_missing_from_the_index_is_indexed_again_by_the_next_harvest(lkod, lkod_source, run_lkod):
    from ckan import model
    from ckan.lib.search import index_for

    source = lkod_source(lkod.catalog_url, ALLOW)
    results, _ = run_lkod(source)
    package_id = results[lkod.dataset_iri("vld")]["dataset"]["id"]
    # As an index write lost after the database commit leaves it (Solr down at that moment).
    index_for(model.Package).delete_package({"id": package_id})
    assert call_action("package_search", fq=f'id:"{package_id}"')["count"] == 0

    again, _ = run_lkod(source)
    assert again[lkod.dataset_iri("vld")]["report_status"] == "not modified"
    assert call_action("package_search", fq=f'id:"{package_id}"')["count"] == 1
