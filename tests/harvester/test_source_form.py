"""The harvest source form as an organization admin meets it (issue 24): organizations by their titles, and the
Configuration box showing an example and the keys of each of our source types, pointing to docs/harvest-source.md."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action

from ckanext.passport.harvest import config as passport_config
from ckanext.passport.harvest import source_form
from ckanext.passport.lkod import harvest_config as lkod_config

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def _source_form(app, organizations: int = 1) -> BeautifulSoup:
    """The new source form of an admin of ``organizations`` organizations (the first, Brno)."""
    admin = factories.User()
    factories.Organization(name="mesto-brno", title="Statutární město Brno",
                           users=[{"name": admin["name"], "capacity": "admin"}])
    for number in range(1, organizations):
        factories.Organization(name=f"obec-{number}", users=[{"name": admin["name"], "capacity": "admin"}])
    token = call_action("api_token_create", user=admin["name"], name="web")["token"]
    body = app.get("/cs/harvest/new", headers={"Authorization": token}).get_data(as_text=True)
    return BeautifulSoup(body, "html.parser")


@pytest.fixture
def form(web) -> BeautifulSoup:
    return _source_form(web)


def test_the_organization_picker_shows_titles(form):
    options = [option.get_text(" ", strip=True) for option in form.select("#field-organizations option")]
    assert "Statutární město Brno" in options
    assert "mesto-brno" not in options


def test_the_config_box_shows_an_example_and_each_types_keys(form):
    box = form.select_one("#field-config")
    assert box["placeholder"].endswith(source_form.config_help("passport")["example"])
    help_block = form.select_one("#passport-config-help")
    assert box["aria-describedby"] == "passport-config-help"
    assert "dokumentace rozšíření" in help_block.get_text()  # in the reader's language
    assert "Typ zdroje" in form.select_one(".harvest-types label").get_text()
    listed = {item["data-source-type"]: [code.get_text() for code in item.select("code")][:-1]
              for item in help_block.select("li[data-source-type]")}
    assert listed["passport"] == list(passport_config.SCHEMA["properties"])
    assert listed["lkod"] == list(lkod_config.SCHEMA["properties"])


@pytest.mark.parametrize("source_type, check", [("passport", passport_config), ("lkod", lkod_config)])
def test_each_example_is_a_valid_config(source_type, check):
    assert check.config_errors(source_form.config_help(source_type)["example"]) == []


def test_a_type_of_another_extension_gets_no_help():
    assert source_form.config_help("dcat_rdf") == {}


def _selected(select) -> tuple[str, str]:
    chosen = select.select_one("option[selected]")
    return chosen["value"], chosen.get_text(strip=True)


def test_an_admin_of_several_organizations_starts_at_choosing_one(web):
    assert _selected(_source_form(web, organizations=2).select_one("#field-organizations")) == (
        "", "Vyberte organizaci")


def test_an_admin_of_one_organization_has_it_preselected(form):
    assert _selected(form.select_one("#field-organizations"))[1] == "Statutární město Brno"


def test_the_config_help_names_the_docs_page_and_no_repository_path(form):
    help_text = form.select_one("#passport-config-help").get_text(" ", strip=True)
    assert "stránka Konfigurace zdroje sklizně dokumentace rozšíření" in help_text
    assert "docs/" not in help_text and ".md" not in help_text


@pytest.mark.ckan_config("ckanext.passport.docs_url", "https://docs.example.org/ckanext-passport/")
def test_the_config_help_links_the_docs_page_where_the_site_publishes_the_docs(web):
    link = _source_form(web).select_one("#passport-config-help a.passport-config-docs")
    assert link["href"] == "https://docs.example.org/ckanext-passport/harvest-source/"
    assert link.get_text(strip=True) == "Konfigurace zdroje sklizně"


def test_config_errors_are_listed_one_per_option(web):
    from tests.support.signed_in import SignedIn

    browser = SignedIn(web, factories.Sysadmin())
    organization = factories.Organization()
    page = browser.post("/cs/harvest/new", data={
        "url": "http://example.org/opendata/", "title": "Chybná", "name": "chybna", "source_type": "passport",
        "config": '{"timeout": "x", "max_file_size": "y"}', "frequency": "MANUAL",
        "owner_org": organization["id"], "save": "",
    }).get_data(as_text=True)
    items = [item.get_text(" ", strip=True)
             for item in BeautifulSoup(page, "html.parser").select("ul.passport-config-errors li")]
    assert len(items) == 2
    assert sorted("'timeout'" in item for item in items) == [False, True]
    assert sorted("'max_file_size'" in item for item in items) == [False, True]


def test_config_errors_read_as_sentences_with_their_codes_apart(web):
    from tests.support.signed_in import SignedIn

    browser = SignedIn(web, factories.Sysadmin())
    organization = factories.Organization()
    page = browser.post("/cs/harvest/new", data={
        "url": "http://example.org/opendata/", "title": "Chybná", "name": "chybna", "source_type": "passport",
        "config": '{"timeout": "x"}', "frequency": "MANUAL", "owner_org": organization["id"], "save": "",
    }).get_data(as_text=True)
    (item,) = BeautifulSoup(page, "html.parser").select("ul.passport-config-errors li")
    assert item.select_one(".passport-finding-code code").get_text() == "config.invalid"
    assert "[config." not in item.select_one(".passport-finding-text").get_text()
