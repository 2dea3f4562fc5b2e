"""A portal user's login is not published: a visitor who is not signed in sees no user page, user list or member
list, and where CKAN names the user behind a change (activity streams, a record's history) reads "a portal user"
instead.

A record names the people to contact in fields its curator fills in; who edited it on the portal is the portal's
business, and a login is half of what an attacker needs to sign in. CKAN's ``ckan.auth.public_user_details``
(on by default) opens all of that to visitors; the extension closes it whatever the site's ini says. A signed-in
user gets what CKAN gives.
"""
from __future__ import annotations

from typing import Any, Callable, Union

import ckan.authz as authz
import ckan.plugins as p
import ckan.plugins.toolkit as tk
from markupsafe import Markup, escape


@tk.chained_helper
def linked_user(next_helper: Callable[..., Any], user: Union[str, Any], maxlength: int = 0,
                avatar: int = 20) -> Union[Markup, str, None]:
    if tk.current_user.is_authenticated:
        return next_helper(user, maxlength, avatar)
    return escape(tk._("a portal user"))


def _signed_in_only(context: dict[str, Any]) -> dict[str, Any]:
    if authz.auth_is_anon_user(context):
        return {"success": False, "msg": tk._("Sign in to see the portal's users.")}
    return {"success": True}


def _signed_in_then(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    """A visitor refused; anyone signed in judged by CKAN's own rule."""
    refused = _signed_in_only(context)
    return refused if not refused["success"] else next_auth(context, data_dict)


def _without_members(context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    """A visitor's group or organization comes without its users (CKAN includes them by default, each with login,
    full name, sysadmin flag and e-mail hash); a list with ``all_fields`` shows each through the same action."""
    return {**data_dict, "include_users": False} if authz.auth_is_anon_user(context) else data_dict


@tk.chained_action
@tk.side_effect_free
def organization_show(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
    return next_action(context, _without_members(context, data_dict))


@tk.chained_action
@tk.side_effect_free
def group_show(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
    return next_action(context, _without_members(context, data_dict))


def _asked_before_lookup(name: str) -> Callable[..., Any]:
    """CKAN's ``name`` action with its authorization asked first: CKAN looks the user up before it asks, so a visitor
    would tell an existing login (refused) from a missing one (not found)."""

    @tk.chained_action
    @tk.side_effect_free
    def chained(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
        tk.check_access(name, context, data_dict)
        return next_action(context, data_dict)

    chained.__name__ = name
    return chained


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_show(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    return _signed_in_then(next_auth, context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_list(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    return _signed_in_then(next_auth, context, data_dict)


def _without_actor(context: dict[str, Any], activity: dict[str, Any]) -> dict[str, Any]:
    """ckanext-activity keeps the login of whoever changed a dataset in the activity's data (``actor``), beside the
    user's id; a visitor's activity keeps the id only."""
    data = activity.get("data")
    if not authz.auth_is_anon_user(context) or not isinstance(data, dict) or "actor" not in data:
        return activity
    return {**activity, "data": {key: value for key, value in data.items() if key != "actor"}}


def _stream_without_actors(name: str) -> Callable[..., Any]:
    @tk.chained_action
    @tk.side_effect_free
    def chained(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
        return [_without_actor(context, activity) for activity in next_action(context, data_dict)]

    chained.__name__ = name
    return chained


@tk.chained_action
@tk.side_effect_free
def activity_show(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
    # ckanext-activity's check reads include_data, documented as optional, and fails without it.
    return _without_actor(context, next_action(context, {"include_data": False, **data_dict}))


@tk.chained_action
@tk.side_effect_free
def activity_data_show(next_action: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> Any:
    """The data whole (no ``object_type`` asked) holds the actor beside the object."""
    data = next_action(context, data_dict)
    if data_dict.get("object_type"):
        return data
    return _without_actor(context, {"data": data})["data"]


ACTIVITY_STREAMS = ("package_activity_list", "group_activity_list", "organization_activity_list",
                    "recently_changed_packages_activity_list")


def _activity_actions() -> dict[str, Callable[..., Any]]:
    """Chained only where ckanext-activity is loaded (a chain with nothing to chain stops CKAN)."""
    if not p.plugin_loaded("activity"):
        return {}
    return {
        **{name: _stream_without_actors(name) for name in ACTIVITY_STREAMS},
        "activity_show": activity_show,
        "activity_data_show": activity_data_show,
    }


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def member_list(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    """A visitor may list a group's datasets or groups, not its users (all members, when no type is named)."""
    if data_dict.get("object_type") in ("package", "group"):
        return next_auth(context, data_dict)
    return _signed_in_then(next_auth, context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def organization_list_for_user(next_auth: Callable[..., Any], context: dict[str, Any],
                               data_dict: dict[str, Any]) -> dict[str, Any]:
    """Another user's organizations are the member lists read backwards; a visitor's own are none."""
    if not data_dict.get("id"):
        return next_auth(context, data_dict)
    return _signed_in_then(next_auth, context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def package_collaborator_list(next_auth: Callable[..., Any], context: dict[str, Any],
                              data_dict: dict[str, Any]) -> dict[str, Any]:
    """A dataset's collaborators are its member list; CKAN's own check fails with an error on a visitor."""
    return _signed_in_then(next_auth, context, data_dict)


def helpers() -> dict[str, Callable[..., Any]]:
    return {"linked_user": linked_user}


def chained_actions() -> dict[str, Callable[..., Any]]:
    return {
        "organization_show": organization_show,
        "group_show": group_show,
        "user_show": _asked_before_lookup("user_show"),
        "organization_list_for_user": _asked_before_lookup("organization_list_for_user"),
        **_activity_actions(),
    }


def chained_auth_functions() -> dict[str, Callable[..., Any]]:
    return {
        "user_show": user_show,
        "user_list": user_list,
        "member_list": member_list,
        "organization_list_for_user": organization_list_for_user,
        "package_collaborator_list": package_collaborator_list,
    }
