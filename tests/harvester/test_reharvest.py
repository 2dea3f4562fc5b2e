"""Keeping in step: re-harvests change only what the site changed, and never delete on a broken registry."""
from __future__ import annotations

import json

import pytest
from ckan.tests.helpers import call_action
from tests.support.demo_site import retitle_pharmacies
from tests.support.http_site import Fault

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}


@pytest.fixture
def source(demo_site, harvest_source):
    # The registry is pinned: with discovery, a broken list.json would just make the harvest use list.csv.
    registry = f"{demo_site.url}/opendata/list.json"
    return harvest_source(registry, ALLOW | {"registry_url": registry})


def _statuses(results) -> dict[str, str]:
    return {guid: r["report_status"] for guid, r in results.items()}


def _modified(name: str) -> str:
    return call_action("package_show", id=name)["metadata_modified"]


def test_unchanged_site_reports_every_object_unchanged_and_rewrites_nothing(source, run_harvest):
    run_harvest(source)
    before = {d["name"]: d["metadata_modified"] for d in call_action("package_search", rows=50)["results"]}
    results, job = run_harvest(source)
    assert set(_statuses(results).values()) == {"not modified"}
    after = {d["name"]: d["metadata_modified"] for d in call_action("package_search", rows=50)["results"]}
    assert after == before
    assert job["stats"].get("not modified") == len(before)


def test_one_changed_passport_updates_only_that_dataset(demo_site, source, run_harvest):
    run_harvest(source)
    retitle_pharmacies(demo_site.root, "Аптеки района (новое)")
    results, _ = run_harvest(source)
    statuses = _statuses(results)
    assert statuses.pop("7709876545-pharmacies") == "updated"
    assert set(statuses.values()) == {"not modified"}
    assert call_action("package_show", id="7709876545-pharmacies")["title"] == "Аптеки района (новое)"


def test_an_entry_removed_from_the_registry_deletes_only_its_dataset(demo_site, source, run_harvest):
    run_harvest(source)
    registry = demo_site.root / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    data["meta"] = [e for e in data["meta"] if e["identifier"] != "5027123457-bustops"]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    results, _ = run_harvest(source)
    assert _statuses(results)["5027123457-bustops"] == "deleted"
    names = {d["name"] for d in call_action("package_search", rows=50)["results"]}
    assert "5027123457-bustops" not in names and len(names) == 5


@pytest.mark.parametrize(
    "broken, code",
    [
        (Fault(body=b"<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html"),
         "registry.html_error_page"),
        (Fault(body=b'{"standardversion": "http://opendata.gosmonitor.ru/standard/3.0", "meta": []}',
               content_type="application/json"), "registry.empty"),
    ],
    ids=["html-error-page", "empty-list"],
)
def test_a_broken_registry_deletes_nothing_and_explains_why(demo_site, source, run_harvest, broken, code):
    run_harvest(source)
    demo_site.fault("/opendata/list.json", broken)
    results, job = run_harvest(source)
    assert not any(r["report_status"] == "deleted" for r in results.values())
    assert len(call_action("package_search", rows=50)["results"]) == 6
    errors = call_action("harvest_job_report", id=job["id"])["gather_errors"]
    assert any(code in e["message"] for e in errors), errors


def test_too_many_entries_gone_is_refused_as_a_truncated_registry(demo_site, source, run_harvest):
    run_harvest(source)
    registry = demo_site.root / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    data["meta"] = data["meta"][:2]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    results, job = run_harvest(source)
    assert not any(r["report_status"] == "deleted" for r in results.values())
    errors = call_action("harvest_job_report", id=job["id"])["gather_errors"]
    assert any("harvest.mass_deletion" in e["message"] for e in errors)
