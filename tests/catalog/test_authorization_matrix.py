"""Who may do what and who sees what: every transition × every role, every review scope × every state.

Roles: anonymous, outsider (editor of another organization), curator (editor of the record's organization),
editor (member of the editors organization), sysadmin.
"""
from __future__ import annotations

import pytest
from ckan.lib import search
from ckan.logic import NotAuthorized
from ckan.tests.helpers import call_action
from workflow_support import CONFIG, People, act, people, record_in_state  # noqa: F401

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("with_plugins", "clean_db", "clean_index"), *CONFIG]

ROLES = ("anonymous", "outsider", "curator", "editor", "sysadmin")
STATES = ("draft", "submitted", "returned", "published", "invalidated")

# transition -> the roles allowed to take it
TRANSITIONS = {
    ("draft", "submitted"): {"curator", "sysadmin"},
    ("returned", "submitted"): {"curator", "sysadmin"},
    ("submitted", "published"): {"editor", "sysadmin"},
    ("submitted", "returned"): {"editor", "sysadmin"},
    ("published", "invalidated"): {"editor", "sysadmin"},
    ("invalidated", "published"): {"editor", "sysadmin"},
}


def person(people: People, role: str) -> dict | None:
    return None if role == "anonymous" else getattr(people, role)


def current_state(record: dict) -> str:
    return call_action("package_show", id=record["id"])["editorial_state"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("source, target", sorted(TRANSITIONS))
def test_transition_by_role(people, source, target, role):
    record = record_in_state(people, source)
    if role in TRANSITIONS[(source, target)]:
        act(person(people, role), "passport_workflow_transition", id=record["id"], to=target, comment="ok")
        assert current_state(record) == target
    else:
        with pytest.raises(NotAuthorized):
            act(person(people, role), "passport_workflow_transition", id=record["id"], to=target, comment="ok")
        assert current_state(record) == source


# Who reads an unpublished record when only published ones are public -----------------------------------

READERS_OF_UNPUBLISHED = {"anonymous": False, "outsider": False, "curator": True, "editor": True, "sysadmin": True}


@pytest.mark.parametrize("role", ROLES)
def test_package_show_of_an_unpublished_record_in_full_scope(people, role):
    record = record_in_state(people, "submitted")
    if READERS_OF_UNPUBLISHED[role]:
        assert act(person(people, role), "package_show", id=record["id"])["id"] == record["id"]
    else:
        with pytest.raises(NotAuthorized):
            act(person(people, role), "package_show", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_package_search_for_an_unpublished_record_in_full_scope(people, role):
    record = record_in_state(people, "returned")
    found = act(person(people, role), "package_search", q=f"id:{record['id']}", include_private=True)
    assert (found["count"] == 1) is READERS_OF_UNPUBLISHED[role]


@pytest.mark.parametrize("role", ROLES)
def test_everyone_reads_a_published_record_in_full_scope(people, role):
    record = record_in_state(people, "published")
    assert act(person(people, role), "package_show", id=record["id"])["id"] == record["id"]


@pytest.mark.parametrize("role", ("curator", "editor"))
def test_only_curators_and_editors_read_a_private_record_under_review(people, role):
    record = record_in_state(people, "submitted")
    act(people.sysadmin, "package_patch", id=record["id"], private=True)
    assert act(person(people, role), "package_show", id=record["id"])["private"] is True
    with pytest.raises(NotAuthorized):
        act(people.outsider, "package_show", id=record["id"])


# What an anonymous visitor sees, by review scope and state ------------------------------------------------
# Every reader of the catalog is listed here. The /opendata/ registry and passport exports build on
# anonymous package_search/package_show (ckanext/passport/publish/search.py); add them here as readers
# once they can publish a catalog record.

PUBLIC_STATES = {
    "full": {"published"},
    "partial": set(STATES),
    "none": set(STATES),
}
MARKED_STATES = {"full": set(), "partial": {"draft", "submitted", "returned"}, "none": set()}


def anonymous_package_show(record: dict) -> bool:
    try:
        act(None, "package_show", id=record["id"])
    except NotAuthorized:
        return False
    return True


def anonymous_package_search(record: dict) -> bool:
    return act(None, "package_search", q=f"id:{record['id']}")["count"] == 1


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("scope", sorted(PUBLIC_STATES))
def test_anonymous_visibility_by_scope_and_state(people, app, ckan_config, monkeypatch, scope, state):
    record = record_in_state(people, state)
    monkeypatch.setitem(ckan_config, "ckanext.passport.review_scope", scope)
    search.rebuild(record["id"])  # labels are computed at index time
    visible = state in PUBLIC_STATES[scope]

    assert anonymous_package_show(record) is visible
    assert anonymous_package_search(record) is visible
    page = app.get(f"/dataset/{record['name']}", status=200 if visible else 404)
    if visible:
        assert f'data-state="{state}"' in page.body
        assert ("passport-unreviewed" in page.body) is (state in MARKED_STATES[scope])
        listing = app.get("/dataset/", params={"q": f"name:{record['name']}"}).body
        assert record["title"] in listing
        assert ("passport-unreviewed" in listing) is (state in MARKED_STATES[scope])


# Who reads how a record got there: its curators and the editors; everyone who reads it, its state -------------

HISTORY_READERS = {"anonymous": False, "outsider": False, "curator": True, "editor": True, "sysadmin": True}
RETURN_COMMENT = "on the way"  # what record_in_state's editor says, returning the record


def reviewed_record(people: People) -> dict:
    """A published record its editor returned once, with a comment, before publishing it."""
    record = record_in_state(people, "returned")
    act(people.curator, "passport_workflow_transition", id=record["id"], to="submitted")
    act(people.editor, "passport_workflow_transition", id=record["id"], to="published")
    return record


def page_as(app, people: People, role: str, record: dict) -> str:
    user = person(people, role)
    headers = {"Authorization": call_action("api_token_create", user=user["name"], name="web")["token"]} if user else {}
    return app.get(f"/dataset/{record['name']}", headers=headers).body


@pytest.mark.parametrize("role", ROLES)
def test_workflow_history_by_role(people, role):
    record = reviewed_record(people)
    if HISTORY_READERS[role]:
        history = act(person(people, role), "passport_workflow_history", id=record["id"])
        assert RETURN_COMMENT in [event["comment"] for event in history]
        assert people.editor["name"] in [event["user_name"] for event in history]
    else:
        with pytest.raises(NotAuthorized):
            act(person(people, role), "passport_workflow_history", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_everyone_who_reads_a_record_reads_its_state_and_since_when(people, role):
    record = reviewed_record(people)
    published = call_action("passport_workflow_history", id=record["id"])[-1]
    assert act(person(people, role), "passport_workflow_state", id=record["id"]) == {
        "id": record["id"], "state": "published", "since": published["created"],
    }


def test_the_state_of_an_unpublished_record_is_refused_to_those_who_cannot_read_it(people):
    record = record_in_state(people, "submitted")
    with pytest.raises(NotAuthorized):
        act(people.outsider, "passport_workflow_state", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_the_dataset_page_shows_reviewers_and_their_comments_to_curators_and_editors_only(app, people, role):
    record = reviewed_record(people)
    page = page_as(app, people, role, record)
    assert 'class="passport-state-since"' in page
    assert ('class="table table-sm passport-history"' in page) is HISTORY_READERS[role]
    assert (RETURN_COMMENT in page) is HISTORY_READERS[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_activity_stream_of_a_reviewed_record_names_no_reviewer(people, role):
    record = reviewed_record(people)
    activities = act(person(people, role), "package_activity_list", id=record["id"])
    assert people.editor["id"] not in {activity["user_id"] for activity in activities}
