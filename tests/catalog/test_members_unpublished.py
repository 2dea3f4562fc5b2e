"""Members are not published: with CKAN's default ``ckan.auth.public_user_details = true``, no action a visitor may
call and no page a visitor may open gives a portal user's login, full name, e-mail hash or sysadmin flag, nor an
organization's or group's member list. A signed-in user gets what CKAN gives.

Every CKAN, ckanext-activity, ckanext-harvest and extension action that returns users or memberships is asked once
as a visitor, by ids only (an answer must not echo a login it was given).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterator

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

PEOPLE = {
    "sysadmin": ("spravce-portalu-login", "Systémový Správce Portálu"),
    "admin": ("admin-ministerstva-login", "Alena Adminová"),
    "editor": ("editor-ministerstva-login", "Eduard Editorský"),
    "member": ("clen-ministerstva-login", "Marie Členová"),
    "grouped": ("clen-skupiny-login", "Gustav Skupinový"),
}
USER_KEYS = {"fullname", "email_hash", "sysadmin"}


def _user(role: str) -> dict[str, Any]:
    login, fullname = PEOPLE[role]
    maker = factories.Sysadmin if role == "sysadmin" else factories.User
    return maker(name=login, fullname=fullname, email=f"{login}@example.cz")


def _world() -> dict[str, Any]:
    people = {role: _user(role) for role in PEOPLE}
    organization = factories.Organization(
        name="ministerstvo",
        users=[{"name": people[role]["name"], "capacity": role} for role in ("admin", "editor", "member")],
    )
    group = factories.Group(name="tema", users=[{"name": people["grouped"]["name"], "capacity": "member"}])
    as_editor = {"user": people["editor"]["name"]}
    record = call_action(
        "package_create", context=as_editor,
        **complete_record(name="zaznam-ministerstva"), owner_org=organization["id"],
    )
    call_action("member_create", id=group["id"], object=record["id"], object_type="package", capacity="public")
    # Published, so a visitor reads the record, its activity and its page; a sysadmin is the editor where the site
    # names no editors organization.
    call_action("passport_workflow_transition", context=as_editor, id=record["id"], to="submitted")
    call_action("passport_workflow_transition", context={"user": people["sysadmin"]["name"]}, id=record["id"],
                to="published")
    source = call_action(
        "harvest_source_create", context=as_editor, name="zdroj-ministerstva", title="Zdroj ministerstva",
        url="http://127.0.0.1:9/opendata/", source_type="passport", owner_org=organization["id"], config="",
    )
    follower = {"user": people["member"]["name"]}
    call_action("follow_dataset", context=follower, id=record["id"])
    call_action("follow_group", context=follower, id=organization["id"])
    call_action("follow_group", context=follower, id=group["id"])
    call_action("follow_user", context=follower, id=people["editor"]["id"])
    # The source's creation: a public activity, whose data names its actor.
    activity = call_action("package_activity_list", id=source["id"])[-1]
    return {"people": people, "org": organization, "group": group, "record": record, "source": source,
            "activity": activity}


@pytest.fixture
def world(built_once) -> dict[str, Any]:
    return built_once("world", _world)


def _secrets(world: dict[str, Any]) -> set[str]:
    found = set()
    for user in world["people"].values():
        found |= {user["name"], user["fullname"], hashlib.md5(user["email"].strip().lower().encode()).hexdigest()}
    return found


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


# action -> its parameters, by what the world names (an id of someone or something, never a login)
ACTIONS: dict[str, dict[str, str]] = {
    "organization_show": {"id": "org.id"},
    "organization_show include_users": {"id": "org.id", "include_users": "true"},
    "organization_list all_fields": {"all_fields": "true", "include_users": "true"},
    "group_show": {"id": "group.id"},
    "group_show include_users": {"id": "group.id", "include_users": "true"},
    "group_list all_fields": {"all_fields": "true", "include_users": "true"},
    "member_list": {"id": "org.id"},
    "member_list of users": {"id": "org.id", "object_type": "user"},
    "member_list of a group": {"id": "group.id"},
    "organization_list_for_user": {"id": "people.editor.id"},
    "user_list": {},
    "user_show": {"id": "people.editor.id"},
    "user_autocomplete": {"q": "ministerstva"},
    "package_show": {"id": "record.id"},
    "package_search": {"q": "*:*"},
    "package_collaborator_list": {"id": "record.id"},
    "package_collaborator_list_for_user": {"id": "people.editor.id"},
    "followee_list": {"id": "people.member.id"},
    "user_followee_list": {"id": "people.member.id"},
    "dataset_followee_list": {"id": "people.member.id"},
    "group_followee_list": {"id": "people.member.id"},
    "organization_followee_list": {"id": "people.member.id"},
    "user_follower_list": {"id": "people.editor.id"},
    "dataset_follower_list": {"id": "record.id"},
    "group_follower_list": {"id": "group.id"},
    "organization_follower_list": {"id": "org.id"},
    "am_following_user": {"id": "people.editor.id"},
    "am_following_dataset": {"id": "record.id"},
    "am_following_group": {"id": "group.id"},
    "api_token_list": {"user_id": "people.editor.id"},
    "status_show": {},
    "dashboard_activity_list": {},
    "user_activity_list": {"id": "people.editor.id"},
    "package_activity_list": {"id": "record.id"},
    "organization_activity_list": {"id": "org.id"},
    "group_activity_list": {"id": "group.id"},
    "recently_changed_packages_activity_list": {},
    "activity_show": {"id": "activity.id"},
    "activity_data_show": {"id": "activity.id"},
    "harvest_source_show": {"id": "source.id"},
    "harvest_source_list": {},
    "passport_workflow_history": {"id": "record.id"},
    "passport_workflow_queue": {},
    "passport_feedback_list": {"id": "record.id"},
    "passport_site_check_list": {},
}


def _resolve(world: dict[str, Any], path: str) -> str:
    value: Any = world
    for part in path.split("."):
        value = value[part]
    return value


@pytest.mark.parametrize("case", sorted(ACTIONS))
def test_no_action_gives_a_visitor_a_user(web, world, case):
    action = case.split(" ")[0]
    params = {key: _resolve(world, value) if "." in value else value for key, value in ACTIONS[case].items()}
    response = web.get(f"/api/3/action/{action}", params=params)
    assert response.status_code in (200, 403, 409)
    body = response.get_data(as_text=True)
    assert not {secret for secret in _secrets(world) if secret in body}
    assert not USER_KEYS.intersection(_keys(json.loads(body)))


@pytest.mark.parametrize("member_list_asked", [{"object_type": "user"}, {}])
def test_a_visitor_gets_no_member_list(web, world, member_list_asked):
    response = web.get("/api/3/action/member_list", params={"id": world["org"]["id"], **member_list_asked}, status=403)
    assert response.json["success"] is False


def test_a_visitor_still_lists_a_groups_datasets(web, world):
    found = web.get("/api/3/action/member_list",
                    params={"id": world["group"]["id"], "object_type": "package"}).json["result"]
    assert [row[0] for row in found] == [world["record"]["id"]]


def test_a_visitor_cannot_tell_an_existing_login_from_a_missing_one(web, world):
    for action in ("user_show", "organization_list_for_user"):
        existing = web.get(f"/api/3/action/{action}", params={"id": world["people"]["editor"]["name"]}, status=403)
        missing = web.get(f"/api/3/action/{action}", params={"id": "nobody-has-this-login"}, status=403)
        assert existing.json["error"] == missing.json["error"]


@pytest.mark.parametrize("path", ["/organization/{org}", "/organization/about/{org}", "/group/{group}",
                                  "/group/about/{group}", "/dataset/{record}", "/organization/activity/{org}",
                                  "/dataset/activity/{record}"])
def test_a_visitors_page_names_no_user(web, world, path):
    body = web.get(path.format(org="ministerstvo", group="tema", record="zaznam-ministerstva")).get_data(as_text=True)
    assert not {secret for secret in _secrets(world) if secret in body}


@pytest.mark.parametrize("path", ["/organization/members/ministerstvo", "/group/members/tema"])
def test_a_visitor_gets_no_members_page(web, world, path):
    body = web.get(path, status=403).get_data(as_text=True)
    assert not {secret for secret in _secrets(world) if secret in body}


def test_a_signed_in_user_sees_an_organizations_members(web, world):
    reader = SignedIn(web, factories.User())
    shown = reader.get("/api/3/action/organization_show", query_string={"id": world["org"]["id"]}).json["result"]
    assert {PEOPLE[role][0] for role in ("admin", "editor", "member")} <= {user["name"] for user in shown["users"]}
    members = reader.get("/api/3/action/member_list",
                         query_string={"id": world["org"]["id"], "object_type": "user"}).json["result"]
    assert {world["people"][role]["id"] for role in ("admin", "editor", "member")} <= {row[0] for row in members}
