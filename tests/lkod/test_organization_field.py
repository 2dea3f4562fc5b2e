"""The organization field ``ico``: what gives an organization a catalog of its own (lkod.organizations).

Checked by the record's one IČO rule with its messages, kept among the organization's extras, set only by whoever
may edit the organization, and on CKAN's organization form.
"""
from __future__ import annotations

import re

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from views_support import LKOD_CONFIG_READ_ONLY, token

import ckan.plugins.toolkit as tk

pytestmark = list(LKOD_CONFIG_READ_ONLY)

ICO = "00064581"


def test_an_organization_keeps_its_ico_as_its_own_field(with_plugins):
    org = factories.Organization(ico=ICO)

    shown = call_action("organization_show", id=org["id"])
    assert shown["ico"] == ICO
    assert "ico" not in {extra["key"] for extra in shown.get("extras", [])}


@pytest.mark.parametrize("ico, message", [
    ("0006458", "An IČO has exactly 8 digits"),
    ("0006458a", "An IČO has exactly 8 digits"),
    ("12345678", "This IČO's check digit is wrong"),
])
def test_an_invalid_ico_is_refused_with_the_records_message(with_plugins, ico, message):
    with pytest.raises(tk.ValidationError) as refused:
        factories.Organization(ico=ico)

    assert refused.value.error_dict["ico"] == [message]


def test_an_ico_is_cleared_by_saving_it_empty(with_plugins):
    admin = factories.User()
    org = factories.Organization(ico=ICO, users=[{"name": admin["name"], "capacity": "admin"}])

    call_action("organization_patch", {"user": admin["name"]}, id=org["id"], ico="")

    assert not call_action("organization_show", id=org["id"]).get("ico")


def test_an_administrator_of_the_organization_sets_its_ico(with_plugins):
    admin = factories.User()
    org = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}])

    call_action("organization_patch", {"user": admin["name"]}, id=org["id"], ico=ICO)

    assert call_action("organization_show", id=org["id"])["ico"] == ICO


@pytest.mark.parametrize("capacity", ["editor", "member"])
def test_an_editor_or_member_of_the_organization_cannot_set_its_ico(with_plugins, capacity):
    user = factories.User()
    org = factories.Organization(users=[{"name": user["name"], "capacity": capacity}])

    with pytest.raises(tk.NotAuthorized):
        call_action("organization_patch", {"user": user["name"], "ignore_auth": False}, id=org["id"], ico=ICO)

    assert not call_action("organization_show", id=org["id"]).get("ico")


def test_the_organization_form_has_the_ico_field_labelled_ico(app):
    admin = factories.User()
    org = factories.Organization(ico=ICO, users=[{"name": admin["name"], "capacity": "admin"}])

    page = app.get(f"/organization/edit/{org['name']}", headers=token(admin)).get_data(as_text=True)

    assert 'name="ico"' in page and f'value="{ICO}"' in page
    assert '<label class="form-label" for="field-ico">IČO</label>' in page


def test_the_form_refuses_a_bad_ico_saying_why_in_the_readers_language(app):
    from signed_in import SignedIn

    admin = factories.User()
    org = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}])
    browser = SignedIn(app, admin)
    page = browser.get(f"/cs/organization/edit/{org['name']}").get_data(as_text=True)
    csrf = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)

    answer = browser.post(f"/cs/organization/edit/{org['name']}", data={
        "_csrf_token": csrf, "name": org["name"], "title": org["title"], "description": "", "ico": "0006458",
        "save": "",
    })

    assert answer.status_code == 200
    assert "IČO má přesně 8 číslic" in answer.get_data(as_text=True)
    assert not call_action("organization_show", id=org["id"]).get("ico")
