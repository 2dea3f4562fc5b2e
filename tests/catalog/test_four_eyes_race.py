"""The four-eyes rule holds under concurrency: one person sending "submit" and "publish" at once never does both.

A curator who is also an editor sends both transitions of a draft at the same time: two threads, each with its
own database session, call the action as the API does. While both wait for the record's row lock (held by the
test, so that the submission is sure to go first), authorization has already let both through: the draft was not
submitted when they were checked. Only the check under the lock can see the submission that committed meanwhile.
"""
from __future__ import annotations

import pytest
from ckan.tests.helpers import call_action
from tests.support.concurrency import ROW_LOCK, Writer, overlapping
from tests.support.workflow import CONFIG, EDITORS_ORG, act, draft_record, people  # noqa: F401

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]


def test_one_person_sending_submit_and_publish_at_once_never_does_both(web, people):
    person = people.curator
    call_action("organization_member_create", id=EDITORS_ORG, username=person["name"], role="member")
    record = draft_record(people)

    def send(target: str) -> Writer:
        return lambda: act(person, "passport_workflow_transition", id=record["id"], to=target)

    outcomes = overlapping(web, ROW_LOCK, {"id": record["id"]}, [send("submitted"), send("published")])

    assert outcomes == [
        "done",
        "refused: The record must be approved by someone other than who submitted it",
    ]
    history = call_action("passport_workflow_history", id=record["id"])
    assert [event["to_state"] for event in history] == ["submitted"]
    assert call_action("package_show", id=record["id"])["editorial_state"] == "submitted"
