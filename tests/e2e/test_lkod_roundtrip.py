"""The portal's LKOD read back: the demo's Czech records are in the served catalog, and an ``lkod`` harvest source
reading that catalog over HTTP into another organization gives the same records.

"The same" is what the DCAT-AP-CZ mapping states (lkod.ownership.LKOD.comparable over graph_in's fields), with the two
rules docs/lkod-mapping.md documents applied to the published side: a district is published as its region's
RÚIAN IRI, and each distribution carries the conditions of use that hold for it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import rdflib
import requests
from ckan.tests import factories
from ckan.tests.helpers import call_action

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.record.conditions import effective_conditions
from ckanext.passport.catalog.record.ico import is_ico
from ckanext.passport.lkod import context, iris, ownership

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

DEV = Path(__file__).resolve().parents[2] / "dev"
DEMO_ORGANIZATIONS = DEV / "demo-organizations.jsonl"
DEMO_RECORDS = DEV / "demo-records.jsonl"
DCAT_DATASET = "http://www.w3.org/ns/dcat#dataset"
RPP = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def demo_records(live_ckan: str) -> list[dict[str, Any]]:
    """The demo's Czech publishers (dev/demo-organizations.jsonl, each with its IČO) and records
    (dev/demo-records.jsonl, each in its publisher's organization) created as dev/demo.sh creates them, and published
    (the demo site lets them start published; here they go through the editorial workflow)."""
    sysadmin = {"user": factories.Sysadmin()["name"]}
    for organization in _lines(DEMO_ORGANIZATIONS):
        # A context of its own: organization_create leaves its group in the context it is given.
        call_action("organization_create", dict(sysadmin), **organization)
    records = []
    for fields in _lines(DEMO_RECORDS):
        record = call_action("package_create", sysadmin, **fields)
        for state in ("submitted", "published"):
            call_action("passport_workflow_transition", sysadmin, id=record["id"], to=state)
        records.append(call_action("package_show", id=record["id"]))
    return records


def _listed(catalog_url: str) -> set[str]:
    response = requests.get(catalog_url, timeout=30)
    assert response.headers["Content-Type"].startswith("application/ld+json")
    graph = context.parse_jsonld(response.content)
    return {str(iri) for iri in graph.objects(rdflib.URIRef(catalog_url), rdflib.URIRef(DCAT_DATASET))}


def test_the_demos_czech_records_are_listed_in_the_demos_lkod(live_ckan: str, demo_records):
    listed = _listed(f"{live_ckan}/lkod/catalog")
    assert listed == {f"{live_ckan}/lkod/dataset/{record['id']}" for record in demo_records}


def test_each_demo_publisher_has_a_valid_ico_and_a_catalog_of_its_own_listing_its_records(
    live_ckan: str, demo_records
):
    organizations = _lines(DEMO_ORGANIZATIONS)
    assert len({organization["ico"] for organization in organizations}) == len(organizations) >= 2
    assert all(is_ico(organization["ico"]) for organization in organizations)
    for organization in organizations:
        url = f"{live_ckan}/lkod/organization/{organization['name']}/catalog"
        document = requests.get(url, timeout=30).json()
        own = {f"{live_ckan}/lkod/dataset/{record['id']}" for record in demo_records
               if record["organization"]["name"] == organization["name"]}
        assert own and set(document["datová_sada"]) == own, organization["name"]
        assert document["poskytovatel"] == RPP + organization["ico"]


def test_the_demos_hvd_record_has_its_category_a_data_service_and_an_english_title(live_ckan: str, demo_records):
    hvd = [record for record in demo_records if record.get("hvd_category")]
    assert len(hvd) == 1
    record = hvd[0]
    categories = vocab.vocabulary(vocab.HVD_CATEGORY)
    assert vocab.choosable(vocab.HVD_CATEGORY, categories.concepts[record["hvd_category"]])

    document = requests.get(f"{live_ckan}/lkod/dataset/{record['id']}", timeout=30).json()
    assert document["kategorie_hvd"] == [record["hvd_category"]]
    assert document["název"] == {"cs": record["title"], "en": record["title_en"]}
    services = [distribution["přístupová_služba"] for distribution in document["distribuce"]
                if "přístupová_služba" in distribution]
    assert services and all(service["přístupový_bod"] for service in services)


def _as_published(record: dict[str, Any]) -> dict[str, Any]:
    units = [iris.territory_code(iris.territory_iri(code)) for code in record["spatial_area"]]
    published = dict(record, spatial_area=list(dict.fromkeys(units)))
    published["resources"] = [dict(resource, **effective_conditions(record, resource)) for resource in record["resources"]]
    return ownership.LKOD.comparable(published)


def _without_iris(facts: dict[str, Any]) -> dict[str, Any]:
    stripped = {key: value for key, value in facts.items() if key != ownership.IRI_FIELD}
    stripped["resources"] = [
        {key: value for key, value in resource.items() if key != ownership.IRI_FIELD} for resource in facts["resources"]
    ]
    return stripped


def test_the_lkod_harvested_back_into_another_organization_gives_the_same_records(live_ckan: str, demo_records):
    from ckan.plugins import toolkit
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj
    from ckanext.harvest.tests.lib import run_harvest_job

    from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

    reader = factories.Organization(name="ctenar")
    source = call_action(
        "harvest_source_create",
        context={"user": factories.Sysadmin()["name"]},
        name="nas-lkod",
        title="Náš LKOD",
        url=f"{live_ckan}/lkod/catalog",
        source_type="lkod",
        owner_org=reader["id"],
        config=json.dumps({"allow_private_addresses": True}),
    )
    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    run_harvest_job(job, PassportLkodHarvesterPlugin())
    report = toolkit.get_action("harvest_job_report")({"ignore_auth": True}, {"id": job.id})
    assert not report["gather_errors"] and not report["object_errors"]

    harvested = call_action("package_search", fq=f"owner_org:{reader['id']}", include_private=True, rows=10)["results"]
    by_iri = {record[ownership.IRI_FIELD]: record for record in harvested}
    assert set(by_iri) == {f"{live_ckan}/lkod/dataset/{record['id']}" for record in demo_records}
    for record in demo_records:
        copy = by_iri[f"{live_ckan}/lkod/dataset/{record['id']}"]
        got, expected = _without_iris(ownership.LKOD.comparable(copy)), _without_iris(_as_published(record))
        for resource_got, resource_expected in zip(got.pop("resources"), expected.pop("resources"), strict=True):
            assert resource_got == resource_expected, record["name"]
        assert got == expected, record["name"]
        assert [r[ownership.IRI_FIELD] for r in copy["resources"]] == [
            f"{live_ckan}/lkod/dataset/{record['id']}/distribution/{r['id']}" for r in record["resources"]
        ]
