"""The extension runs on the real stack: plugins load, datasets reach Solr, pages render, harvesters register.

Datasets are complete catalog records (the schema test.ini configures refuses anything less). Under the default
review scope (``full``) a new record is a draft only its organization and the editors see, so a test that needs
an anonymous reader to find one either publishes it through the editorial workflow or, when it is about the
stack rather than the workflow, runs with review scope ``none``.
"""
from __future__ import annotations

import pytest
import requests
from tests.support.catalog_records import complete_record
from ckan.common import config
from ckan.plugins import plugin_loaded
from ckan.tests import factories
from ckan.tests.helpers import call_action

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

PLUGINS = ["activity", "harvest", "scheming_datasets", "dcat", "passport", "passport_harvester", "passport_publish",
           "passport_lkod", "passport_lkod_harvester"]


def test_every_configured_plugin_is_loaded():
    assert all(plugin_loaded(name) for name in PLUGINS)


def test_status_show_lists_our_plugins():
    extensions = call_action("status_show")["extensions"]
    assert {"passport", "passport_harvester", "passport_publish"} <= set(extensions)


def test_solr_is_a_real_solr_9_with_ckans_schema():
    ping = requests.get(config["solr_url"] + "/admin/ping", params={"wt": "json"}, timeout=10).json()
    assert ping["status"] == "OK"
    system = requests.get(config["solr_url"].rsplit("/", 1)[0] + "/admin/info/system", params={"wt": "json"}, timeout=10).json()
    assert system["lucene"]["solr-spec-version"].startswith("9.")
    schema = requests.get(config["solr_url"] + "/schema/name", params={"wt": "json"}, timeout=10).json()
    assert schema["name"].startswith("ckan-")


def published(**record) -> dict:
    """A complete record, created by a curator of a new organization, submitted and published by an editor."""
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    dataset = factories.Dataset(**complete_record(owner_org=org["id"], **record), user=curator)
    call_action("passport_workflow_transition", {"user": curator["name"]}, id=dataset["id"], to="submitted")
    call_action("passport_workflow_transition", {"user": factories.Sysadmin()["name"]}, id=dataset["id"], to="published")
    return call_action("package_show", id=dataset["id"])


@pytest.mark.ckan_config("ckanext.passport.review_scope", "none")
def test_created_dataset_is_found_by_package_search():
    org = factories.Organization()
    factories.Dataset(**complete_record(name="hydro-stations", title="Гидрологические посты", owner_org=org["id"]))
    found = call_action("package_search", q="Гидрологические")
    assert [d["name"] for d in found["results"]] == ["hydro-stations"]


def test_dataset_list_page_renders(web):
    published(name="visible-on-the-list", title="Visible on the list")
    response = web.get("/dataset/")
    assert response.status_code == 200
    assert "Visible on the list" in response.body


def test_organization_page_renders(web):
    org = factories.Organization(title="Rosstat")
    response = web.get(f"/organization/{org['name']}")
    assert response.status_code == 200
    assert "Rosstat" in response.body


def test_harvest_source_of_type_passport_can_be_created():
    sysadmin = factories.Sysadmin()
    source = call_action(
        "harvest_source_create",
        context={"user": sysadmin["name"]},
        name="mr-site",
        title="MR site",
        url="http://opendata.example.ru/opendata/",
        source_type="passport",
        owner_org=factories.Organization()["id"],
    )
    assert source["source_type"] == "passport"
    types = {h["name"] for h in call_action("harvesters_info_show")}
    assert "passport" in types


@pytest.mark.parametrize(
    "locale, title",
    [
        ("en", "Open data passports (MR 2.3 / 3.0)"),
        ("cs", "Pasporty otevřených dat (MR 2.3 / 3.0)"),
        ("ru", "Паспорта открытых данных (МР 2.3 / 3.0)"),
    ],
)
def test_harvester_title_is_translated(web, locale, title):
    sysadmin = factories.SysadminWithToken()
    response = web.get(f"/{locale}/harvest/new", headers={"Authorization": sysadmin["token"]})
    assert response.status_code == 200
    assert title in response.body
