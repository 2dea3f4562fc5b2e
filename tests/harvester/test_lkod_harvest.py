"""Harvesting another Czech LKOD (source type ``lkod``): the catalog's datasets land as Czech records, each
unreadable dataset document is its own coded error, re-harvests change only what the source changed and keep the
curator's work, and a catalog not read whole deletes nothing."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import EUROVOC_ECONOMICS
from tests.support.http_site import Fault
from tests.support.lkod_site import BAD, GOOD
from tests.support.lkod_harvest import (ALLOW, CURATOR_FIELDS, CURATOR_PART, lkod, lkod_source,  # noqa: F401
                                         object_error_codes, organization, report_statuses, run_lkod)

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def _records() -> dict[str, dict]:
    """The harvested records by their dataset IRI."""
    found = call_action("package_search", q="*:*", rows=100, include_private=True)["results"]
    return {record.get("lkod_iri"): call_action("package_show", id=record["id"]) for record in found}


def _gather_error_codes(job: dict) -> list[str]:
    errors = call_action("harvest_job_report", id=job["id"])["gather_errors"]
    return [error["message"].split("]", 1)[0].lstrip("[") for error in errors]


def test_the_listed_datasets_land_as_czech_records_in_the_sources_organization(lkod, lkod_source, run_lkod,
                                                                              organization):
    results, _ = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    records = _records()
    assert set(records) == {lkod.dataset_iri(key) for key in GOOD}
    assert {report_statuses(results)[lkod.dataset_iri(key)] for key in GOOD} == {"added"}
    vld = records[lkod.dataset_iri("vld")]
    assert vld["title"] == "Jízdní řády veřejné linkové dopravy"
    # The HVD example has the same title: one of the two names has a number appended.
    assert vld["name"].startswith("jizdni-rady-verejne-linkove-dopravy")
    assert vld["owner_org"] == organization["id"]
    assert vld["editorial_state"] == "draft"


def test_a_series_lands_as_a_series_record_its_member_naming_it(lkod, lkod_source, run_lkod):
    run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    records = _records()
    series, member = records[lkod.dataset_iri("rozpocet")], records[lkod.dataset_iri("rozpocet-2019")]
    assert series["record_kind"] == "series" and member["record_kind"] == "dataset"
    assert series["title"] == "Rozpočet Ministerstva dopravy"
    # The source's IRI of it, whichever of the two the harvest read first.
    assert member["in_series"] == series["lkod_iri"] == lkod.dataset_iri("rozpocet")


def test_the_source_lists_its_records(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)

    listed = call_action("package_search", fq=f'harvest_source_id:"{source["id"]}"', rows=100)["results"]
    assert {record["lkod_iri"] for record in listed} == {lkod.dataset_iri(key) for key in GOOD}


def test_a_record_carries_the_lkod_fields_of_its_dataset(lkod, lkod_source, run_lkod):
    run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    vld = _records()[lkod.dataset_iri("vld")]
    assert vld["data_themes"] == ["TRAN"]
    assert vld["accrual_periodicity"] == "WEEKLY_3"
    assert vld["temporal_start"] == "2009-01-01"
    assert vld["temporal_end"] == "2017-12-31"
    assert vld["publisher_id"] == "66003008"
    csv = next(r for r in vld["resources"] if r["lkod_iri"] == lkod.dataset_iri("vld") + "/distribuce/csv")
    assert csv["url"] == "https://portal.cisjr.cz/pub/draha/mestske/JDF.zip"
    assert csv["use_author_work"] == "cc-by-4.0"
    assert csv["use_author"] == "Ministerstvo dopravy, Odbor veřejné dopravy"
    assert csv["use_personal_data"] == "no-personal-data"
    sparql = next(r for r in vld["resources"] if r["lkod_iri"] == lkod.dataset_iri("vld") + "/distribuce/sparql")
    assert sparql["use_author_work"] == "no-copyright-work"


def test_each_unreadable_dataset_document_is_its_own_coded_error(lkod, lkod_source, run_lkod):
    results, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    errors = object_error_codes(job)
    assert {iri: errors.get(iri) for iri in map(lkod.dataset_iri, BAD)} == {
        lkod.dataset_iri(key): [code] for key, code in BAD.items()
    }
    assert {report_statuses(results)[lkod.dataset_iri(key)] for key in BAD} == {"errored"}
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD}


def test_a_source_asking_for_hard_index_commits_gets_them_as_a_passport_source_does(lkod, lkod_source, run_lkod,
                                                                                    solr_updates):
    source = lkod_source(lkod.catalog_url, ALLOW | {"index_commit": "hard"})
    solr_updates.clear()
    run_lkod(source)

    assert solr_updates.count("soft") == 0
    assert solr_updates.count("hard") >= len(GOOD)
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD}


def test_each_dataset_is_made_searchable_by_a_soft_commit_by_default(lkod, lkod_source, run_lkod, solr_updates):
    source = lkod_source(lkod.catalog_url, ALLOW)
    solr_updates.clear()
    run_lkod(source)

    assert solr_updates.count("soft") >= len(GOOD)
    assert solr_updates.count("hard") <= 1  # the job's end indexes its source once, CKAN's way


def test_a_reharvest_of_an_unchanged_catalog_rewrites_nothing(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    before = {iri: record["metadata_modified"] for iri, record in _records().items()}

    results, _ = run_lkod(source)

    assert {report_statuses(results)[iri] for iri in before} == {"not modified"}
    assert {iri: record["metadata_modified"] for iri, record in _records().items()} == before


def test_a_changed_dataset_document_updates_only_its_record(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    lkod.write_dataset("vld", lkod.dataset_text("vld").replace("Jízdní řády veřejné linkové dopravy",
                                                                "Jízdní řády (nové)"))

    results, _ = run_lkod(source)

    statuses = {iri: report_statuses(results)[iri] for iri in map(lkod.dataset_iri, GOOD)}
    assert statuses.pop(lkod.dataset_iri("vld")) == "updated"
    assert set(statuses.values()) == {"not modified"}
    assert _records()[lkod.dataset_iri("vld")]["title"] == "Jízdní řády (nové)"


def test_a_dataset_removed_from_the_catalog_is_deleted(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    lkod.list([key for key in [*GOOD, *BAD] if key != "hvd"])

    results, _ = run_lkod(source)

    assert report_statuses(results)[lkod.dataset_iri("hvd")] == "deleted"
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD if key != "hvd"}


def test_a_source_that_withdraws_makes_the_removed_datasets_record_private(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW | {"on_missing": "withdraw"})
    run_lkod(source)
    lkod.list([key for key in [*GOOD, *BAD] if key != "hvd"])

    results, _ = run_lkod(source)

    assert report_statuses(results)[lkod.dataset_iri("hvd")] == "deleted"
    assert {iri: record["private"] for iri, record in _records().items()} == {
        lkod.dataset_iri(key): key == "hvd" for key in GOOD
    }


@pytest.mark.parametrize(
    "fault, code",
    [
        (Fault(status=503), "fetch.server_error"),
        (Fault(body=b'{"@context": "https://ofn.gov.cz/dcat-ap-cz', content_type="application/ld+json"),
         "harvest.lkod_not_rdf"),
        (Fault(body=b'{"iri": "https://example.org/other"}', content_type="application/ld+json"),
         "harvest.lkod_no_catalog"),
    ],
    ids=["server-error", "cut-off", "no-catalog"],
)
def test_an_unreadable_catalog_deletes_nothing_and_says_why(lkod, lkod_source, run_lkod, fault, code):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    lkod.site.fault("/lkod/catalog.jsonld", fault)

    results, job = run_lkod(source)

    assert not any(status == "deleted" for status in report_statuses(results).values())
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD}
    assert code in _gather_error_codes(job)


def test_a_catalog_entry_that_is_not_an_iri_is_an_error_and_deletes_nothing(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    catalog = json.loads((lkod.root / "lkod" / "catalog.jsonld").read_text("utf-8"))
    catalog["datová_sada"] = [lkod.dataset_iri("vld"), {"typ": "Datová sada"}]
    (lkod.root / "lkod" / "catalog.jsonld").write_text(json.dumps(catalog, ensure_ascii=False), "utf-8")

    results, job = run_lkod(source)

    assert not any(status == "deleted" for status in report_statuses(results).values())
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD}
    assert {"harvest.lkod_dataset_not_iri", "harvest.registry_incomplete"} <= set(_gather_error_codes(job))


@pytest.mark.ckan_config("ckanext.passport.allow_private_addresses", "false")
def test_a_private_address_is_refused_unless_the_source_allows_it(lkod, lkod_source, run_lkod):
    results, job = run_lkod(lkod_source(lkod.catalog_url, name="guarded"))

    assert results == {}
    assert _gather_error_codes(job) == ["fetch.refused_address"]
    assert lkod.site.hits == []

    run_lkod(lkod_source(lkod.catalog_url, ALLOW, name="allowed"))
    assert set(_records()) == {lkod.dataset_iri(key) for key in GOOD}


def test_a_curators_work_survives_a_reharvest(lkod, lkod_source, run_lkod):
    source = lkod_source(lkod.catalog_url, ALLOW)
    run_lkod(source)
    record = _records()[lkod.dataset_iri("vld")]
    curator = {"user": factories.Sysadmin()["name"]}
    # The curator completes the record (fields no LKOD states), describes a distribution and adds a resource.
    call_action("package_patch", context=dict(curator), id=record["id"], record_language="cs",
                eurovoc=[{"uri": EUROVOC_ECONOMICS}], **{key: CURATOR_PART[key] for key in CURATOR_FIELDS})
    distribution = record["resources"][0]
    call_action("resource_patch", context=dict(curator), id=distribution["id"], description="Popis od kurátora")
    call_action("resource_create", context=dict(curator), package_id=record["id"], name="Návod",
                url="https://data.example.cz/navod.pdf", format="PDF")
    lkod.write_dataset("vld", lkod.dataset_text("vld").replace("Jízdní řády veřejné linkové dopravy",
                                                                "Jízdní řády (nové)"))

    results, _ = run_lkod(source)

    assert report_statuses(results)[lkod.dataset_iri("vld")] == "updated"
    stored = _records()[lkod.dataset_iri("vld")]
    assert stored["title"] == "Jízdní řády (nové)"
    assert {key: stored[key] for key in CURATOR_FIELDS} == {key: CURATOR_PART[key] for key in CURATOR_FIELDS}
    described = next(r for r in stored["resources"] if r["id"] == distribution["id"])
    assert (described["lkod_iri"], described["description"]) == (distribution["lkod_iri"], "Popis od kurátora")
    assert [r["name"] for r in stored["resources"] if not r.get("lkod_iri")] == ["Návod"]


def test_a_turtle_catalog_is_read(lkod, lkod_source, run_lkod):
    lkod.list(["vld.ttl", "hvd"])

    results, _ = run_lkod(lkod_source(lkod.turtle_catalog_url, ALLOW))

    assert set(_records()) == {lkod.dataset_iri("vld.ttl"), lkod.dataset_iri("hvd")}
    assert _records()[lkod.dataset_iri("vld.ttl")]["title"] == "Jízdní řády veřejné linkové dopravy"


def test_the_sources_rdf_format_decides_the_syntax_over_the_content_type(lkod, lkod_source, run_lkod):
    # The option holds for every document of the source: a Turtle catalog of Turtle datasets.
    lkod.list(["vld.ttl"])
    lkod.site.fault("/lkod/catalog.ttl", Fault(body=(lkod.root / "lkod" / "catalog.ttl").read_bytes(),
                                               content_type="application/ld+json"))

    run_lkod(lkod_source(lkod.turtle_catalog_url, ALLOW | {"rdf_format": "turtle"}, name="turtle"))
    _, job = run_lkod(lkod_source(lkod.turtle_catalog_url, ALLOW, name="declared"))

    assert set(_records()) == {lkod.dataset_iri("vld.ttl")}
    assert _gather_error_codes(job) == ["harvest.lkod_not_rdf"]


def test_a_dataset_iri_another_sources_record_holds_is_refused_and_that_record_untouched(
    lkod, lkod_source, run_lkod
):
    run_lkod(lkod_source(lkod.catalog_url, ALLOW, name="first"))
    before = {iri: record["metadata_modified"] for iri, record in _records().items()}
    other = factories.Organization()

    # ckanext-harvest allows one source per URL and config: the second one names its format.
    second = lkod_source(lkod.catalog_url, ALLOW | {"rdf_format": "json-ld"}, name="second", owner_org=other["id"])

    results, job = run_lkod(second)

    errors = object_error_codes(job)
    assert {errors[lkod.dataset_iri(key)][0] for key in GOOD} == {"harvest.lkod_iri_taken"}
    assert {iri: record["metadata_modified"] for iri, record in _records().items()} == before


def test_a_dataset_documents_error_is_shown_in_the_readers_language(web, lkod, lkod_source, run_lkod):
    _, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    response = web.get("/cs/api/3/action/harvest_job_report", params={"id": job["id"]},
                       headers={"Authorization": factories.SysadminWithToken()["token"]})

    messages = [e["message"] for found in response.json["result"]["object_errors"].values() for e in found["errors"]]
    assert any(m.startswith("[harvest.lkod_not_rdf] chyba: Dokument není čitelný JSON-LD ani Turtle: ") for m in messages)


@pytest.mark.ckan_config("ckanext.passport.max_lkod_catalog_bytes", "200")
def test_a_catalog_document_past_its_cap_is_a_coded_gather_error_and_gathers_nothing(lkod, lkod_source, run_lkod):
    results, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    assert results == {}
    assert _gather_error_codes(job) == ["fetch.too_large"]


@pytest.mark.ckan_config("ckanext.passport.max_lkod_dataset_bytes", "1000")
def test_a_dataset_document_past_its_cap_is_its_objects_coded_error(lkod, lkod_source, run_lkod):
    results, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    errors = object_error_codes(job)
    assert {key: errors.get(lkod.dataset_iri(key)) for key in GOOD} == {key: ["fetch.too_large"] for key in GOOD}
    assert _records() == {}


def test_a_dataset_document_importing_a_context_is_refused_without_a_request(lkod, lkod_source, run_lkod):
    (lkod.root / "context.jsonld").write_text(json.dumps({"@context": {"název": "https://attacker.example/"}}))
    document = json.loads(lkod.dataset_text("vld"))
    document["@context"] = [document["@context"], {"@import": f"{lkod.url}/context.jsonld"}]
    lkod.write_dataset("vld", json.dumps(document, ensure_ascii=False))

    results, job = run_lkod(lkod_source(lkod.catalog_url, ALLOW))

    assert object_error_codes(job)[lkod.dataset_iri("vld")] == ["harvest.lkod_remote_context"]
    assert "/context.jsonld" not in lkod.site.hits
    assert lkod.dataset_iri("hvd") in _records()
