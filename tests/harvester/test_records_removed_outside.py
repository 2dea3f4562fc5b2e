"""A passport source's report matches the portal: an entry is "not modified" only while its record is there.

A record purged (or never written after its object was made current) is made again from the passport last read,
without a new fetch, and reported added; a record deleted in the portal stays deleted, the entry saying who deleted
it, unless the source restores such records; ``ckan passport check-index`` lists and repairs the drift too.
"""
from __future__ import annotations

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from ckanext.harvest.model import HarvestObject

from ckanext.passport.cli import passport as passport_cli
from ckanext.passport.harvest import records

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
GUID = "5027123457-bustops"
# Fields of the record no passport states: the curator's.
CURATOR_FIELDS = ("openness_conditions", "publisher_email", "record_validity")
CURATOR_PART = {key: complete_record()[key] for key in CURATOR_FIELDS}


@pytest.fixture
def source(demo_site, harvest_source):
    registry = f"{demo_site.url}/opendata/list.json"
    return lambda **config: harvest_source(registry, ALLOW | {"registry_url": registry} | config)


def _curated(package_id: str) -> dict:
    """The record after a curator completed it."""
    curator = {"user": factories.Sysadmin()["name"]}
    call_action("package_patch", context=curator, id=package_id,
                eurovoc=[{"uri": "http://eurovoc.europa.eu/100155", "label": ""}], **CURATOR_PART)
    return call_action("package_show", id=package_id)


def _codes(job: dict, guid: str) -> list[str]:
    report = call_action("harvest_job_report", id=job["id"])
    return [error["message"].split("]", 1)[0].lstrip("[")
            for found in report["object_errors"].values() if found["guid"] == guid for error in found["errors"]]


def _messages(job: dict, guid: str) -> list[str]:
    report = call_action("harvest_job_report", id=job["id"])
    return [error["message"] for found in report["object_errors"].values() if found["guid"] == guid
            for error in found["errors"]]


def test_a_purged_record_comes_back_on_the_next_unchanged_job_reported_added_without_its_curator_fields(
        source, run_harvest, demo_site):
    harvested = source()
    first, _ = run_harvest(harvested)
    _curated(first[GUID]["dataset"]["id"])
    call_action("dataset_purge", id=first[GUID]["dataset"]["id"])
    requests = len(demo_site.requests)

    results, job = run_harvest(harvested)

    assert results[GUID]["report_status"] == "added"
    assert {guid: r["report_status"] for guid, r in results.items() if guid != GUID} == {
        guid: "not modified" for guid in first if guid != GUID}
    record = call_action("package_show", id=results[GUID]["dataset"]["id"])
    assert (record["mr_identifier"], record["state"]) == (GUID, "active")
    assert {key: record.get(key) for key in CURATOR_FIELDS} != CURATOR_PART
    # Made again from the passport the first job read: its one request was the conditional one, as for the others.
    assert len([path for _, path in demo_site.requests[requests:] if GUID in path]) == 1
    assert job["stats"].get("added") == 1


def test_a_record_deleted_in_the_portal_stays_deleted_and_the_entry_says_who_deleted_it(source, run_harvest):
    harvested = source()
    first, _ = run_harvest(harvested)
    deleter = factories.Sysadmin(fullname="Správce Portálu")
    call_action("package_delete", context={"user": deleter["name"]}, id=first[GUID]["dataset"]["id"])

    results, job = run_harvest(harvested)

    assert results[GUID]["report_status"] == "not modified"
    assert call_action("package_show", id=first[GUID]["dataset"]["id"])["state"] == "deleted"
    assert _codes(job, GUID) == ["harvest.record_deleted_in_portal"]
    assert "Správce Portálu" in _messages(job, GUID)[0]
    # Still so on the job after: the source still lists it.
    _, again = run_harvest(harvested)
    assert _codes(again, GUID) == ["harvest.record_deleted_in_portal"]


def test_a_source_restoring_deleted_records_brings_one_back_with_the_curator_fields_it_had(source, run_harvest):
    harvested = source(restore_deleted=True)
    first, _ = run_harvest(harvested)
    package_id = first[GUID]["dataset"]["id"]
    _curated(package_id)
    call_action("package_delete", context={"user": factories.Sysadmin()["name"]}, id=package_id)

    results, job = run_harvest(harvested)

    assert results[GUID]["report_status"] != "errored", results[GUID]["errors"]
    record = call_action("package_show", id=package_id)
    assert record["state"] == "active"
    assert {key: record[key] for key in CURATOR_FIELDS} == CURATOR_PART
    current = HarvestObject.get(results[GUID]["obj_id"])
    assert (current.current, current.package_id) == (True, package_id)
    assert _codes(job, GUID) == []


def test_a_record_never_written_after_its_object_was_made_current_is_made_by_the_next_job(
        source, run_harvest, monkeypatch):
    linked = records.link

    def dies_after_the_object_is_current(harvest_object, previous, package_id, new=False):
        linked(harvest_object, previous, package_id, new)
        if harvest_object.guid == GUID:
            # The object's being current is committed; the consumer dies before the record is written.
            harvest_object.package_id = None
            model.Session.commit()
            raise SystemError("the consumer was killed")

    monkeypatch.setattr(records, "link", dies_after_the_object_is_current)
    harvested = source()
    first, _ = run_harvest(harvested)
    monkeypatch.undo()
    assert first[GUID]["report_status"] == "errored"
    assert [d.kind for d in records.drift(harvested["id"])] == ["absent"]

    results, _ = run_harvest(harvested)

    assert results[GUID]["report_status"] == "added"
    assert call_action("package_show", id=results[GUID]["dataset"]["id"])["mr_identifier"] == GUID
    assert records.drift(harvested["id"]) == []


def test_check_index_lists_a_purged_record_and_repairs_it(source, run_harvest, cli):
    harvested = source()
    first, _ = run_harvest(harvested)
    call_action("dataset_purge", id=first[GUID]["dataset"]["id"])

    found = cli.invoke(passport_cli, ["check-index", "--source", harvested["name"]])
    assert found.exit_code == 1, found.output
    assert f"{harvested['name']}: {GUID}" in found.output
    assert "its record is gone" in found.output

    repaired = cli.invoke(passport_cli, ["check-index", "--source", harvested["name"], "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert "1 harvested entry imported again, 0 could not be." in repaired.output
    holders = call_action("package_search", fq=f'mr_identifier:"{GUID}"', include_private=True)["results"]
    assert len(holders) == 1
    again = cli.invoke(passport_cli, ["check-index", "--source", harvested["name"]])
    assert (again.exit_code, again.output.strip()) == (0, "0 records differ.")


def test_check_index_lists_a_record_deleted_in_the_portal_and_leaves_it_deleted(source, run_harvest, cli):
    harvested = source()
    first, _ = run_harvest(harvested)
    call_action("package_delete", context={"user": factories.Sysadmin()["name"]}, id=first[GUID]["dataset"]["id"])

    result = cli.invoke(passport_cli, ["check-index", "--source", harvested["name"], "--repair"])

    assert result.exit_code == 0, result.output
    assert "its record was deleted in the portal" in result.output
    assert call_action("package_show", id=first[GUID]["dataset"]["id"])["state"] == "deleted"


def test_the_conformance_tab_counts_the_entries_brought_back_in_the_readers_language(source, run_harvest, web):
    harvested = source()
    first, _ = run_harvest(harvested)
    call_action("dataset_purge", id=first[GUID]["dataset"]["id"])
    run_harvest(harvested)

    page = web.get(f"/ru/harvest/{harvested['name']}/conformance").body

    assert "1 позиция, чья запись пропала, возвращена" in page
