"""Who reads a conformance report: whoever may see the source; a record's conformance: its curators and editors.

Both actions check access themselves, so the API, the pages, the downloads and the fixed files refuse alike.
"""
from __future__ import annotations

import shutil

import ckan.model as model
import pytest
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_site import DEMO_SITE

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


def test_the_pages_and_downloads_refuse_whom_the_action_refuses(private_source, people, web):
    source, _ = private_source
    token = {"Authorization": people["outsider"]["token"]}
    for path in ("", ".csv", ".json"):
        web.get(f"/harvest/{source['name']}/conformance{path}", headers=token, status=403)
    member = {"Authorization": people["member"]["token"]}
    report = web.get(f"/api/3/action/passport_conformance_report?id={source['name']}", headers=member).json["result"]
    fixed = report["passports"][0]["fixed"]["meta.xml"].split("://", 1)[1].split("/", 1)[1]
    web.get("/" + fixed, headers=token, status=403)
    assert web.get("/" + fixed, headers=member).body.startswith("<?xml")


def test_an_unknown_source_is_not_found(stack_once):
    with pytest.raises(toolkit.ObjectNotFound):
        call_action("passport_conformance_report", id="no-such-source")


def _set_private(source: dict, private: bool) -> None:
    # Straight in the table: ckanext-harvest's harvest_source_patch fails on CKAN 2.12 (it patches from
    # package_show's extras), and only the source's visibility is wanted here.
    model.Package.get(source["id"]).private = private
    model.Session.commit()


def test_a_public_sources_report_is_public(people, private_source, web):
    source, _ = private_source
    _set_private(source, False)
    try:
        assert len(web.get(f"/api/3/action/passport_conformance_report?id={source['name']}").json["result"]["passports"]) == 6
        assert "passport-conformance-row" in web.get(f"/harvest/{source['name']}/conformance").body
    finally:
        _set_private(source, True)
