"""Harvest imports index each dataset once per database commit and make it searchable with one soft Solr commit,
instead of CKAN's two index passes and two hard commits."""
from __future__ import annotations

import pysolr
import pytest
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from catalog_records import complete_record
from ckanext.harvest import queue
from ckanext.harvest.model import HarvestObject, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj

from ckanext.passport.index_commits import harvest_indexing
from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("with_plugins", "clean_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
DEMO_DATASETS = 6


@pytest.fixture
def solr_updates(monkeypatch):
    """Each update request this process sends to the real Solr: ``hard``, ``soft`` or ``none`` (no commit)."""
    sent: list[str] = []
    send = pysolr.Solr._update

    def recorded(self, message, *args, commit=None, softCommit=False, **kwargs):
        sent.append("hard" if commit else "soft" if softCommit else "none")
        return send(self, message, *args, commit=commit, softCommit=softCommit, **kwargs)

    monkeypatch.setattr(pysolr.Solr, "_update", recorded)
    return sent


def _fetch_and_import_all(source: dict, sent: list[str]) -> list[str]:
    """Gather a job, then run fetch and import for each object with ``sent`` recording only those stages;
    the objects' report statuses."""
    harvester = PassportHarvesterPlugin()
    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    job.status = "Running"
    job.save()
    ids = queue.gather_stage(harvester, job)
    sent.clear()
    statuses = []
    for object_id in ids:
        harvest_object = HarvestObject.get(object_id)
        queue.fetch_and_import_stages(harvester, harvest_object)
        statuses.append(harvest_object.report_status)
    return statuses


def test_each_new_dataset_is_indexed_once_and_made_searchable_by_one_soft_commit(
    demo_site, harvest_source, solr_updates
):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    _fetch_and_import_all(source, solr_updates)
    assert solr_updates.count("none") == DEMO_DATASETS
    assert solr_updates.count("soft") == DEMO_DATASETS
    assert solr_updates.count("hard") == 0
    assert call_action("package_search", fq=f"owner_org:{source['owner_org']}")["count"] == DEMO_DATASETS
    assert toolkit.config["ckan.search.solr_commit"] is True


def test_hard_index_commits_keep_ckans_commit_per_index_update(demo_site, harvest_source, solr_updates):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"index_commit": "hard"})
    _fetch_and_import_all(source, solr_updates)
    assert solr_updates.count("soft") == 0
    assert solr_updates.count("hard") >= DEMO_DATASETS
    assert call_action("package_search", fq=f"owner_org:{source['owner_org']}")["count"] == DEMO_DATASETS


@pytest.mark.ckan_config("ckan.search.solr_commit", False)
def test_a_site_that_turned_solr_commits_off_gets_no_commits(demo_site, harvest_source, solr_updates):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    _fetch_and_import_all(source, solr_updates)
    assert solr_updates.count("none") == DEMO_DATASETS
    assert "soft" not in solr_updates and "hard" not in solr_updates
    assert toolkit.config["ckan.search.solr_commit"] is False


def test_a_failed_import_restores_ckans_commits_and_sends_no_commit(solr_updates):
    with pytest.raises(toolkit.ValidationError):
        with harvest_indexing("soft"):
            assert toolkit.config["ckan.search.solr_commit"] is False
            raise toolkit.ValidationError({"name": ["refused"]})
    assert toolkit.config["ckan.search.solr_commit"] is True
    assert solr_updates == []


def test_an_object_that_changed_no_dataset_sends_no_commit(solr_updates):
    with harvest_indexing("soft"):
        assert toolkit.config["ckan.search.solr_commit"] is False
    assert toolkit.config["ckan.search.solr_commit"] is True
    assert solr_updates == []


def test_an_unchanged_dataset_on_reharvest_sends_no_commit(demo_site, harvest_source, run_harvest, solr_updates):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    run_harvest(source)
    # The passports' content hashes no longer match, but their datasets would stay the same.
    for folder in ("7708234640-okvedva", "7703092752-terorg"):
        path = demo_site.root / "opendata" / folder / "meta.csv"
        path.write_bytes(path.read_bytes() + b"\n")
    statuses = _fetch_and_import_all(source, solr_updates)
    assert statuses == ["not modified"] * 6
    assert "soft" not in solr_updates and "hard" not in solr_updates


def test_a_dataset_written_in_two_commits_is_indexed_after_each(solr_updates):
    with harvest_indexing("soft"):
        sysadmin = {"user": factories.Sysadmin()["name"]}
        dataset = call_action("package_create", dict(sysadmin), **complete_record(title="First title"))
        call_action("package_patch", dict(sysadmin), id=dataset["id"], title="Second title")
    assert solr_updates == ["none", "soft", "none", "soft"]
    assert call_action("package_search", q='title:"Second title"')["count"] == 1


def test_a_dataset_deleted_in_the_block_costs_one_soft_commit(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    dataset = call_action("package_create", dict(sysadmin), **complete_record(name="to-be-deleted"))
    solr_updates.clear()
    with harvest_indexing("soft"):
        call_action("package_delete", dict(sysadmin), id=dataset["id"])
    # CKAN's index_package removes a deleted dataset through delete_package: the nested write commits once.
    assert solr_updates == ["none", "soft"]
    assert call_action("package_search", q="name:to-be-deleted")["count"] == 0


def test_after_the_block_ckan_indexes_as_it_always_did(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    call_action("package_create", dict(sysadmin), **complete_record(name="before-the-block"))
    ckans_own = list(solr_updates)
    solr_updates.clear()
    with harvest_indexing("soft"):
        pass
    call_action("package_create", dict(sysadmin), **complete_record(name="after-the-block"))
    assert "hard" in ckans_own
    assert solr_updates == ckans_own
