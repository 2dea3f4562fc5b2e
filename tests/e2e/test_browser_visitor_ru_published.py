"""A visitor reads the published catalog in Russian, in a real browser (Debian's Chromium) against a live CKAN
(issue 24): what the portal publishes is whole and names nobody who merely saved it.

- ``/ru/opendata/`` searched with a query Solr cannot parse (``title:(``) shows the whole page: the message in
  Russian, the registry table and the footer (the streamed page was cut at ``<tbody>``);
- a published record's page shows no portal user's name or e-mail (it showed "Контакт автора изменения" with the
  e-mail of whoever saved the record last), nor does the anonymous API.
"""
from __future__ import annotations

import pytest
import requests
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record, complete_resource
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

CURATOR = {"name": "kuratorka-jana", "fullname": "Jana Kurátorová", "email": "jana.kuratorova@example.cz"}
EDITOR = {"name": "redaktor-petr", "fullname": "Petr Redaktor", "email": "petr.redaktor@example.cz"}


def _words_of(user: dict) -> tuple[str, ...]:
    return user["name"], user["fullname"], user["email"]


@pytest.fixture
def published_record(live_ckan: str) -> dict:
    """A record a curator made and saved, published by an editor (a sysadmin), public: as the issue saw it."""
    curator = factories.User(**CURATOR)
    editor = factories.Sysadmin(**EDITOR)
    org = factories.Organization(name="csu", title="ČSÚ", users=[{"name": curator["name"], "capacity": "editor"}])
    # A data file and its structure: what /opendata/ lists (links.is_publishable).
    structure = complete_resource(name="Struktura", url="https://data.example.cz/obyvatelstvo-struktura.csv",
                                  resource_type="structure", mimetype="text/csv", mimetype_inner="")
    fields = complete_record(maintainer="", maintainer_email="", resources=[complete_resource(), structure])
    record = call_action("package_create", {"user": curator["name"]}, **dict(fields, owner_org=org["id"]))
    call_action("passport_workflow_transition", {"user": curator["name"]}, id=record["id"], to="submitted")
    call_action("passport_workflow_transition", {"user": editor["name"]}, id=record["id"], to="published")
    call_action("package_patch", {"user": editor["name"]}, id=record["id"], notes=record["notes"] + " (2024)")
    return call_action("package_show", id=record["id"])


def test_a_visitor_searching_open_data_with_a_broken_query_gets_the_whole_page_in_russian(
    browser: Browser, live_ckan: str, published_record
):
    page = browser.new_page(base_url=live_ckan, locale="ru-RU")
    page.goto("/ru/opendata/")
    expect(page.locator("h1")).to_have_text("Открытые данные")
    page.fill("#field-opendata-search", "title:(")
    page.press("#field-opendata-search", "Enter")
    page.wait_for_url("**/ru/opendata/?q=title*")
    message = page.locator(".opendata-query-error")
    expect(message).to_be_visible()
    expect(message).to_contain_text("не удалось выполнить")
    expect(message).to_contain_text("title:(")
    # The whole page: the registry's table, the side column and the footer after it.
    expect(page.locator("footer.site-footer")).to_be_attached()
    expect(page.locator(".opendata-registry table thead")).to_be_attached()
    expect(page.get_by_role("heading", name="Файлы реестра")).to_be_visible()
    assert requests.get(f"{live_ckan}/ru/opendata/", params={"q": "AND OR NOT"}, timeout=30).text.rstrip().endswith(
        "</html>"
    )

    # The same search box then finds the record with a query it can run.
    page.fill("#field-opendata-search", published_record["title"])
    page.press("#field-opendata-search", "Enter")
    expect(page.locator(".opendata-query-error")).to_have_count(0)
    expect(page.locator(".opendata-registry tbody")).to_contain_text(published_record["title"])
    expect(page.locator("footer.site-footer")).to_be_attached()


def test_a_visitor_sees_no_portal_users_name_or_email_on_a_published_record(
    browser: Browser, live_ckan: str, published_record
):
    page = browser.new_page(base_url=live_ckan, locale="ru-RU")
    page.goto(f"/ru/dataset/{published_record['name']}")
    expect(page.locator("h1").first).to_contain_text(published_record["title"])
    html = page.content()
    for word in _words_of(CURATOR) + _words_of(EDITOR):
        assert word not in html, word
    text = page.locator("body").inner_text()
    assert "Контакт автора изменения" not in text and "Автор последнего изменения" not in text
    # What the curator typed as the record's contact is shown.
    assert published_record["publisher_email"] in html

    shown = requests.get(f"{live_ckan}/api/3/action/package_show", params={"id": published_record["name"]},
                         timeout=30).json()["result"]
    assert "author" not in shown and "author_email" not in shown
    for word in _words_of(CURATOR) + _words_of(EDITOR):
        assert word not in str(shown), word
