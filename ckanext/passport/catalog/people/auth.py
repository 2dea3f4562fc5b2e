"""A visitor is refused the user pages, user lists, member lists and another user's organizations; anyone signed in
is judged by CKAN's own rule."""
from __future__ import annotations

from typing import Any, Callable

import ckan.authz as authz
import ckan.plugins.toolkit as tk


def _signed_in_only(context: dict[str, Any]) -> dict[str, Any]:
    if authz.auth_is_anon_user(context):
        return {"success": False, "msg": tk._("Sign in to see the portal's users.")}
    return {"success": True}


def _signed_in_then(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    """A visitor refused; anyone signed in judged by CKAN's own rule."""
    refused = _signed_in_only(context)
    return refused if not refused["success"] else next_auth(context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_show(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    return _signed_in_then(next_auth, context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_list(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    return _signed_in_then(next_auth, context, data_dict)


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


def chained_auth_functions() -> dict[str, Callable[..., Any]]:
    return {
        "user_show": user_show,
        "user_list": user_list,
        "member_list": member_list,
        "organization_list_for_user": organization_list_for_user,
        "package_collaborator_list": package_collaborator_list,
    }
