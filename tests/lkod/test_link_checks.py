"""Link checks of published records: a background job queued on publication (and on a published record's update),
run by CKAN's own worker, keeps each link's status per record and URL; the record's curators see it on its page and
through ``passport_link_check_show``; /lkod/ sums the broken links per organization; ``ckan passport lkod
check-links`` checks now and prints a table.

The module's published record and its check (CKAN's worker, in this process) are made once; the tests read them.
"""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.lib import jobs
from ckan.logic import NotAuthorized
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_resource
from tests.support.link_site import link_site  # noqa: F401 (fixture)
from tests.support.site_check_jobs import run_worker_burst
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, lkod_record, token

from ckanext.passport import settings
from ckanext.passport.lkod.links import job as link_job
from ckanext.passport.lkod.links.cli import check_links

# The records' links are on a loopback server: the intranet portal's option lets link checks ask it.
pytestmark = [*LKOD_CONFIG_READ_ONLY, pytest.mark.ckan_config(settings.LINK_CHECK_PRIVATE_ADDRESSES, "true")]


def queued_checks(package_id: str) -> list:
    return [job for job in jobs.get_queue().jobs
            if job.func_name == f"{link_job.__name__}.run" and list(job.args) == [package_id]]


def links_record(site, name: str, org: dict, user: dict, **overrides) -> dict:
    """An eligible record whose every link is on the local server: three that answer (one refusing HEAD), two
    missing."""
    links = {
        "documentation_url": f"{site.url}/docs.html",
        "license_url": f"{site.url}/licence-gone.html",
        "resources": [complete_resource(url=f"{site.url}/no-head.csv", format_docs=[],
                                        schema_urls=[f"{site.url}/schema.json", f"{site.url}/schema-gone.json"])],
    }
    record = lkod_record(name, owner_org=org["id"], **{**links, **overrides})
    call_action("package_create", {"user": user["name"]}, **record)
    return call_action("package_show", {"user": user["name"]}, id=name)


@pytest.fixture
def published(built_once, link_site):
    """The module's record, published at its creation, and its check run by CKAN's worker."""

    def build():
        jobs.get_queue().empty()
        curator, sysadmin = factories.User(), factories.Sysadmin()
        org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
        record = links_record(link_site, "odkazy", org, sysadmin)
        queued = len(queued_checks(record["id"]))
        run_worker_burst()
        return {"record": record, "org": org, "curator": curator, "queued": queued}

    return built_once("published", build)


def shown(record: dict, user: dict) -> dict:
    model.Session.remove()  # the worker wrote the rows
    return call_action("passport_link_check_show", {"user": user["name"], "ignore_auth": False}, id=record["id"])


def test_publishing_a_record_queues_its_check_which_the_worker_keeps_per_link(published):
    found = shown(published["record"], published["curator"])

    assert published["queued"] == 1
    kept = {(link["field"], link["url"].rsplit("/", 1)[1]): (link["status"], link["code"]) for link in found["links"]}
    assert kept == {
        ("documentation", "docs.html"): ("ok", None),
        ("terms_of_use", "licence-gone.html"): ("broken", "links.not_found"),
        ("download_url", "no-head.csv"): ("ok", None),
        ("conforms_to", "schema.json"): ("ok", None),
        ("conforms_to", "schema-gone.json"): ("broken", "links.not_found"),
    }
    assert (found["broken"], found["unchecked"]) == (2, 0) and found["checked_at"]
    missing = [link for link in found["links"] if link["status"] == "broken"]
    assert {(link["http_status"], link["message"]) for link in missing} == {(404, "nothing is there (HTTP 404)")}
    resource = published["record"]["resources"][0]
    assert {link["resource_id"] for link in found["links"] if link["field"] == "conforms_to"} == {resource["id"]}


def test_only_whoever_may_edit_the_record_sees_its_link_check(published):
    with pytest.raises(NotAuthorized):
        shown(published["record"], factories.User())


def test_the_record_page_shows_the_broken_links_to_a_curator_and_nothing_to_a_visitor(web, published):
    url = f"/en/dataset/{published['record']['name']}"
    curator = BeautifulSoup(web.get(url, headers=token(published["curator"])).body, "html.parser")
    visitor = web.get(url).body

    block = curator.select_one("#passport-link-check")
    assert block is not None and block["data-broken"] == "2"
    broken = block.select(".passport-link-broken")
    assert [row["data-code"] for row in broken] == ["links.not_found", "links.not_found"]
    assert "nothing is there (HTTP 404)" in broken[0].get_text()
    assert "passport-link-check" not in visitor


def test_lkod_sums_the_broken_links_of_each_organizations_listed_records(web, published):
    soup = BeautifulSoup(web.get("/lkod/").body, "html.parser")

    rows = {row["data-organization"]: row["data-broken"] for row in soup.select(".lkod-broken-organization")}
    assert rows[published["org"]["name"]] == "2"


def test_the_workflow_publication_queues_the_check_and_the_states_before_it_do_not(link_site, built_once):
    built_once("stack", dict)
    jobs.get_queue().empty()
    sysadmin = factories.Sysadmin()
    record = links_record(link_site, "odkazy-workflow", factories.Organization(), sysadmin, editorial_state="draft")
    context = {"user": sysadmin["name"]}

    call_action("passport_workflow_transition", context, id=record["id"], to="submitted")
    before = len(queued_checks(record["id"]))
    call_action("passport_workflow_transition", context, id=record["id"], to="published")
    published = len(queued_checks(record["id"]))
    call_action("package_patch", context, id=record["id"], notes="Nový popis záznamu.")
    updated = len(queued_checks(record["id"]))
    call_action("package_patch", context, id=record["id"], private=True)
    made_private = len(queued_checks(record["id"]))
    jobs.get_queue().empty()

    assert (before, published, updated, made_private) == (0, 1, 2, 2)


def test_check_links_prints_a_table_of_one_organizations_links_and_fails_on_a_broken_one(cli, published):
    result = cli.invoke(check_links, ["--organization", published["org"]["name"]])

    lines = result.output.splitlines()
    assert result.exit_code == 1, result.output
    assert lines[0].split() == ["record", "field", "status", "HTTP", "URL", "finding"]
    assert [line.split()[:3] for line in lines[1:6]].count(["odkazy", "conforms_to", "broken"]) == 1
    assert sum(1 for line in lines[1:6] if line.split()[2] == "broken") == 2
    assert lines[-2:] == ["1 record checked.", "5 links checked, 2 broken."]


def test_the_links_past_the_records_budget_are_kept_unchecked_not_broken(link_site, built_once, ckan_config):
    built_once("stack", dict)
    ckan_config.update({settings.LINK_CHECK_TIMEOUT: "1", settings.LINK_CHECK_BUDGET: "1"})
    record = links_record(link_site, "odkazy-rozpocet", factories.Organization(), factories.Sysadmin(),
                          documentation_url=f"{link_site.url}/slow.csv")
    jobs.get_queue().empty()

    checked = link_job.check(record["id"])

    assert [(link.field, link.status, link.code) for link in checked][:2] == [
        ("documentation", "broken", "links.timeout"), ("terms_of_use", "unchecked", "links.not_checked")]
    assert {link.status for link in checked[1:]} == {"unchecked"}


def test_a_curators_link_on_a_private_address_is_refused_unasked_although_harvests_read_private_addresses(
        link_site, built_once, ckan_config):
    built_once("stack", dict)
    ckan_config[settings.LINK_CHECK_PRIVATE_ADDRESSES] = "false"  # the default
    assert settings.site_fetch_policy().allow_private_addresses  # test.ini: harvests read loopback servers
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = links_record(link_site, "odkazy-soukrome", org, factories.Sysadmin())
    asked = len(link_site.requests)
    jobs.get_queue().empty()

    link_job.check(record["id"])

    found = shown(record, curator)
    assert {(link["status"], link["code"]) for link in found["links"]} == {("broken", "links.refused_private")}
    assert len(link_site.requests) == asked
