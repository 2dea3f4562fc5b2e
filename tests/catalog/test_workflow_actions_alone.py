"""Workflow actions that need the catalog and the people to themselves: the search index and the queue hold only
the test's records (each starts from an empty catalog), and two tests make a curator an editor.

Each test makes its people on a clean database and index; test_workflow_actions.py shares one set of people.
"""
from __future__ import annotations

import pytest
from ckan.logic import NotAuthorized
from ckan.tests.helpers import call_action
from tests.support.workflow import CONFIG, EDITORS_ORG, act, people, record_in_state  # noqa: F401

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]


def state(record: dict) -> str:
    return call_action("package_show", id=record["id"])["editorial_state"]


def move(user: dict, record: dict, target: str, comment: str = "") -> dict:
    return act(user, "passport_workflow_transition", id=record["id"], to=target, comment=comment)


def test_a_curator_cannot_publish_their_own_submission_even_as_an_editor(people):
    call_action("organization_member_create", id=EDITORS_ORG, username=people.curator["name"], role="member")
    record = record_in_state(people, "submitted")
    with pytest.raises(NotAuthorized):
        move(people.curator, record, "published")
    assert state(record) == "submitted"


def test_a_fellow_curator_who_is_an_editor_may_publish_a_colleagues_submission(people):
    call_action("organization_member_create", id=EDITORS_ORG, username=people.co_curator["name"], role="member")
    record = record_in_state(people, "submitted")
    move(people.co_curator, record, "published")
    assert state(record) == "published"


def test_a_transition_reaches_the_search_index(people):
    record = record_in_state(people, "published")
    found = call_action("package_search", fq="+editorial_state:published")
    assert [d["id"] for d in found["results"]] == [record["id"]]


def test_the_queue_lists_submitted_records_with_their_submitter(people):
    waiting = record_in_state(people, "submitted")
    record_in_state(people, "draft")
    record_in_state(people, "published")
    queue = act(people.editor, "passport_workflow_queue")
    assert queue["count"] == 1
    [item] = queue["results"]
    assert (item["id"], item["submitted"]["user_name"]) == (waiting["id"], people.curator["name"])
