"""A portal user's login is not published: visitors who are not signed in see no user page, no user list, and
"a portal user" where an activity stream names who changed what; signed-in users see the names."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]


@pytest.fixture
def editor():
    return factories.User(name="jana-novakova-login", fullname="Jana Nováková")


@pytest.fixture
def editors_organization(editor):
    return factories.Organization(user=editor)


def test_a_visitor_gets_no_user_list(web):
    assert web.get("/user/", status=403)


def test_a_visitor_gets_no_user_page(web, editor):
    page = web.get(f"/user/{editor['name']}", status=403)
    assert editor["fullname"] not in page.body


def test_the_api_shows_a_visitor_no_user(web, editor):
    for action, params in (("user_show", {"id": editor["name"]}), ("user_list", {})):
        response = web.get(f"/api/3/action/{action}", params=params, status=403)
        assert response.json["success"] is False
        assert editor["name"] not in response.body


def test_an_activity_stream_names_no_login_to_a_visitor(web, editor, editors_organization):
    page = web.get(f"/organization/activity/{editors_organization['name']}").body
    assert "a portal user" in page
    assert editor["name"] not in page and editor["fullname"] not in page


def test_a_signed_in_user_sees_who_changed_what(web, editor, editors_organization):
    reader = SignedIn(web, factories.User())
    page = reader.get(f"/organization/activity/{editors_organization['name']}").get_data(as_text=True)
    assert editor["fullname"] in page
    assert reader.get(f"/user/{editor['name']}").status_code == 200


def test_a_visitor_still_asks_for_a_password_reset_by_login(web, editor):
    response = web.post("/user/reset", data={"user": editor["name"]}, follow_redirects=False)
    assert response.status_code == 302
