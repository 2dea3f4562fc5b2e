"""Harvest imports index each dataset after the database kept it, as the database keeps it: once per object, made
searchable by one soft Solr commit, instead of CKAN's index passes and hard commits before the database commit."""
from __future__ import annotations

import pytest
from ckan import model
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import owned_record
from ckanext.harvest import queue
from ckanext.harvest.model import HarvestObject, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj

from ckanext.passport.harvest.index_commits import held_index_writes, import_indexed, index_from_database
from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
DEMO_DATASETS = 6


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


def test_inside_the_block_index_writes_only_name_their_datasets(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    with held_index_writes() as held:
        dataset = call_action("package_create", dict(sysadmin), **owned_record(title="First title"))
        call_action("package_patch", dict(sysadmin), id=dataset["id"], title="Second title")
    assert solr_updates == []
    assert set(held) == {dataset["id"]}
    assert call_action("package_search", q=f"id:{dataset['id']}")["count"] == 0


def test_held_datasets_are_indexed_as_the_database_holds_them_with_one_soft_commit(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    with held_index_writes() as held:
        dataset = call_action("package_create", dict(sysadmin), **owned_record(title="First title"))
        call_action("package_patch", dict(sysadmin), id=dataset["id"], title="Second title")
    index_from_database(held)
    assert solr_updates == ["none", "soft"]
    assert call_action("package_search", q='title:"Second title"')["count"] == 1


def test_a_dataset_deleted_in_the_block_leaves_the_index_with_one_soft_commit(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    dataset = call_action("package_create", dict(sysadmin), **owned_record(name="to-be-deleted"))
    solr_updates.clear()
    with held_index_writes() as held:
        call_action("package_delete", dict(sysadmin), id=dataset["id"])
    index_from_database(held)
    assert solr_updates == ["none", "soft"]
    assert call_action("package_search", q="name:to-be-deleted")["count"] == 0


def test_a_dataset_the_database_never_kept_is_not_indexed(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    with held_index_writes() as held:
        call_action("package_create", {**sysadmin, "defer_commit": True}, **owned_record(name="rolled-back"))
        model.Session.rollback()
    index_from_database(held)
    assert call_action("package_search", q="name:rolled-back")["count"] == 0
    assert model.Package.get("rolled-back") is None


def test_an_import_that_failed_after_its_commit_still_indexes_what_the_database_kept(solr_updates, an_object):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    harvest_object = an_object

    def work():
        call_action("package_create", dict(sysadmin), **owned_record(name="committed-then-failed"))
        raise RuntimeError("after the commit")

    assert import_indexed(harvest_object, "soft", work) is False
    assert call_action("package_search", q="name:committed-then-failed")["count"] == 1


def test_an_object_that_changed_no_dataset_sends_nothing(solr_updates, an_object):
    solr_updates.clear()  # the source's own dataset was indexed as it was made
    assert import_indexed(an_object, "soft", lambda: "unchanged") == "unchanged"
    assert solr_updates == []
    assert toolkit.config["ckan.search.solr_commit"] is True


def test_after_the_block_ckan_indexes_as_it_always_did(solr_updates):
    sysadmin = {"user": factories.Sysadmin()["name"]}
    call_action("package_create", dict(sysadmin), **owned_record(name="before-the-block"))
    ckans_own = list(solr_updates)
    solr_updates.clear()
    with held_index_writes():
        pass
    call_action("package_create", dict(sysadmin), **owned_record(name="after-the-block"))
    assert "hard" in ckans_own
    assert solr_updates == ckans_own


@pytest.fixture
def an_object(harvest_source) -> HarvestObject:
    """A harvest object of a passport source, linked to no dataset."""
    from ckanext.harvest.tests.factories import HarvestObjectObj

    source = HarvestSource.get(harvest_source("http://127.0.0.1:9/opendata/list.csv")["id"])
    return HarvestObjectObj(guid="an-entry", job=HarvestJobObj(source=source, run=False))
