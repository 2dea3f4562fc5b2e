"""A portal user's login is not published: a visitor who is not signed in sees no user page or user list, and where
CKAN names the user behind a change (activity streams, a record's history) reads "a portal user" instead.

A record names the people to contact in fields its curator fills in; who edited it on the portal is the portal's
business, and a login is half of what an attacker needs to sign in.
"""
from __future__ import annotations

from typing import Any, Callable, Union

import ckan.authz as authz
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


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_show(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    refused = _signed_in_only(context)
    return refused if not refused["success"] else next_auth(context, data_dict)


@tk.chained_auth_function
@tk.auth_allow_anonymous_access
def user_list(next_auth: Callable[..., Any], context: dict[str, Any], data_dict: dict[str, Any]) -> dict[str, Any]:
    refused = _signed_in_only(context)
    return refused if not refused["success"] else next_auth(context, data_dict)


def helpers() -> dict[str, Callable[..., Any]]:
    return {"linked_user": linked_user}


def auth_functions() -> dict[str, Callable[..., Any]]:
    return {"user_show": user_show, "user_list": user_list}
