"""Who reads a conformance report: whoever may see the source; a record's conformance: its curators and editors.

Both actions check access themselves, so the API, the pages, the downloads and the fixed files refuse alike.
"""
from __future__ import annotations

import shutil

import pytest
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from catalog_records import complete_record
from demo_site import DEMO_SITE

pytestmark = [
    pytest.mark.stack,
    # Every record public, so that the record page is there for anonymous visitors too.
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
    pytest.mark.ckan_config("ckanext.passport.editors_organization", "conformance-editors"),
]

ALLOW = {"allow_private_addresses": True}
OKVED = "7708234640-okvedva"


@pytest.fixture(scope="module")
def people(stack_once):
    curator, member, outsider, editor = (factories.UserWithToken() for _ in range(4))
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"},
                                        {"name": member["name"], "capacity": "member"}])
    factories.Organization(name="conformance-editors", users=[{"name": editor["name"], "capacity": "member"}])
    return {"curator": curator, "member": member, "outsider": outsider, "editor": editor, "org": org}


@pytest.fixture(scope="module")
def private_source(people, tmp_path_factory, serve_site, harvest_source, run_harvest):
    """A private source of the organization, harvested once from the demo site."""
    root = tmp_path_factory.mktemp("access") / "site"
    shutil.copytree(DEMO_SITE, root)
    site = serve_site(root)
    source = harvest_source(f"{site.url}/opendata/list.csv", ALLOW, owner_org=people["org"]["id"], private=True,
                            name="private-conformance")
    results, _ = run_harvest(source)
    return source, results


def _report_as(user, source):
    context = {"user": user["name"] if user else "", "ignore_auth": False}
    return toolkit.get_action("passport_conformance_report")(context, {"id": source["name"]})


def test_members_of_a_private_sources_organization_read_its_report(private_source, people):
    source, _ = private_source
    for who in ("curator", "member"):
        assert len(_report_as(people[who], source)["passports"]) == 6


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_whoever_may_not_see_a_private_source_may_not_read_its_report(private_source, people, who):
    source, _ = private_source
    with pytest.raises(toolkit.NotAuthorized):
        _report_as(people.get(who), source)
    with pytest.raises(toolkit.NotAuthorized):
        toolkit.get_action("passport_conformance_history")(
            {"user": people[who]["name"] if who in people else ""}, {"id": source["id"]})


def test_the_pages_and_downloads_refuse_whom_the_action_refuses(private_source, people, app):
    source, _ = private_source
    token = {"Authorization": people["outsider"]["token"]}
    for path in ("", ".csv", ".json"):
        app.get(f"/harvest/{source['name']}/conformance{path}", headers=token, status=403)
    member = {"Authorization": people["member"]["token"]}
    report = app.get(f"/api/3/action/passport_conformance_report?id={source['name']}", headers=member).json["result"]
    fixed = report["passports"][0]["fixed"]["meta.xml"].split("://", 1)[1].split("/", 1)[1]
    app.get("/" + fixed, headers=token, status=403)
    assert app.get("/" + fixed, headers=member).body.startswith("<?xml")


def test_an_unknown_source_is_not_found(stack_once):
    with pytest.raises(toolkit.ObjectNotFound):
        call_action("passport_conformance_report", id="no-such-source")


def test_a_public_sources_report_is_public(people, private_source, app):
    source, _ = private_source
    call_action("harvest_source_patch", {"user": factories.Sysadmin()["name"]}, id=source["id"], private=False)
    try:
        assert len(app.get(f"/api/3/action/passport_conformance_report?id={source['name']}").json["result"]["passports"]) == 6
        assert "passport-conformance-row" in app.get(f"/harvest/{source['name']}/conformance").body
    finally:
        call_action("harvest_source_patch", {"user": factories.Sysadmin()["name"]}, id=source["id"], private=True)


def _dataset_conformance_as(user, dataset_id):
    return toolkit.get_action("passport_dataset_conformance")(
        {"user": user["name"] if user else "", "ignore_auth": False}, {"id": dataset_id})


@pytest.mark.parametrize("who", ["curator", "editor"])
def test_a_records_curators_and_editors_see_its_conformance(private_source, people, who):
    source, results = private_source
    dataset = results[OKVED]["dataset"]
    entry = _dataset_conformance_as(people[who], dataset["id"])
    assert entry["identifier"] == OKVED and entry["score"] == int(dataset["mr_conformance"])
    assert entry["source_name"] == source["name"] and entry["findings"]
    assert set(entry["fixed"]) == {"meta.json", "meta.csv", "meta.xml"}


@pytest.mark.parametrize("who", ["member", "outsider", "anonymous"])
def test_nobody_else_sees_a_records_conformance(private_source, people, who):
    _, results = private_source
    with pytest.raises(toolkit.NotAuthorized):
        _dataset_conformance_as(people.get(who), results[OKVED]["dataset"]["id"])


def test_the_record_page_shows_the_block_to_its_curator_only(private_source, people, app):
    _, results = private_source
    name = results[OKVED]["dataset"]["name"]
    curator = app.get(f"/dataset/{name}", headers={"Authorization": people["curator"]["token"]}).body
    assert 'id="passport-conformance"' in curator and 'class="passport-finding ' in curator
    editor = app.get(f"/dataset/{name}", headers={"Authorization": people["editor"]["token"]}).body
    assert 'id="passport-conformance"' in editor
    for headers in ({}, {"Authorization": people["outsider"]["token"]}):
        page = app.get(f"/dataset/{name}", headers=headers).body
        assert "<h1" in page and 'id="passport-conformance"' not in page


def test_a_record_made_in_the_portal_has_no_harvest_conformance(people):
    dataset = factories.Dataset(**complete_record(owner_org=people["org"]["id"]))
    with pytest.raises(toolkit.ObjectNotFound):
        _dataset_conformance_as(people["curator"], dataset["id"])


def test_a_source_of_another_type_has_no_conformance_report(people, app):
    sysadmin = factories.Sysadmin()
    lkod = call_action("harvest_source_create", {"user": sysadmin["name"]}, name="lkod-conformance",
                       title="LKOD", url="http://127.0.0.1:9/lkod/catalog", source_type="lkod",
                       owner_org=people["org"]["id"])
    with pytest.raises(toolkit.ObjectNotFound):
        call_action("passport_conformance_report", id=lkod["name"])
    app.get(f"/harvest/{lkod['name']}/conformance", status=404)
    assert 'href="/harvest/lkod-conformance/conformance"' not in app.get(f"/harvest/{lkod['name']}").body
