"""A protected INN lands only through its holder's sources (harvest.publishers): an organization a sysadmin gave an
INN is the publisher of every MR identifier under it. Another source's entry under it is refused, read or not, with
``harvest.inn_protected`` naming the holder; the holder's own source, or one a sysadmin lets harvest for it, imports
it, and ``/opendata/<identifier>/`` then serves the publisher's record.
"""
from __future__ import annotations

import json
import shutil

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

ALLOW = {"allow_private_addresses": True}
INN = "7709876545"
PROTECTED = f"{INN}-pharmacies"
UNREAD = f"{INN}-nightpharmacies"


@pytest.fixture
def ministry():
    return factories.Organization(name="minzdrav", title="Ministry of Health", inns=[INN])


@pytest.fixture
def squatter_site(demo_site, tmp_path, serve_site):
    """Another site listing the protected identifier and one under the same INN it does not even publish."""
    root = tmp_path / "squatter"
    shutil.copytree(demo_site.root, root)
    registry = root / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    taken = next(entry for entry in data["meta"] if entry["identifier"] == PROTECTED)
    data["meta"].append({**taken, "identifier": UNREAD, "link": f"/opendata/{UNREAD}/meta.csv"})
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return serve_site(root)


def test_another_sources_entry_under_a_protected_inn_is_refused_naming_the_holder(
    ministry, squatter_site, harvest_source, run_harvest
):
    results, _ = run_harvest(harvest_source(f"{squatter_site.url}/opendata/list.json", ALLOW, name="squatter"))

    refused = results[PROTECTED]
    assert refused["report_status"] == "errored"
    message = refused["errors"][0].message
    assert message.startswith("[harvest.inn_protected]") and "Ministry of Health" in message
    assert HarvestObject.get(refused["obj_id"]).current is False
    assert call_action("package_search", fq=f'mr_identifier:"{PROTECTED}"', include_private=True)["count"] == 0
    assert results["7708234640-okvedva"]["report_status"] == "added"


def test_an_unreadable_entry_under_a_protected_inn_is_refused_before_it_is_fetched(
    ministry, squatter_site, harvest_source, run_harvest
):
    results, _ = run_harvest(harvest_source(f"{squatter_site.url}/opendata/list.json", ALLOW, name="squatter"))

    assert [error.message.split("]")[0] for error in results[UNREAD]["errors"]] == ["[harvest.inn_protected"]


def test_the_holders_own_source_imports_it_after_a_squatter_and_opendata_serves_its_record(
    web, ministry, demo_site, squatter_site, harvest_source, run_harvest
):
    run_harvest(harvest_source(f"{squatter_site.url}/opendata/list.json", ALLOW, name="squatter"))

    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW, name="ministry-site",
                                            owner_org=ministry["id"]))

    assert results[PROTECTED]["report_status"] == "added"
    record = call_action("package_show", id=results[PROTECTED]["dataset"]["id"])
    assert record["owner_org"] == ministry["id"]
    served = json.loads(web.get(f"/opendata/{PROTECTED}/meta.json").body)
    assert (served["identifier"], served["title"]) == (PROTECTED, record["title"])


def test_a_source_a_sysadmin_lets_harvest_for_the_holder_imports_it(
    ministry, squatter_site, harvest_source, run_harvest
):
    config = ALLOW | {"publisher_organizations": [ministry["name"]]}
    results, _ = run_harvest(harvest_source(f"{squatter_site.url}/opendata/list.json", config, name="aggregator"))

    assert results[PROTECTED]["report_status"] == "added"


def test_the_publishers_check_lists_a_source_that_would_now_be_refused(
    cli, demo_site, squatter_site, harvest_source, run_harvest
):
    from ckanext.passport.cli import passport as passport_cli

    # Harvested before the upgrade: no organization held the INN yet.
    squatter = harvest_source(f"{squatter_site.url}/opendata/list.json", ALLOW, name="squatter")
    run_harvest(squatter)
    harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW, name="ministry-site",
                   owner_org=factories.Organization(name="minzdrav", title="Ministry of Health", inns=[INN])["id"])

    found = cli.invoke(passport_cli, ["publishers", "check"])

    assert found.exit_code == 1, found.output
    assert found.output.splitlines() == [
        f"squatter: 2 identifiers under the INN {INN} of Ministry of Health",
        "1 source would have entries refused.",
    ]


def save_as(app, user: dict, owner_org: dict, source_type: str, config: dict):
    return app.post(
        "/api/3/action/harvest_source_create",
        json={"name": f"{source_type}-source", "url": "https://opendata.example.ru/opendata/",
              "source_type": source_type, "owner_org": owner_org["id"], "config": json.dumps(config)},
        headers={"Authorization": user["token"]},
    )


@pytest.mark.parametrize("source_type, config, code", [
    ("passport", {"publisher_organizations": ["minzdrav"]}, "config.publisher_organizations_sysadmin_only"),
    ("lkod", {"iri_hosts": ["data.example.cz"]}, "config.iri_hosts_sysadmin_only"),
])
def test_an_organization_admin_may_not_let_a_source_speak_for_others(
    web, org_admin, own_org, ministry, source_type, config, code
):
    response = save_as(web, org_admin, own_org, source_type, config)

    assert response.status_code == 409
    assert f"[{code}] " in response.json["error"]["config"][0]


def test_a_sysadmin_lists_an_aggregators_organizations_only_by_existing_names(web, own_org):
    response = save_as(web, factories.SysadminWithToken(), own_org, "passport",
                       {"publisher_organizations": ["nowhere"]})

    assert response.status_code == 409
    assert "[config.organization_unknown] " in response.json["error"]["config"][0]
