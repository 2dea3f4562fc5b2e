"""The record's edit form offers only what the editorial workflow allows."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories

from tests.support.catalog_records import complete_record

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def test_the_edit_form_has_no_unpublish_button_beside_the_workflow(web):
    # CKAN 2.12's form adds one (a CKAN draft); a record leaves publication only through the workflow.
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = factories.Dataset(owner_org=org["id"], **complete_record())
    token = factories.APIToken(user=curator["name"])["token"]

    page = BeautifulSoup(web.get(f"/dataset/edit/{record['name']}", headers={"Authorization": token}).body,
                         "html.parser")

    buttons = page.select("form#dataset-edit button[name=save]")
    assert [button.get("value") for button in buttons] == [None]
    assert "btn-primary" in buttons[0]["class"]
