"""A re-harvest never loses a curator's work: the MR ownership (catalog/ownership.py) decides what a harvest writes.

The site is a real HTTP server whose passport changes between harvests (title, one data version added, one
removed) after a curator completed the record and described its resources.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action

from tests.support.catalog_records import EUROVOC_ECONOMICS, complete_record

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
GUID = "7709876545-pharmacies"
PASSPORT = f"opendata/{GUID}/meta.csv"  # MR 3.0 meta.csv in windows-1251
KEPT, DROPPED, ADDED, STRUCTURE = "20250310T1200", "20250101T0000", "20250401T0900", "20250101T0000"
CURATOR_RESOURCE = {
    "description": "Aktuální seznam lékáren",
    "language": "cs",
    "mimetype": "text/csv",
    "source_type": "file",
    "format_label": "hodnoty oddělené čárkou",
    "schema_urls": ["https://data.example.cz/lekarny.schema.json"],
    "format_docs": ["https://www.rfc-editor.org/rfc/rfc4180"],
}


# The curator's part of the record, and the publisher a first harvest seeded (an INN) made Czech (an IČO).
CURATOR_RECORD = (
    "openness_conditions",
    "publisher_email",
    "record_validity",
    "publisher_id_scheme",
    "publisher_id",
    "publisher_name",
)


@dataclass
class Reharvest:
    before: dict  # the record as the curator left it
    after: dict  # the record after the changed passport was harvested
    report_status: str


def _version(dataset: dict, resource_type: str, version: str) -> dict:
    return next(
        r for r in dataset["resources"] if (r.get("resource_type"), r.get("mr_version")) == (resource_type, version)
    )


def _change_passport(site_root) -> None:
    path = site_root / PASSPORT
    text = path.read_bytes().decode("cp1251")
    lines = [line for line in text.splitlines() if not line.startswith(f"data-{DROPPED}-")]
    lines = [line.replace("title,Аптеки района", "title,Аптеки района Якиманка") for line in lines]
    at = next(i for i, line in enumerate(lines) if line.startswith("data-"))
    lines.insert(at, f"data-{ADDED}-structure-{STRUCTURE},/opendata/{GUID}/data-{ADDED}-structure-{STRUCTURE}.csv")
    path.write_bytes(("\n".join(lines) + "\n").encode("cp1251"))


@pytest.fixture
def reharvest(demo_site, harvest_source, run_harvest) -> Reharvest:
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    first, _ = run_harvest(source)
    dataset_id = first[GUID]["dataset"]["id"]
    curator = {"user": factories.Sysadmin()["name"]}
    record = complete_record()
    call_action(
        "package_patch",
        context=dict(curator),
        id=dataset_id,
        record_language="cs",
        eurovoc=[{"uri": EUROVOC_ECONOMICS}],
        **{k: record[k] for k in CURATOR_RECORD},
    )
    harvested = call_action("package_show", id=dataset_id)
    for resource in (_version(harvested, "data", KEPT), _version(harvested, "structure", STRUCTURE)):
        call_action("resource_patch", context=dict(curator), id=resource["id"], **CURATOR_RESOURCE)
    call_action("passport_openness_check", context=dict(curator), id=_version(harvested, "data", KEPT)["id"])
    call_action(
        "resource_create", context=dict(curator), package_id=dataset_id, name="Metodika",
        url="https://data.example.cz/lekarny-metodika.pdf", format="PDF", description="Jak seznam vzniká",
    )
    before = call_action("package_show", id=dataset_id)
    _change_passport(demo_site.root)
    results, _ = run_harvest(source)
    return Reharvest(before, call_action("package_show", id=dataset_id), results[GUID]["report_status"])


def test_the_changed_passport_updates_the_record(reharvest):
    assert reharvest.report_status == "updated"
    assert reharvest.after["title"] == "Аптеки района Якиманка"


def test_a_version_still_listed_keeps_its_id_and_every_curator_field(reharvest):
    for resource_type, version in (("data", KEPT), ("structure", STRUCTURE)):
        before = _version(reharvest.before, resource_type, version)
        after = _version(reharvest.after, resource_type, version)
        assert after["id"] == before["id"]
        assert {k: after.get(k) for k in CURATOR_RESOURCE} == CURATOR_RESOURCE


def test_the_openness_check_result_stays_with_its_resource(reharvest):
    before, after = _version(reharvest.before, "data", KEPT), _version(reharvest.after, "data", KEPT)
    assert before.get("openness_check")
    assert after.get("openness_check") == before["openness_check"]


def test_a_new_version_is_added_and_a_version_no_longer_listed_is_removed(reharvest):
    data = [r["mr_version"] for r in reharvest.after["resources"] if r.get("resource_type") == "data"]
    assert data == [ADDED, KEPT]
    assert _version(reharvest.after, "data", ADDED)["url"].endswith(f"data-{ADDED}-structure-{STRUCTURE}.csv")


def test_a_resource_the_curator_added_stays(reharvest):
    added = [r for r in reharvest.after["resources"] if not r.get("resource_type")]
    assert [(r["name"], r["description"]) for r in added] == [("Metodika", "Jak seznam vzniká")]


def test_the_curators_record_fields_stay_including_the_first_harvests(reharvest):
    after = reharvest.after
    assert after["record_language"] == "cs"
    assert [c["uri"] for c in after["eurovoc"]] == [EUROVOC_ECONOMICS]
    record = complete_record()
    assert {k: after[k] for k in CURATOR_RECORD} == {k: record[k] for k in CURATOR_RECORD}
