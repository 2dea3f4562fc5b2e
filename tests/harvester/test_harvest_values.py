"""What a harvested dataset holds: MR fields, catalog fields, typed resources, structures, organizations."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
# What an MR passport cannot carry and a curator completes before editing a harvested record.
CURATOR_FIELDS = ("openness_conditions", "publisher_email", "record_validity")


def _dataset(results, guid):
    return results[guid]["dataset"]


def test_meta_csv_passport_fills_mr_and_catalog_fields(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW))
    okved = _dataset(results, "7708234640-okvedva")
    assert okved["mr_identifier"] == "7708234640-okvedva"
    assert okved["mr_standard_version"] == "http://opendata.gosmonitor.ru/standard/3.0"
    assert okved["publisher_id"] == "7708234640" and okved["publisher_id_scheme"] == "inn"
    assert okved["publisher_name"] == "Федеральная служба государственной статистики"
    assert okved["maintainer"] == "Апатова Ирина Петровна"
    assert okved["mr_publisher_phone"] == "+7 (495) 568-00-42 доб. 99732"
    assert okved["mr_created"] == "2018-09-05"
    assert 0 <= int(okved["mr_conformance"]) <= 100
    assert okved["editorial_state"] == "draft"


def test_versions_become_typed_resources_newest_first(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW))
    resources = _dataset(results, "7708234640-okvedva")["resources"]
    data = [r for r in resources if r["resource_type"] == "data"]
    structures = [r for r in resources if r["resource_type"] == "structure"]
    assert len(data) == 42 and len(structures) == 1
    assert data[0]["mr_version"] == "20251101T1411"
    assert data[0]["mr_structure_version"] == "20180402T1704"
    assert [r["mr_version"] for r in data] == sorted((r["mr_version"] for r in data), reverse=True)


def test_mr23_three_column_passport_lands(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/opendatalist.csv", ALLOW))
    terorg = _dataset(results, "7703092752-terorg")
    assert terorg["title"] == "Перечень территориальных органов Росгидромета"
    assert terorg["mr_standard_version"] == "http://opendata.gosmonitor.ru/standard/2.3"


def test_fetch_structures_keeps_the_field_list(demo_site, harvest_source, run_harvest):
    # Only a passport whose structure is on this site: the real fixtures name the publishers' own hosts.
    registry = demo_site.root / "opendata" / "list.csv"
    lines = registry.read_text("utf-8").splitlines()
    registry.write_text("\n".join(lines[:2] + [l for l in lines if l.startswith("5027123457-bustops")]) + "\n", "utf-8")
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"fetch_structures": True}))
    structure = next(
        r for r in _dataset(results, "5027123457-bustops")["resources"] if r["resource_type"] == "structure"
    )
    assert [f["name"] for f in json.loads(structure["mr_fields"])] == ["name", "lat", "lon"]


def test_create_organizations_makes_one_per_publisher(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"create_organizations": True}))
    owner = call_action("organization_show", id=_dataset(results, "7708234640-okvedva")["owner_org"])
    assert owner["name"] == "org-7708234640"
    assert owner["title"] == "Федеральная служба государственной статистики"
    assert len({d["dataset"]["owner_org"] for d in results.values()}) == 6


@pytest.mark.ckan_config("ckanext.passport.initial_states", "published")
def test_default_editorial_state_applies_to_new_records(demo_site, harvest_source, run_harvest):
    results, _ = run_harvest(
        harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"default_editorial_state": "published"})
    )
    assert {d["dataset"]["editorial_state"] for d in results.values()} == {"published"}


def test_name_taken_by_another_dataset_gets_a_new_name_not_a_crash(demo_site, harvest_source, run_harvest):
    factories.Dataset(name="7709876545-pharmacies", owner_org=factories.Organization()["id"], **_complete())
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW))
    landed = results["7709876545-pharmacies"]
    assert landed["report_status"] == "added"
    assert landed["dataset"]["name"] != "7709876545-pharmacies"
    assert landed["dataset"]["name"].startswith("7709876545-pharmacies")


def test_names_stay_stable_across_reharvests(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    first, _ = run_harvest(source)
    path = demo_site.root / "opendata/5027123457-bustops/meta.json"
    path.write_text(path.read_text("utf-8").replace("Остановки общественного транспорта", "Остановки"), "utf-8")
    run_harvest(source)
    dataset = call_action("package_show", id=first["5027123457-bustops"]["dataset"]["id"])
    assert dataset["name"] == "5027123457-bustops" and dataset["title"] == "Остановки"


def test_curator_fields_survive_a_reharvest_that_changes_the_passport(demo_site, harvest_source, run_harvest):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    first, _ = run_harvest(source)
    dataset_id = first["5027123457-bustops"]["dataset"]["id"]
    curator_part = {k: v for k, v in _complete().items() if k in CURATOR_FIELDS}
    call_action(
        "package_patch",
        context={"user": factories.Sysadmin()["name"]},
        id=dataset_id,
        eurovoc=[{"uri": "http://eurovoc.europa.eu/100155", "label": ""}],
        mr_periodicity="ежегодно",
        **curator_part,
    )
    path = demo_site.root / "opendata/5027123457-bustops/meta.json"
    path.write_text(path.read_text("utf-8").replace("Остановки автобусов", "Остановки автобусов и трамваев"), "utf-8")
    results, _ = run_harvest(source)
    assert results["5027123457-bustops"]["report_status"] == "updated"
    dataset = call_action("package_show", id=dataset_id)
    assert dataset["notes"] == "Остановки автобусов и трамваев с координатами"
    assert [c["uri"] for c in dataset["eurovoc"]] == ["http://eurovoc.europa.eu/100155"]
    assert dataset["mr_periodicity"] == "ежегодно"
    assert dataset["publisher_email"] == curator_part["publisher_email"]


def test_withdraw_makes_a_removed_dataset_private_instead_of_deleting_it(demo_site, harvest_source, run_harvest):
    registry = demo_site.root / "opendata" / "list.json"
    source = harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW | {"on_missing": "withdraw"})
    first, _ = run_harvest(source)
    data = json.loads(registry.read_text("utf-8"))
    data["meta"] = [e for e in data["meta"] if e["identifier"] != "5027123457-bustops"]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    run_harvest(source)
    dataset = call_action("package_show", id=first["5027123457-bustops"]["dataset"]["id"])
    assert dataset["state"] == "active" and dataset["private"] is True


def _complete() -> dict:
    from tests.support.catalog_records import complete_record

    record = complete_record()
    record.pop("name", None)
    return record


def test_the_stored_score_counts_what_reading_the_passport_found(demo_site, harvest_source, run_harvest):
    """Scored as the site check scores: the pharmacies' Windows-1251 meta.csv costs its decoding warning too."""
    from ckanext.harvest.model import HarvestObject
    from tests.support.demo_site import PHARMACIES

    from ckanext.passport.mr.check import score
    from ckanext.passport.mr.problems import from_dict

    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW))
    content = json.loads(HarvestObject.get(results[PHARMACIES]["obj_id"]).content)
    read = [from_dict(p) for p in content["problems"]]
    checked = [from_dict(p) for p in content["conformance"]["problems"]]
    assert "decode.windows_1251" in {p.code for p in read} - {p.code for p in checked}
    stored = content["conformance"]["score"]
    assert stored == score(read + checked) == score(checked) - 5
    assert stored == int(_dataset(results, PHARMACIES)["mr_conformance"])
