"""Publishers are who a sysadmin says they are (catalog.people.publishers): an organization's INNs and IČO are set by a
sysadmin only, each is held by one active organization, and an organization admin's save keeps them as stored."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action

import ckan.plugins.toolkit as tk

from ckanext.passport.catalog.people.publishers import organization_holding_inn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]

INN, OTHER_INN = "7709876545", "7708234640"
ICO = "00064581"


def as_user(user: dict) -> dict:
    return {"user": user["name"], "ignore_auth": False}


def administered(**fields) -> tuple[dict, dict]:
    admin = factories.User()
    return admin, factories.Organization(users=[{"name": admin["name"], "capacity": "admin"}], **fields)


def test_a_sysadmin_sets_an_organizations_inns_shown_as_a_list(shared_plugins):
    org = factories.Organization()

    call_action("organization_patch", as_user(factories.Sysadmin()), id=org["id"], inns=f"{OTHER_INN}, {INN}")

    assert call_action("organization_show", id=org["id"])["inns"] == [OTHER_INN, INN]
    assert organization_holding_inn(INN) == org["id"]


def test_an_organization_admin_cannot_change_its_inns(shared_plugins):
    admin, org = administered(inns=[INN])

    with pytest.raises(tk.ValidationError) as refused:
        call_action("organization_patch", as_user(admin), id=org["id"], inns=[INN, OTHER_INN])

    assert refused.value.error_dict["inns"][0].startswith("[organization.inns_sysadmin_only] ")
    assert call_action("organization_show", id=org["id"])["inns"] == [INN]


def test_an_organization_admins_save_keeps_its_inns_and_ico(shared_plugins):
    admin, org = administered(inns=[INN], ico=ICO)

    call_action("organization_update", as_user(admin), id=org["id"], name=org["name"], title="Renamed")

    shown = call_action("organization_show", id=org["id"])
    assert (shown["title"], shown["inns"], shown["ico"]) == ("Renamed", [INN], ICO)


@pytest.mark.ckan_config("ckan.auth.user_create_organizations", "true")
def test_a_user_creating_an_organization_cannot_give_it_an_inn_or_ico(shared_plugins):
    user = factories.User()

    with pytest.raises(tk.ValidationError) as refused:
        call_action("organization_create", as_user(user), name="own", inns=[INN], ico=ICO)

    assert set(refused.value.error_dict) == {"inns", "ico"}
    assert organization_holding_inn(INN) is None


def test_an_inn_another_organization_holds_is_refused_naming_it(shared_plugins):
    factories.Organization(title="Ministry of Health", inns=[INN])

    with pytest.raises(tk.ValidationError) as refused:
        factories.Organization(inns=[INN])

    message = refused.value.error_dict["inns"][0]
    assert message.startswith("[organization.inn_taken] ") and "Ministry of Health" in message


def test_an_ico_another_organization_holds_is_refused_naming_it(shared_plugins):
    factories.Organization(title="Město Testov", ico=ICO)

    with pytest.raises(tk.ValidationError) as refused:
        factories.Organization(ico=ICO)

    message = refused.value.error_dict["ico"][0]
    assert message.startswith("[organization.ico_taken] ") and "Město Testov" in message


def test_an_invalid_inn_is_refused(shared_plugins):
    with pytest.raises(tk.ValidationError) as refused:
        factories.Organization(inns="7709876546")

    assert refused.value.error_dict["inns"] == ["7709876546: This INN's check digits are wrong"]


def test_a_deleted_organization_holds_no_inn(shared_plugins):
    org = factories.Organization(inns=[INN])

    call_action("organization_delete", as_user(factories.Sysadmin()), id=org["id"])

    assert organization_holding_inn(INN) is None
