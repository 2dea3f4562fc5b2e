"""One rule for a source's config on every path (issue 37): whether an update sends ``config`` or not, and whether
it is ``harvest_source_update``, ``package_update`` or ``package_patch``, the options only a sysadmin may set stay a
sysadmin's. An editor of the source's organization keeps them by saving the source as it points, but may not move a
source that holds them (its ``url``, ``source_type`` or organization); the refusal names them."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestSource

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]

SITE = "https://opendata.example.ru/opendata/"
CATALOG = "https://data.example.cz/lkod/catalog"
ELSEWHERE = "http://10.0.0.7/admin/"
# Per source type: its address and a config a sysadmin saved with options only a sysadmin may set.
TYPES = {
    "passport": (SITE, {"allow_private_addresses": True, "user": "harvest-bot", "notify_publisher": True,
                        "max_delete_ratio": 0.3}),
    "lkod": (CATALOG, {"allow_private_addresses": True, "max_delete_ratio": 0.3}),
}
# What each path sends to move a source to ELSEWHERE, without a config.
MOVES = {
    "harvest_source_update": lambda source: {"id": source["id"], "name": source["name"], "url": ELSEWHERE,
                                             "source_type": source["source_type"], "title": source["title"]},
    "package_update": lambda source: {"id": source["id"], "name": source["name"], "type": "harvest",
                                      "url": ELSEWHERE, "source_type": source["source_type"],
                                      "title": source["title"]},
    "package_patch": lambda source: {"id": source["id"], "url": ELSEWHERE},
}


@pytest.fixture
def editor():
    return factories.UserWithToken()


@pytest.fixture
def editors_organization(editor):
    return factories.Organization(users=[{"name": editor["name"], "capacity": "editor"}])


def post(app, user: dict, action: str, data: dict):
    return app.post(f"/api/3/action/{action}", json=data, headers={"Authorization": user["token"]})


def sysadmins_source(app, organization: dict, source_type: str, config: dict) -> dict:
    factories.User(name="harvest-bot")
    url, _ = TYPES[source_type]
    response = post(app, factories.SysadminWithToken(), "harvest_source_create",
                    {"name": f"{source_type}-source", "title": "Regional registry", "url": url,
                     "source_type": source_type, "owner_org": organization["id"], "config": json.dumps(config)})
    assert response.status_code == 200, response.body
    return response.json["result"]


def stored(source: dict) -> tuple[str, dict]:
    """The source's address and options as the harvester reads them."""
    kept = HarvestSource.get(source["id"])
    return kept.url, json.loads(kept.config or "{}")


def shown_config(source: dict) -> dict:
    return json.loads(call_action("harvest_source_show", id=source["id"])["config"] or "{}")


@pytest.mark.parametrize("source_type", TYPES)
@pytest.mark.parametrize("action", MOVES)
def test_an_editor_may_not_move_a_sysadmins_source_on_any_path(web, editor, editors_organization, source_type, action):
    url, config = TYPES[source_type]
    source = sysadmins_source(web, editors_organization, source_type, config)

    response = post(web, editor, action, MOVES[action](source))

    assert response.status_code == 409, response.body
    [refusal] = response.json["error"]["url"]
    assert refusal.startswith("[config.retarget_sysadmin_only] Only a sysadmin may change the address")
    named = refusal[refusal.rindex("(") + 1:refusal.rindex(")")].split(", ")
    assert sorted(named) == sorted(option for option in config if option != "max_delete_ratio")
    assert stored(source) == (url, config)
    # Whoever may not edit the source learns nothing of its config; a sysadmin moves it, the config kept.
    outsider = post(web, factories.UserWithToken(), action, MOVES[action](source))
    assert outsider.status_code == 403 and "allow_private_addresses" not in outsider.body
    assert post(web, factories.SysadminWithToken(), action, MOVES[action](source)).status_code == 200
    assert stored(source) == (ELSEWHERE, config)


@pytest.mark.parametrize("source_type", TYPES)
def test_an_editor_may_not_move_a_sysadmins_source_to_another_organization(web, editor, editors_organization,
                                                                           source_type):
    source = sysadmins_source(web, editors_organization, source_type, TYPES[source_type][1])
    other = factories.Organization(users=[{"name": editor["name"], "capacity": "editor"}])

    response = post(web, editor, "package_patch", {"id": source["id"], "owner_org": other["id"]})

    assert "[config.retarget_sysadmin_only]" in response.json["error"]["owner_org"][0]
    assert call_action("package_show", id=source["id"])["owner_org"] == editors_organization["id"]


@pytest.mark.parametrize("source_type", TYPES)
@pytest.mark.parametrize("action", MOVES)
def test_an_editor_may_retitle_a_sysadmins_source_and_its_config_stays_and_shows(web, editor, editors_organization,
                                                                                source_type, action):
    url, config = TYPES[source_type]
    source = sysadmins_source(web, editors_organization, source_type, config)
    retitled = {**MOVES[action](source), "url": url, "title": "Registry of the region", "notes": "Weekly."}

    response = post(web, editor, action, retitled)

    assert response.status_code == 200, response.body
    assert call_action("package_show", id=source["id"])["title"] == "Registry of the region"
    assert stored(source) == (url, config)
    # ckanext-harvest kept the config but package_update dropped the dataset's copy harvest_source_show reads.
    assert shown_config(source) == config


def test_an_editor_saving_the_source_form_as_it_was_keeps_the_options_a_sysadmin_set(web, editor, editors_organization):
    """The edit form sends the config it shows: the sysadmin's options come back unchanged, and are kept."""
    url, config = TYPES["passport"]
    source = sysadmins_source(web, editors_organization, "passport", config)
    shown = call_action("harvest_source_show", id=source["id"])

    response = post(web, editor, "harvest_source_update",
                    {**MOVES["harvest_source_update"](source), "url": url, "config": shown["config"],
                     "title": "Registry of the region"})

    assert response.status_code == 200, response.body
    assert stored(source) == (url, config)


def test_an_editor_may_not_change_an_option_a_sysadmin_set(web, editor, editors_organization):
    url, config = TYPES["passport"]
    source = sysadmins_source(web, editors_organization, "passport", config)

    response = post(web, editor, "harvest_source_update",
                    {**MOVES["harvest_source_update"](source), "url": url,
                     "config": json.dumps({**config, "user": "someone-else"})})

    assert response.status_code == 409
    [refusal] = response.json["error"]["config"]
    assert "[config.user_sysadmin_only]" in refusal and "[config.private_addresses_sysadmin_only]" not in refusal
    assert stored(source) == (url, config)
