"""A source whose config names the organization its records go to keeps its own organization on its pages and in
the API: ckanext-harvest copies every config key to the top of the shown source, and its pages answered 500."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


@pytest.fixture
def source(harvest_source):
    owner = factories.Organization(name="kraj", title="Krajský úřad")
    factories.Organization(name="mesto", title="Město")
    return harvest_source("http://127.0.0.1:9/opendata/", {"organization": "mesto"}, owner_org=owner["id"],
                          name="mestska-data")


def test_the_shown_source_keeps_its_own_organization(source):
    shown = call_action("harvest_source_show", id=source["id"])
    assert shown["organization"]["name"] == "kraj"
    assert call_action("package_show", id=source["id"])["organization"]["title"] == "Krajský úřad"


def test_the_source_page_answers_with_its_organization(web, source):
    page = SignedIn(web, factories.Sysadmin()).get("/harvest/mestska-data")
    assert page.status_code == 200
    assert "Krajský úřad" in page.get_data(as_text=True)
