"""An unowned record is its curator's: whoever created it, or a sysadmin, may change, delete or add to it; not any
signed-in user, nor an editor of some organization, as CKAN would let them while ``create_unowned_dataset`` is on.

Such records exist where the site lets users create them (the mark below), and wherever they were made before a site
turned the option off.
"""
from __future__ import annotations

import pytest
from ckan.logic import NotAuthorized
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record, complete_resource
from tests.support.workflow import act

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db"),
    pytest.mark.ckan_config("ckan.auth.create_unowned_dataset", "true"),
    pytest.mark.ckan_config("ckan.auth.create_dataset_if_not_in_organization", "true"),
]

CHANGES = {
    "package_patch": {"notes": "Přepsáno cizím"},
    "package_delete": {},
    "resource_create": complete_resource(name="Cizí zdroj"),
}


@pytest.fixture
def creator():
    return factories.User()


@pytest.fixture
def unowned(creator):
    return call_action("package_create", {"user": creator["name"]}, **complete_record(name="bez-organizace"))


def _changing(user, action: str, record: dict):
    key = "package_id" if action == "resource_create" else "id"
    return act(user, action, **{key: record["id"], **CHANGES[action]})


def _organization_editor():
    editor = factories.User()
    factories.Organization(users=[{"name": editor["name"], "capacity": "editor"}])
    return editor


@pytest.mark.parametrize("action", sorted(CHANGES))
@pytest.mark.parametrize("who", ["another user", "an editor of some organization"])
def test_nobody_but_its_curator_changes_an_unowned_record(unowned, action, who):
    user = factories.User() if who == "another user" else _organization_editor()
    with pytest.raises(NotAuthorized):
        _changing(user, action, unowned)
    assert call_action("package_show", id=unowned["id"])["state"] == "active"


@pytest.mark.parametrize("action", sorted(CHANGES))
def test_its_creator_changes_an_unowned_record(unowned, creator, action):
    _changing(creator, action, unowned)


def test_a_sysadmin_changes_an_unowned_record(unowned):
    _changing(factories.Sysadmin(), "package_patch", unowned)
    assert call_action("package_show", id=unowned["id"])["notes"] == CHANGES["package_patch"]["notes"]
