"""One MR identifier, one record: the registry entry names the record, and no two active records share a name.

The Predgorny district's real registry (fixtures/real/predgor) lists two datasets; the passport of
``2618017120-politicaldivisions`` states the identifier of its sibling ``2618017120-subdivisions``. The sibling's
own passport is not in the fixtures: it is made here from the real one, with the sibling's title and folder.
"""
from __future__ import annotations

import json
import shutil

import pytest
from ckan import model
from ckan.lib import search
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject

from tests.support.catalog_records import owned_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    # Every record public, so the exports answer without the editorial workflow.
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

ALLOW = {"allow_private_addresses": True}
PREDGOR_HOST = "http://opendata.predgor-ray.ru"
POLITICAL, SUBDIVISIONS = "2618017120-politicaldivisions", "2618017120-subdivisions"
TAKEN = "7709876545-pharmacies"


@pytest.fixture
def predgor_site(tmp_path, serve_site, real_fixtures):
    """The Predgorny registry and passports as the district publishes them, on a local server."""
    root = tmp_path / "predgor"
    shutil.copytree(real_fixtures / "predgor", root)
    site = serve_site(root)
    registry = root / "list.json"
    registry.write_text(registry.read_text("utf-8").replace(PREDGOR_HOST, site.url), "utf-8")
    entries = {e["identifier"]: e for e in json.loads(registry.read_text("utf-8"))["meta"]}
    sibling = json.loads((root / POLITICAL / "meta.json").read_text("utf-8"))
    assert sibling["identifier"] == SUBDIVISIONS  # the real passport names its sibling
    sibling.update(title=entries[SUBDIVISIONS]["title"], description=entries[SUBDIVISIONS]["title"])
    for version in sibling["data"] + sibling["structure"]:
        version["source"] = version["source"].replace(POLITICAL, SUBDIVISIONS)
    (root / SUBDIVISIONS).mkdir()
    (root / SUBDIVISIONS / "meta.json").write_text(json.dumps(sibling, ensure_ascii=False), "utf-8")
    return site


@pytest.fixture
def predgor(predgor_site, harvest_source, run_harvest):
    registry = f"{predgor_site.url}/list.json"
    results, _ = run_harvest(harvest_source(registry, ALLOW | {"registry_url": registry}))
    return results


def test_each_registry_entry_is_a_record_under_the_entrys_identifier(predgor):
    assert {r["report_status"] for r in predgor.values()} == {"added"}
    records = {guid: r["dataset"] for guid, r in predgor.items()}
    assert {guid: d["mr_identifier"] for guid, d in records.items()} == {
        POLITICAL: POLITICAL,
        SUBDIVISIONS: SUBDIVISIONS,
    }
    assert {d["name"] for d in records.values()} == {POLITICAL, SUBDIVISIONS}


def test_a_passport_naming_another_identifier_keeps_its_finding(predgor):
    findings = {
        guid: {e.key: e.value for e in HarvestObject.get(r["obj_id"]).extras}.get("findings", "")
        for guid, r in predgor.items()
    }
    assert "check.registry_identifier_mismatch" in findings[POLITICAL]
    assert "check.registry_identifier_mismatch" not in findings[SUBDIVISIONS]


def test_opendata_serves_each_identifiers_own_record(web, predgor):
    titles = {guid: r["dataset"]["title"] for guid, r in predgor.items()}
    assert len(set(titles.values())) == 2
    for identifier in (POLITICAL, SUBDIVISIONS):
        served = json.loads(web.get(f"/opendata/{identifier}/meta.json").body)
        assert (served["identifier"], served["title"]) == (identifier, titles[identifier])


def test_a_second_sources_entry_for_a_taken_identifier_is_an_object_error(
    demo_site, tmp_path, serve_site, harvest_source, run_harvest
):
    first, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW, name="first"))
    holder = call_action("package_show", id=first[TAKEN]["dataset"]["id"])

    # Another site lists the same identifier, and one of its own.
    other = tmp_path / "other"
    shutil.copytree(demo_site.root, other)
    night = "7709876545-nightpharmacies"
    (other / "opendata" / night).mkdir()
    passport = (other / "opendata" / TAKEN / "meta.csv").read_bytes().replace(TAKEN.encode(), night.encode())
    (other / "opendata" / night / "meta.csv").write_bytes(passport)
    registry = other / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    taken = next(e for e in data["meta"] if e["identifier"] == TAKEN)
    data["meta"] = [taken, {**taken, "identifier": night, "link": f"/opendata/{night}/meta.csv"}]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    second_site = serve_site(other)

    results, job = run_harvest(harvest_source(f"{second_site.url}/opendata/list.json", ALLOW, name="second"))

    assert results[night]["report_status"] == "added"
    refused = results[TAKEN]
    assert refused["report_status"] == "errored"
    message = refused["errors"][0].message
    assert message.startswith("[harvest.identifier_taken]") and holder["name"] in message
    assert HarvestObject.get(refused["obj_id"]).current is False
    holders = call_action("package_search", fq=f'mr_identifier:"{TAKEN}"', include_private=True)["results"]
    assert [d["id"] for d in holders] == [holder["id"]]
    assert call_action("package_show", id=holder["id"])["metadata_modified"] == holder["metadata_modified"]


def test_an_entry_for_an_identifier_a_portal_record_holds_is_an_object_error(demo_site, harvest_source, run_harvest):
    portal = factories.Dataset(**owned_record(name="lekarny", mr_identifier=TAKEN))
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    assert results[TAKEN]["report_status"] == "errored"
    assert "harvest.identifier_taken" in results[TAKEN]["errors"][0].message
    assert "lekarny" in results[TAKEN]["errors"][0].message
    assert {r["report_status"] for guid, r in results.items() if guid != TAKEN} == {"added"}
    assert call_action("package_show", id=portal["id"])["title"] == portal["title"]


def test_a_portal_record_may_not_claim_a_taken_identifier(demo_site, harvest_source, run_harvest):
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    sysadmin = factories.Sysadmin()
    with pytest.raises(toolkit.ValidationError) as refused:
        call_action("package_create", context={"user": sysadmin["name"]}, **owned_record(mr_identifier=TAKEN))
    assert TAKEN in refused.value.error_dict["mr_identifier"][0]


def test_an_existing_portal_record_may_not_take_over_an_identifier(demo_site, harvest_source, run_harvest):
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    sysadmin = factories.Sysadmin()
    portal = factories.Dataset(**owned_record(mr_identifier="7708234640-obyvatelstvo"))
    with pytest.raises(toolkit.ValidationError) as refused:
        call_action("package_patch", context={"user": sysadmin["name"]}, id=portal["id"], mr_identifier=TAKEN)
    assert "mr_identifier" in refused.value.error_dict


def test_a_record_holding_an_identifier_from_before_the_rule_still_saves(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    earlier = factories.Dataset(**owned_record(mr_identifier="7708234640-obyvatelstvo"))
    # Made before identifiers were unique: the record shares the harvested record's identifier, in the database
    # and in the index (CKAN 2.12 indexes from its actions only, not on a commit of the model).
    model.Package.get(earlier["id"]).extras["mr_identifier"] = TAKEN
    model.repo.commit()
    search.rebuild(earlier["id"])
    saved = call_action(
        "package_patch", context={"user": factories.Sysadmin()["name"]}, id=earlier["id"], title="Lékárny"
    )
    assert (saved["title"], saved["mr_identifier"]) == ("Lékárny", TAKEN)


def test_an_entry_back_in_the_registry_takes_up_its_withdrawn_record(demo_site, harvest_source, run_harvest):
    registry = demo_site.root / "opendata" / "list.json"
    listed = registry.read_text("utf-8")
    source = harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW | {"on_missing": "withdraw"})
    first, _ = run_harvest(source)
    data = json.loads(listed)
    data["meta"] = [e for e in data["meta"] if e["identifier"] != TAKEN]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    run_harvest(source)
    registry.write_text(listed, "utf-8")
    results, _ = run_harvest(source)
    assert results[TAKEN]["report_status"] != "errored", results[TAKEN]["errors"]
    holders = call_action("package_search", fq=f'mr_identifier:"{TAKEN}"', include_private=True)["results"]
    assert [d["id"] for d in holders] == [first[TAKEN]["dataset"]["id"]]
    current = HarvestObject.get(results[TAKEN]["obj_id"])
    assert (current.current, current.package_id) == (True, first[TAKEN]["dataset"]["id"])


# A site may keep the identifier in another field (here CKAN's own ``version`` column): harvests write it there,
# and the uniqueness rules read it there.
IDENTIFIER_IN_VERSION = pytest.mark.ckan_config("ckanext.passport.identifier_field", "version")


@IDENTIFIER_IN_VERSION
def test_a_harvest_writes_the_registry_identifier_into_the_configured_field(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))

    assert call_action("package_show", id=results[TAKEN]["dataset"]["id"])["version"] == TAKEN


@IDENTIFIER_IN_VERSION
def test_an_identifier_a_portal_record_holds_in_the_configured_field_is_taken_for_a_harvest(
    demo_site, harvest_source, run_harvest
):
    factories.Dataset(**owned_record(name="lekarny", version=TAKEN))

    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))

    assert results[TAKEN]["report_status"] == "errored"
    assert "harvest.identifier_taken" in results[TAKEN]["errors"][0].message
    assert "lekarny" in results[TAKEN]["errors"][0].message


@IDENTIFIER_IN_VERSION
def test_a_portal_record_may_not_claim_an_identifier_held_in_the_configured_field(
    demo_site, harvest_source, run_harvest
):
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    sysadmin = factories.Sysadmin()

    with pytest.raises(toolkit.ValidationError) as refused:
        call_action("package_create", context={"user": sysadmin["name"]}, **owned_record(version=TAKEN))

    assert TAKEN in refused.value.error_dict["version"][0]
