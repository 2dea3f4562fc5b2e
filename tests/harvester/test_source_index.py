"""Harvested records are indexed as ckanext-harvest's own harvesters index theirs: with their source and object.

ckanext-harvest adds ``harvest_source_id``, ``harvest_source_title`` and ``harvest_object_id`` when a dataset is
indexed while its harvest object is current; the source page and ``fq=harvest_source_id:…`` search by them.
"""
from __future__ import annotations

import json
import re

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject
from tests.support.demo_site import retitle_pharmacies

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
DEMO_DATASETS = 6
HARVEST_KEYS = ("harvest_object_id", "harvest_source_id", "harvest_source_title")


def _harvest_extras(dataset: dict) -> dict[str, str]:
    return {e["key"]: e["value"] for e in dataset.get("extras", []) if e["key"] in HARVEST_KEYS}


def _in_source(source: dict) -> dict:
    return call_action("package_search", fq=f'harvest_source_id:"{source["id"]}"', rows=50, include_private=True)


def test_package_search_by_harvest_source_id_finds_every_record_of_a_harvest(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    results, _ = run_harvest(source)
    found = _in_source(source)
    assert found["count"] == DEMO_DATASETS
    assert {d["id"] for d in found["results"]} == {r["dataset"]["id"] for r in results.values()}


def test_package_show_carries_the_source_and_the_current_object(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW, title="Demo MR site")
    results, _ = run_harvest(source)
    result = results["7709876545-pharmacies"]
    shown = call_action("package_show", id=result["dataset"]["id"])
    assert _harvest_extras(shown) == {
        "harvest_object_id": result["obj_id"],
        "harvest_source_id": source["id"],
        "harvest_source_title": "Demo MR site",
    }


def test_an_updated_record_is_indexed_with_its_new_object(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    run_harvest(source)
    retitle_pharmacies(demo_site.root, "Аптеки округа")
    results, _ = run_harvest(source)
    result = results["7709876545-pharmacies"]
    assert result["report_status"] == "updated"
    shown = call_action("package_show", id=result["dataset"]["id"])
    assert _harvest_extras(shown)["harvest_object_id"] == result["obj_id"]
    assert _in_source(source)["count"] == DEMO_DATASETS


def test_a_reharvest_stores_no_harvest_keys_as_the_records_own_extras(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    run_harvest(source)
    retitle_pharmacies(demo_site.root, "Аптеки округа")
    results, _ = run_harvest(source)
    assert results["7709876545-pharmacies"]["report_status"] == "updated"
    stored = model.Package.get(results["7709876545-pharmacies"]["dataset"]["id"])
    assert not set(HARVEST_KEYS) & set(stored.extras)


def test_the_source_page_lists_its_records_and_their_count(web, demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    results, _ = run_harvest(source)
    sysadmin = factories.SysadminWithToken()
    page = web.get(f"/harvest/{source['name']}", headers={"Authorization": sysadmin["token"]})
    assert page.status_code == 200
    assert "There are no datasets associated" not in page.body
    for result in results.values():
        assert f'/dataset/{result["dataset"]["name"]}"' in page.body
    assert re.search(rf"<dt>Datasets</dt>\s*<dd>{DEMO_DATASETS}</dd>", page.body)


def test_a_refused_import_leaves_no_object_current_and_no_record(demo_site, harvest_source, run_harvest):
    passport = demo_site.root / "opendata" / "5027123457-bustops" / "meta.json"
    data = json.loads(passport.read_text("utf-8"))
    data["data"][0]["source"] = "ftp://example.ru/bustops.json"  # the catalog takes web addresses only
    passport.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    results, _ = run_harvest(source)
    refused = results["5027123457-bustops"]
    assert refused["report_status"] == "errored"
    assert "harvest.invalid_dataset" in refused["errors"][0].message
    assert HarvestObject.get(refused["obj_id"]).current is False
    current = (
        model.Session.query(HarvestObject)
        .filter(HarvestObject.harvest_source_id == source["id"], HarvestObject.current == True)  # noqa: E712
        .all()
    )
    assert {o.guid for o in current} == set(results) - {"5027123457-bustops"}
    assert all(o.package_id for o in current)
    assert _in_source(source)["count"] == DEMO_DATASETS - 1
