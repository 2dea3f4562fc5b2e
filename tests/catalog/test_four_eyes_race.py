"""The four-eyes rule holds under concurrency: one person sending "submit" and "publish" at once never does both.

A curator who is also an editor sends both transitions of a draft at the same time: two threads, each with its
own database session, call the action as the API does. While both wait for the record's row lock (held by the
test, so that the submission is sure to go first), authorization has already let both through: the draft was not
submitted when they were checked. Only the check under the lock can see the submission that committed meanwhile.
"""
from __future__ import annotations

import threading
import time
from typing import Any

import ckan.model as model
import ckan.plugins.toolkit as tk
import pytest
import sqlalchemy as sa
from ckan.tests.helpers import call_action
from workflow_support import CONFIG, EDITORS_ORG, draft_record, people  # noqa: F401

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("with_plugins", "clean_db", "clean_index"), *CONFIG]


def _waiting_for_locks() -> int:
    """Sessions of this database waiting for a lock (a fresh connection: activity is cached per transaction)."""
    with model.meta.engine.connect() as probe:
        waiting = sa.text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return probe.execute(waiting).scalar()


def _until(condition: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the requests never reached the row lock"
        time.sleep(0.05)


def test_one_person_sending_submit_and_publish_at_once_never_does_both(app, people):
    person = people.curator
    call_action("organization_member_create", id=EDITORS_ORG, username=person["name"], role="member")
    record = draft_record(people)
    outcomes: dict[str, str] = {}

    def send(target: str) -> None:
        with app.flask_app.test_request_context():
            try:
                tk.get_action("passport_workflow_transition")(
                    {"user": person["name"], "ignore_auth": False}, {"id": record["id"], "to": target}
                )
                outcomes[target] = "done"
            except tk.NotAuthorized as refusal:
                outcomes[target] = f"refused: {refusal}"
            except tk.ValidationError as invalid:
                outcomes[target] = f"invalid: {invalid.error_dict}"
            finally:
                model.Session.remove()

    blocker = model.meta.engine.connect()
    lock = blocker.begin()
    blocker.execute(sa.text("SELECT id FROM package WHERE id = :id FOR UPDATE"), {"id": record["id"]})
    submit = threading.Thread(target=send, args=("submitted",))
    publish = threading.Thread(target=send, args=("published",))
    try:
        submit.start()
        _until(lambda: _waiting_for_locks() >= 1)
        publish.start()
        _until(lambda: _waiting_for_locks() >= 2)
    finally:
        lock.commit()
        blocker.close()
    submit.join(60)
    publish.join(60)
    # As the next request would: this thread's session still holds the record as loaded before the threads
    # committed (on CKAN 2.12 its extras are columns of that row, loaded with it).
    model.Session.remove()

    assert outcomes == {
        "submitted": "done",
        "published": "refused: The record must be approved by someone other than who submitted it",
    }
    history = call_action("passport_workflow_history", id=record["id"])
    assert [event["to_state"] for event in history] == ["submitted"]
    assert call_action("package_show", id=record["id"])["editorial_state"] == "submitted"
