"""Publish, harvest back, in both norms: our records' LKOD documents (the catalog and each dataset, written by the
code the /lkod/ views serve them with) served in 2024-05-28 and in 2026-09-23 by a real local HTTP server, each
read by an ``lkod`` source into its own organization, give back the same records, English texts included.

"The same" is what the mapping states (lkod.ownership.LKOD.comparable over graph_in's fields), as in
tests/e2e/test_lkod_roundtrip.py; that test goes through a live CKAN's /lkod/, this one through the documents'
code (its views are tests/lkod/test_views_norm.py), so both norms cost one harvest each, in-process.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ckan.plugins.toolkit as tk
import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.lkod_records import HVD_CATEGORY
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, create, token

from ckanext.passport.catalog.record.conditions import effective_conditions
from ckanext.passport.lkod import catalog_stream, iris, jsonld, norms, ownership
from ckanext.passport.lkod.series import IN_SERIES_FIELD as IN_SERIES

pytestmark = list(LKOD_CONFIG_READ_ONLY)

ENGLISH = {
    "title_en": "Population of municipalities",
    "notes_en": "Population of every municipality.",
    "keywords_en": ["population", "municipalities"],
}
CATALOG = {
    "title": "Katalog otevřených dat portálu",
    "description": "Lokální katalog otevřených dat.",
    "publisher_ico": "00025593",
}


def _publish(root: Path, url: str, records: list[dict[str, Any]], norm: str) -> None:
    """Write the catalog and dataset documents in ``norm`` as the portal at ``url`` serves them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(tk.config, "ckan.site_url", url)
        (root / "lkod" / "dataset").mkdir(parents=True)
        chunks = catalog_stream.jsonld_chunks(CATALOG, iter([record["id"] for record in records]), norm)
        (root / "lkod" / "catalog").write_text("".join(chunks), "utf-8")
        for record in records:
            document = jsonld.dataset_document(record, norm)
            (root / "lkod" / "dataset" / record["id"]).write_text(json.dumps(document, ensure_ascii=False), "utf-8")


def _harvest(url: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj
    from ckanext.harvest.tests.lib import run_harvest_job

    from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

    reader = factories.Organization()
    source = call_action(
        "harvest_source_create",
        context={"user": factories.Sysadmin()["name"]},
        name=f"lkod-{reader['name']}",
        title="Náš LKOD",
        url=f"{url}/lkod/catalog",
        source_type="lkod",
        owner_org=reader["id"],
        config=json.dumps({"allow_private_addresses": True, "rdf_format": "json-ld"}),
    )
    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    run_harvest_job(job, PassportLkodHarvesterPlugin())
    report = tk.get_action("harvest_job_report")({"ignore_auth": True}, {"id": job.id})
    found = call_action("package_search", fq=f"owner_org:{reader['id']}", include_private=True, rows=10)["results"]
    return report, found


def _build(tmp_path_factory, serve_site) -> dict[str, Any]:
    org, sysadmin = factories.Organization(), factories.Sysadmin()
    series = create(org, sysadmin, "rozpocty", record_kind="series", resources=[])
    records = [
        create(org, sysadmin, "obyvatelstvo", **ENGLISH),
        create(org, sysadmin, "jizdni-rady", hvd_category=HVD_CATEGORY),
        series,
        create(org, sysadmin, "rozpocet-2019", in_series=series["id"]),
    ]
    built: dict[str, Any] = {"records": records}
    for norm in norms.NORMS:
        root = tmp_path_factory.mktemp(f"lkod-{norm}")
        site = serve_site(root)
        _publish(root, site.url, records, norm)
        built[norm] = (site.url, *_harvest(site.url))
    return built


@pytest.fixture(scope="module")
def module_sites():
    """Real HTTP servers over folders for the whole module (tests/conftest.py's serve_site is per test)."""
    from tests.support.http_site import Site

    started = []

    def serve(root: Path):
        site = Site(root).start()
        started.append(site)
        return site

    yield serve
    for site in started:
        site.stop()


@pytest.fixture
def harvested(built_once, tmp_path_factory, module_sites) -> dict[str, Any]:
    return built_once("roundtrip", lambda: _build(tmp_path_factory, module_sites))


def _as_published(record: dict[str, Any]) -> dict[str, Any]:
    """The record as the mapping publishes it (docs/lkod-mapping.md): a district as its region, each distribution
    with the conditions that hold for it, a file distribution with its first schema and no format documentation."""
    units = [iris.territory_code(iris.territory_iri(code)) for code in record["spatial_area"]]
    published = dict(record, spatial_area=list(dict.fromkeys(units)))
    published["resources"] = [
        dict(resource, **effective_conditions(record, resource), **_file_rule(resource)) for resource in record["resources"]
    ]
    return ownership.LKOD.comparable(published)


def _file_rule(resource: dict[str, Any]) -> dict[str, Any]:
    if resource.get("source_type") != "file":
        return {}
    return {"schema_urls": resource.get("schema_urls", [])[:1], "format_docs": []}


def _without_iris(facts: dict[str, Any]) -> dict[str, Any]:
    stripped = {key: value for key, value in facts.items() if key != ownership.IRI_FIELD}
    stripped["resources"] = [
        {key: value for key, value in resource.items() if key != ownership.IRI_FIELD} for resource in facts["resources"]
    ]
    return stripped


@pytest.mark.parametrize("norm", norms.NORMS)
def test_the_harvest_of_our_documents_reads_every_one_without_errors(harvested, norm):
    _, report, found = harvested[norm]

    assert not report["gather_errors"] and not report["object_errors"]
    assert len(found) == len(harvested["records"])


@pytest.mark.parametrize("norm", norms.NORMS)
def test_the_records_harvested_back_are_the_same_records(harvested, norm):
    url, _, found = harvested[norm]
    by_iri = {record[ownership.IRI_FIELD]: record for record in found}
    for record in harvested["records"]:
        copy = by_iri[f"{url}/lkod/dataset/{record['id']}"]
        got, expected = _without_iris(ownership.LKOD.comparable(copy)), _without_iris(_as_published(record))
        # A member names its series by each portal's own record (test_a_member_names_the_series_copy).
        got.pop(IN_SERIES), expected.pop(IN_SERIES)
        for resource_got, resource_expected in zip(got.pop("resources"), expected.pop("resources"), strict=True):
            differing = {key for key in resource_expected if resource_got.get(key) != resource_expected[key]}
            assert not differing, {key: (resource_got.get(key), resource_expected[key]) for key in differing}
        assert got == expected, record["name"]


@pytest.mark.parametrize("norm", norms.NORMS)
def test_the_series_comes_back_a_series_and_its_member_names_the_series_copy(harvested, norm):
    url, _, found = harvested[norm]
    by_iri = {record[ownership.IRI_FIELD]: record for record in found}
    series, member = harvested["records"][2:]
    series_copy = by_iri[f"{url}/lkod/dataset/{series['id']}"]
    member_copy = by_iri[f"{url}/lkod/dataset/{member['id']}"]
    assert series_copy["record_kind"] == "series" and series_copy["resources"] == []
    # The source's IRI of it, whichever of the two the harvest read first (catalog.record.series).
    assert member_copy[IN_SERIES] == series_copy[ownership.IRI_FIELD]


def test_a_harvested_members_page_links_the_series_harvested_from_its_iri(web, harvested):
    url, _, found = harvested[norms.DEFAULT]
    by_iri = {record[ownership.IRI_FIELD]: record for record in found}
    series, member = harvested["records"][2:]
    series_copy = by_iri[f"{url}/lkod/dataset/{series['id']}"]
    member_copy = by_iri[f"{url}/lkod/dataset/{member['id']}"]
    # Harvested records start as drafts of the reading organization: a sysadmin reads the page.
    page = web.get(f"/dataset/{member_copy['name']}", headers=token(factories.Sysadmin())).get_data(as_text=True)

    assert f'<a href="/dataset/{series_copy["name"]}">{series_copy["title"]}</a>' in page


@pytest.mark.parametrize("norm", norms.NORMS)
def test_both_languages_are_kept(harvested, norm):
    url, _, found = harvested[norm]
    source = harvested["records"][0]
    (copy,) = [record for record in found if record[ownership.IRI_FIELD].endswith(source["id"])]
    assert (copy["title"], copy["title_en"], copy["notes_en"]) == (source["title"], *list(ENGLISH.values())[:2])
    assert sorted(copy["keywords_en"]) == sorted(ENGLISH["keywords_en"])
