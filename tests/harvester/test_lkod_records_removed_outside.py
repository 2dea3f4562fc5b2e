"""An lkod source's report matches the portal, as a passport source's does: a purged record (or one never written
after its object was made current) is made again from the document last read and reported added; a record
deleted in the portal stays deleted with a warning unless the source restores such records; the job page counts
both in the reader's language."""
from __future__ import annotations

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import EUROVOC_ECONOMICS
from tests.support.lkod_site import GOOD
from tests.support.lkod_harvest import (ALLOW, CURATOR_FIELDS, CURATOR_PART, lkod, lkod_source,  # noqa: F401
                                         object_error_codes, organization, report_statuses, run_lkod)

from ckanext.passport.harvest import records

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

KEY = "vld"


def _record_id(lkod, results) -> str:
    return results[lkod.dataset_iri(KEY)]["dataset"]["id"]


def _curate(package_id: str) -> None:
    call_action("package_patch", context={"user": factories.Sysadmin()["name"]}, id=package_id,
                record_language="cs", eurovoc=[{"uri": EUROVOC_ECONOMICS}],
                **{key: CURATOR_PART[key] for key in CURATOR_FIELDS})


def _delete(package_id: str) -> None:
    call_action("package_delete", context={"user": factories.Sysadmin(fullname="Správkyně katalogu")["name"]},
                id=package_id)


def test_a_purged_record_comes_back_on_the_next_unchanged_job_reported_added_without_its_curator_fields(
        lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    first, _ = run_lkod(source)
    _curate(_record_id(lkod, first))
    call_action("dataset_purge", id=_record_id(lkod, first))

    results, job = run_lkod(source)

    iri = lkod.dataset_iri(KEY)
    assert report_statuses(results)[iri] == "added"
    assert {report_statuses(results)[lkod.dataset_iri(key)] for key in GOOD if key != KEY} == {"not modified"}
    record = call_action("package_show", id=results[iri]["dataset"]["id"])
    assert (record["lkod_iri"], record["state"]) == (iri, "active")
    assert {key: record.get(key) for key in CURATOR_FIELDS} != {key: CURATOR_PART[key] for key in CURATOR_FIELDS}
    assert records.outcomes(job["id"]) == {"brought_back": 1, "kept_deleted": 0}


def test_a_record_deleted_in_the_portal_stays_deleted_and_the_entry_says_who_deleted_it(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    first, _ = run_lkod(source)
    _delete(_record_id(lkod, first))

    results, job = run_lkod(source)

    iri = lkod.dataset_iri(KEY)
    assert report_statuses(results)[iri] == "not modified"
    assert call_action("package_show", id=_record_id(lkod, first))["state"] == "deleted"
    assert object_error_codes(job)[iri] == ["harvest.record_deleted_in_portal"]
    assert records.outcomes(job["id"]) == {"brought_back": 0, "kept_deleted": 1}


def test_a_source_restoring_deleted_records_brings_one_back_with_the_curator_fields_it_had(
        lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW | {"restore_deleted": True})
    first, _ = run_lkod(source)
    package_id = _record_id(lkod, first)
    _curate(package_id)
    _delete(package_id)

    results, job = run_lkod(source)

    assert report_statuses(results)[lkod.dataset_iri(KEY)] == "updated"
    record = call_action("package_show", id=package_id)
    assert record["state"] == "active"
    assert {key: record[key] for key in CURATOR_FIELDS} == {key: CURATOR_PART[key] for key in CURATOR_FIELDS}
    assert records.outcomes(job["id"]) == {"brought_back": 1, "kept_deleted": 0}


def test_a_record_never_written_after_its_object_was_made_current_is_made_by_the_next_job(
        lkod, lkod_source, run_lkod, monkeypatch):
    iri = lkod.dataset_iri(KEY)
    linked = records.link

    def dies_after_the_object_is_current(harvest_object, previous, package_id, new=False):
        linked(harvest_object, previous, package_id, new)
        if harvest_object.guid == iri:
            # The object's being current is committed; the consumer dies before the record is written.
            harvest_object.package_id = None
            model.Session.commit()
            raise SystemError("the consumer was killed")

    monkeypatch.setattr(records, "link", dies_after_the_object_is_current)
    source = lkod_source(lkod.catalog_url, ALLOW)
    first, _ = run_lkod(source)
    monkeypatch.undo()
    assert report_statuses(first)[iri] == "errored"

    results, _ = run_lkod(source)

    assert report_statuses(results)[iri] == "added"
    assert call_action("package_show", id=results[iri]["dataset"]["id"])["lkod_iri"] == iri
    assert records.drift(source["id"]) == []


def test_the_job_page_counts_the_entries_kept_deleted_in_the_readers_language(web, lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    first, _ = run_lkod(source)
    _delete(_record_id(lkod, first))
    _, job = run_lkod(source)
    sysadmin = factories.SysadminWithToken()

    page = web.get(f"/cs/harvest/{source['name']}/job/{job['id']}",
                   headers={"Authorization": sysadmin["token"]})

    assert "1 položka, kterou zdroj stále uvádí, zůstává v portálu smazaná" in page.body
