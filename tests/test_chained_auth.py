"""A plugin declares the auth functions it wraps apart from its new ones (each room's chained_auth_functions(),
merged by plugins.shared.chained_auth): a wrapper that is not a tk.chained_auth_function, which CKAN would take
as a replacement of the check it names, or a name wrapped twice by one plugin, stops the plugin at load."""
from __future__ import annotations

import ckan.plugins.toolkit as tk
import pytest

from ckanext.passport.catalog.people import auth as people_auth
from ckanext.passport.catalog.workflow import unowned
from ckanext.passport.harvest import object_access
from ckanext.passport.plugins.shared import chained_auth


def _replacement(context, data_dict):
    return {"success": True}


@tk.chained_auth_function
def _wrapper(next_auth, context, data_dict):
    return next_auth(context, data_dict)


def test_an_auth_function_that_does_not_chain_is_refused_as_a_wrapper():
    with pytest.raises(ValueError, match="package_show"):
        chained_auth({"package_show": _replacement})


def test_one_plugin_wraps_an_auth_function_once():
    with pytest.raises(ValueError, match="package_update"):
        chained_auth({"package_update": _wrapper}, {"package_update": _wrapper})


def test_the_rooms_wrapped_auth_functions_all_chain():
    merged = chained_auth(people_auth.chained_auth_functions(), unowned.chained_auth_functions(),
                          object_access.chained_auth_functions())
    assert set(merged) == {"user_show", "user_list", "member_list", "organization_list_for_user",
                           "package_collaborator_list", "package_update", "harvest_object_show"}
