"""Any address an admin gives a source is read as what it is: a registry page at ``/index.html`` or ``/``, a
list file at an odd path, or a site to discover. Discovery runs only for a site or folder address and never
appends paths to a file address. The real demo site is served by a real local HTTP server that records the
paths requested."""
from __future__ import annotations

import shutil

import pytest
from ckan.tests.helpers import call_action
from tests.support.demo_site import IDENTIFIERS

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
# Where discovery looks on a site: none of these may be asked for when the given address is the registry.
PROBES = {"/opendata/list.csv", "/opendata/opendatalist.csv", "/opendata/list.xml", "/opendata/list.json"}


def landed() -> set[str]:
    return {d["name"] for d in call_action("package_search", rows=50)["results"]}


def appended_to_a_file(hits: list[str]) -> list[str]:
    """Requests that treat a file as a folder (``/index.html/opendata/list.csv``)."""
    return [hit for hit in hits if any(f".{ext}/" in hit for ext in ("html", "csv", "php", "xml", "json"))]


def test_a_registry_page_at_index_html_is_harvested_from_there(demo_site, harvest_source, run_harvest):
    shutil.copy(demo_site.root / "opendata" / "index.html", demo_site.root / "index.html")

    results, job = run_harvest(harvest_source(f"{demo_site.url}/index.html", ALLOW))

    assert {r["report_status"] for r in results.values()} == {"added"}
    assert landed() == IDENTIFIERS
    assert demo_site.hits[0] == "/index.html"
    assert not PROBES & set(demo_site.hits)
    assert appended_to_a_file(demo_site.hits) == []


def test_a_registry_page_at_the_site_root_is_harvested_without_probing(demo_site, harvest_source, run_harvest):
    shutil.copy(demo_site.root / "opendata" / "index.html", demo_site.root / "index.html")

    run_harvest(harvest_source(demo_site.url, ALLOW))

    assert landed() == IDENTIFIERS
    assert demo_site.hits[0] == "/"
    assert not PROBES & set(demo_site.hits)


def test_a_list_csv_at_an_odd_path_is_harvested_from_there(demo_site, harvest_source, run_harvest):
    (demo_site.root / "exports").mkdir()
    shutil.copy(demo_site.root / "opendata" / "list.csv", demo_site.root / "exports" / "reestr-2024.csv")

    run_harvest(harvest_source(f"{demo_site.url}/exports/reestr-2024.csv", ALLOW))

    assert landed() == IDENTIFIERS
    assert demo_site.hits[0] == "/exports/reestr-2024.csv"
    assert not PROBES & set(demo_site.hits)
    assert appended_to_a_file(demo_site.hits) == []


def test_a_site_root_without_a_registry_is_discovered_at_the_mr_locations(demo_site, harvest_source, run_harvest):
    (demo_site.root / "index.html").write_text("<!DOCTYPE html><html><body><h1>Город</h1></body></html>", "utf-8")

    run_harvest(harvest_source(f"{demo_site.url}/", ALLOW))

    assert landed() == IDENTIFIERS
    assert demo_site.hits[:2] == ["/", "/opendata/list.csv"]


def test_a_file_address_that_is_no_registry_fails_the_gather_without_probing(demo_site, harvest_source, run_harvest):
    page = "/opendata/2618017120-politicaldivisions/index.html"

    results, job = run_harvest(harvest_source(demo_site.url + page, ALLOW))

    assert results == {}
    assert demo_site.hits == [page]
    errors = [e["message"] for e in call_action("harvest_job_report", id=job["id"])["gather_errors"]]
    assert any("[registry.address_not_registry]" in message for message in errors), errors
