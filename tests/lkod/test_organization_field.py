"""The organization field ``ico``: what gives an organization a catalog of its own (lkod.organizations).

Checked by the record's one IČO rule with its messages, kept among the organization's extras, set by a sysadmin only
(catalog.people.publishers), and on CKAN's organization form: editable on the create and edit forms for a sysadmin,
read-only for the organization's admins.
"""
from __future__ import annotations

import itertools
import re

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, token

import ckan.plugins.toolkit as tk

from ckanext.passport.catalog.record.ico import is_ico

pytestmark = list(LKOD_CONFIG_READ_ONLY)

# Each test its own IČO: the module shares one database, and an IČO is held by one organization at most.
_ICOS = (ico for ico in (f"{n:07d}{d}" for n in itertools.count(64581) for d in range(10)) if is_ico(ico))


def as_user(user: dict) -> dict:
    return {"user": user["name"], "ignore_auth": False}


def test_an_organization_keeps_its_ico_as_its_own_field(shared_plugins):
    ico = next(_ICOS)
    org = factories.Organization(ico=ico)

    shown = call_action("organization_show", id=org["id"])
    assert shown["ico"] == ico
    assert "ico" not in {extra["key"] for extra in shown.get("extras", [])}


@pytest.mark.parametrize("ico, message", [
    ("0006458", "An IČO has exactly 8 digits"),
    ("0006458a", "An IČO has exactly 8 digits"),
    ("12345678", "This IČO's check digit is wrong"),
])
def test_an_invalid_ico_is_refused_with_the_records_message(shared_plugins, ico, message):
    with pytest.raises(tk.ValidationError) as refused:
        factories.Organization(ico=ico)

    assert refused.value.error_dict["ico"] == [message]


def test_a_sysadmin_clears_an_ico_by_saving_it_empty(shared_plugins):
    org = factories.Organization(ico=next(_ICOS))

    call_action("organization_patch", as_user(factories.Sysadmin()), id=org["id"], ico="")

    assert not call_action("organization_show", id=org["id"]).get("ico")


def test_a_sysadmin_sets_an_organizations_ico(shared_plugins):
    ico = next(_ICOS)
    org = factories.Organization()

    call_action("organization_patch", as_user(factories.Sysadmin()), id=org["id"], ico=ico)

    assert call_action("organization_show", id=org["id"])["ico"] == ico


def test_an_administrator_of_the_organization_cannot_set_its_ico(shared_plugins):
    admin = factories.User()
    org = factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}])

    with pytest.raises(tk.ValidationError) as refused:
        call_action("organization_patch", as_user(admin), id=org["id"], ico=next(_ICOS))

    assert refused.value.error_dict["ico"][0].startswith("[organization.ico_sysadmin_only] ")
    assert not call_action("organization_show", id=org["id"]).get("ico")


@pytest.mark.parametrize("capacity", ["editor", "member"])
def test_an_editor_or_member_of_the_organization_cannot_set_its_ico(shared_plugins, capacity):
    user = factories.User()
    org = factories.Organization(users=[{"name": user["name"], "capacity": capacity}])

    with pytest.raises(tk.NotAuthorized):
        call_action("organization_patch", as_user(user), id=org["id"], ico=next(_ICOS))

    assert not call_action("organization_show", id=org["id"]).get("ico")


def test_the_organization_form_has_the_ico_field_labelled_ico_for_a_sysadmin(web):
    ico = next(_ICOS)
    org = factories.Organization(ico=ico)

    page = web.get(f"/organization/edit/{org['name']}", headers=token(factories.Sysadmin())).get_data(as_text=True)

    assert 'name="ico"' in page and f'value="{ico}"' in page
    assert '<label class="form-label" for="field-ico">IČO</label>' in page


def test_the_organization_create_form_has_the_ico_field_for_a_sysadmin(web):
    page = web.get("/organization/new", headers=token(factories.Sysadmin())).get_data(as_text=True)

    assert '<label class="form-label" for="field-ico">IČO</label>' in page


def test_an_administrator_of_the_organization_sees_its_ico_read_only(web):
    ico = next(_ICOS)
    admin = factories.User()
    org = factories.Organization(ico=ico, users=[{"name": admin["name"], "capacity": "admin"}])

    page = web.get(f"/organization/edit/{org['name']}", headers=token(admin)).get_data(as_text=True)

    field = re.search(r'<input[^>]*id="field-ico"[^>]*>', page).group(0)
    assert f'value="{ico}"' in field and "disabled" in field


def test_the_form_refuses_a_bad_ico_saying_why_in_the_readers_language(web):
    from tests.support.signed_in import SignedIn

    org = factories.Organization()
    browser = SignedIn(web, factories.Sysadmin())
    page = browser.get(f"/cs/organization/edit/{org['name']}").get_data(as_text=True)
    csrf = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)

    answer = browser.post(f"/cs/organization/edit/{org['name']}", data={
        "_csrf_token": csrf, "name": org["name"], "title": org["title"], "description": "", "ico": "0006458",
        "save": "",
    })

    assert answer.status_code == 200
    assert "IČO má přesně 8 číslic" in answer.get_data(as_text=True)
    assert not call_action("organization_show", id=org["id"]).get("ico")
