"""A curator adds a data source in Czech: the resource form's scripted buttons (CKAN's own JavaScript messages, filed
by CKAN under cs_CZ) speak Czech on /cs/ pages, and the source lands."""
from __future__ import annotations

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from tests.support.catalog_records import complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]


def test_a_curator_links_a_data_source_through_the_czech_resource_form(browser: Browser, live_ckan: str):
    curator = factories.User(name="kurator-zdroje", password=PASSWORD)
    publisher = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = call_action("package_create", context={"user": curator["name"]},
                         **complete_record(owner_org=publisher["id"], resources=[]))
    page = sign_in(browser, live_ckan, curator, locale="cs")

    page.goto(f"/cs/dataset/{record['name']}/resource/new", wait_until="networkidle")
    expect(page.get_by_role("button", name="Nahrát")).to_be_visible()
    page.get_by_role("button", name="Odkaz").click()
    page.fill("#field-resource-url", "https://data.example.cz/obyvatelstvo.csv")
    page.fill("#field-name", "Obyvatelstvo 2024")
    with page.expect_navigation() as saved:
        page.click("button.btn-primary[name=save]")
    assert saved.value.status == 200 and "/resource/new" not in page.url, page.url

    [resource] = call_action("package_show", id=record["id"])["resources"]
    assert resource["url"] == "https://data.example.cz/obyvatelstvo.csv"
