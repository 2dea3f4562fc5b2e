"""A visitor's group and organization come without their users, an activity without its actor's login, and a user
lookup asks its authorization before it looks."""
from __future__ import annotations

from typing import Any, Callable

import ckan.authz as authz
import ckan.plugins as p
import ckan.plugins.toolkit as tk


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


def chained_actions() -> dict[str, Callable[..., Any]]:
    return {
        "organization_show": organization_show,
        "group_show": group_show,
        "user_show": _asked_before_lookup("user_show"),
        "organization_list_for_user": _asked_before_lookup("organization_list_for_user"),
        **_activity_actions(),
    }
