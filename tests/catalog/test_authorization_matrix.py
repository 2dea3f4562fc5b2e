"""Who may do what and who sees what: every transition × every role, every review scope × every state.

Roles: anonymous, outsider (editor of another organization), curator (editor of the record's organization),
editor (member of the editors organization), sysadmin.

The people and one clean database and index are made once for the module; a test that only reads a record reads the
one record of its kind the module's readers share, a test that changes one makes its own.
"""
from __future__ import annotations

from typing import Callable, Iterator

import pytest
from ckan.lib import search
from ckan.logic import NotAuthorized
from ckan.tests.helpers import call_action
from tests.support.workflow import CONFIG, People, act, make_people, record_in_state

from ckanext.passport.settings import REVIEW_SCOPE

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins"), *CONFIG]

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


@pytest.fixture(scope="module")
def people(stack_once) -> People:
    """The workflow's people on the module's one clean database and index: no test changes them."""
    return make_people()


@pytest.fixture
def shared_record(people: People, built_once) -> Callable[[str], dict]:
    """``shared_record(kind)``: the module's one record of a kind (a state, or "reviewed") for tests that only read
    it (built by the first test asking, in its configuration: the editors organization is a mark)."""

    def shared(kind: str) -> dict:
        return built_once(kind, lambda: reviewed_record(people) if kind == "reviewed" else record_in_state(people, kind))

    return shared


def person(people: People, role: str) -> dict | None:
    return None if role == "anonymous" else getattr(people, role)


def current_state(record: dict) -> str:
    return call_action("package_show", id=record["id"])["editorial_state"]


ALLOWED = [(source, target, role) for (source, target), roles in sorted(TRANSITIONS.items()) for role in ROLES
           if role in roles]
REFUSED = [(source, target, role) for (source, target), roles in sorted(TRANSITIONS.items()) for role in ROLES
           if role not in roles]


@pytest.mark.parametrize("source, target, role", ALLOWED)
def test_a_role_allowed_a_transition_takes_it(people, source, target, role):
    record = record_in_state(people, source)  # its own: the transition changes it
    act(person(people, role), "passport_workflow_transition", id=record["id"], to=target, comment="ok")
    assert current_state(record) == target


@pytest.mark.parametrize("source, target, role", REFUSED)
def test_a_role_not_allowed_a_transition_is_refused_and_the_record_stays(people, shared_record, source, target, role):
    record = shared_record(source)  # a refused transition changes nothing: the module's readers share the record
    with pytest.raises(NotAuthorized):
        act(person(people, role), "passport_workflow_transition", id=record["id"], to=target, comment="ok")
    assert current_state(record) == source


# Who reads an unpublished record when only published ones are public -----------------------------------

READERS_OF_UNPUBLISHED = {"anonymous": False, "outsider": False, "curator": True, "editor": True, "sysadmin": True}


@pytest.mark.parametrize("role", ROLES)
def test_package_show_of_an_unpublished_record_in_full_scope(people, shared_record, role):
    record = shared_record("submitted")
    if READERS_OF_UNPUBLISHED[role]:
        assert act(person(people, role), "package_show", id=record["id"])["id"] == record["id"]
    else:
        with pytest.raises(NotAuthorized):
            act(person(people, role), "package_show", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_package_search_for_an_unpublished_record_in_full_scope(people, shared_record, role):
    record = shared_record("returned")
    found = act(person(people, role), "package_search", q=f"id:{record['id']}", include_private=True)
    assert (found["count"] == 1) is READERS_OF_UNPUBLISHED[role]


@pytest.mark.parametrize("role", ROLES)
def test_everyone_reads_a_published_record_in_full_scope(people, shared_record, role):
    record = shared_record("published")
    assert act(person(people, role), "package_show", id=record["id"])["id"] == record["id"]


@pytest.mark.parametrize("role", ("curator", "editor"))
def test_only_curators_and_editors_read_a_private_record_under_review(people, role):
    record = record_in_state(people, "submitted")  # its own: made private here
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


@pytest.fixture
def indexed_in_scope(ckan_config) -> Iterator[Callable[[dict, str], None]]:
    """``indexed_in_scope(record, scope)``: the review scope set for this test and the record indexed again (its labels
    are computed at index time); after the test, the record indexed as the configured scope has it, as the other tests
    sharing it read it."""
    configured = ckan_config.get(REVIEW_SCOPE)
    indexed: list[str] = []

    def index(record: dict, scope: str) -> None:
        ckan_config[REVIEW_SCOPE] = scope
        search.rebuild(record["id"])
        indexed.append(record["id"])

    yield index
    ckan_config[REVIEW_SCOPE] = configured
    for record_id in indexed:
        search.rebuild(record_id)


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("scope", sorted(PUBLIC_STATES))
def test_anonymous_visibility_by_scope_and_state(shared_record, indexed_in_scope, web, scope, state):
    record = shared_record(state)
    indexed_in_scope(record, scope)
    visible = state in PUBLIC_STATES[scope]

    assert anonymous_package_show(record) is visible
    assert anonymous_package_search(record) is visible
    page = web.get(f"/dataset/{record['name']}", status=200 if visible else 404)
    if visible:
        assert f'data-state="{state}"' in page.body
        assert ("passport-unreviewed" in page.body) is (state in MARKED_STATES[scope])
        listing = web.get("/dataset/", params={"q": f"name:{record['name']}"}).body
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
def test_workflow_history_by_role(people, shared_record, role):
    record = shared_record("reviewed")
    if HISTORY_READERS[role]:
        history = act(person(people, role), "passport_workflow_history", id=record["id"])
        assert RETURN_COMMENT in [event["comment"] for event in history]
        assert people.editor["name"] in [event["user_name"] for event in history]
    else:
        with pytest.raises(NotAuthorized):
            act(person(people, role), "passport_workflow_history", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_everyone_who_reads_a_record_reads_its_state_and_since_when(people, shared_record, role):
    record = shared_record("reviewed")
    published = call_action("passport_workflow_history", id=record["id"])[-1]
    assert act(person(people, role), "passport_workflow_state", id=record["id"]) == {
        "id": record["id"], "state": "published", "since": published["created"],
    }


def test_the_state_of_an_unpublished_record_is_refused_to_those_who_cannot_read_it(people, shared_record):
    record = shared_record("submitted")
    with pytest.raises(NotAuthorized):
        act(people.outsider, "passport_workflow_state", id=record["id"])


@pytest.mark.parametrize("role", ROLES)
def test_the_dataset_page_shows_reviewers_and_their_comments_to_curators_and_editors_only(web, people, shared_record,
                                                                                          role):
    record = shared_record("reviewed")
    page = page_as(web, people, role, record)
    assert 'class="passport-state-since"' in page
    assert ('class="table table-sm passport-history"' in page) is HISTORY_READERS[role]
    assert (RETURN_COMMENT in page) is HISTORY_READERS[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_activity_stream_of_a_reviewed_record_names_no_reviewer(people, shared_record, role):
    record = shared_record("reviewed")
    activities = act(person(people, role), "package_activity_list", id=record["id"])
    assert people.editor["id"] not in {activity["user_id"] for activity in activities}
