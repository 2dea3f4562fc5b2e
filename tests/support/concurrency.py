"""What the race tests share: writers that truly overlap, each in a thread with its own database session.

Another connection holds a lock every writer meets on its way to the commit. The writers start one after the
other, each once the one before is waiting for a lock, so their order is known; the lock is let go once all of
them wait. Whatever each writer read before it waited is then as stale as a race can make it.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

import ckan.model as model
import ckan.plugins.toolkit as tk
import sqlalchemy as sa

Writer = Callable[[], Any]

# The lock of a record's package row, the one workflow transitions and updates wait for (params: id).
ROW_LOCK = "SELECT id FROM package WHERE id = :id FOR UPDATE"


def waiting_for_locks() -> int:
    """Sessions of this database waiting for a lock (a fresh connection: activity is cached per transaction)."""
    with model.meta.engine.connect() as probe:
        waiting = sa.text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return probe.execute(waiting).scalar()


def _until(condition: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the writers never all waited for a lock"
        time.sleep(0.05)


def _outcome(writer: Writer) -> str:
    try:
        writer()
    except tk.NotAuthorized as refusal:
        return f"refused: {refusal}"
    except tk.ValidationError as invalid:
        return f"invalid: {invalid.error_dict}"
    finally:
        model.Session.remove()
    return "done"


def overlapping(app: Any, lock: str, params: dict[str, Any], writers: list[Writer]) -> list[str]:
    """Run ``writers`` at once while ``lock`` (an SQL statement taking a lock, with ``params``) is held.

    Returns each writer's outcome, in order: ``done``, ``refused: …`` or ``invalid: {…}``.
    """
    outcomes = [""] * len(writers)

    def run(index: int) -> None:
        with app.flask_app.test_request_context():
            outcomes[index] = _outcome(writers[index])

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(writers))]
    blocker = model.meta.engine.connect()
    held = blocker.begin()
    blocker.execute(sa.text(lock), params)
    try:
        for count, thread in enumerate(threads, start=1):
            thread.start()
            _until(lambda: waiting_for_locks() >= count)
    finally:
        held.commit()
        blocker.close()
    for thread in threads:
        thread.join(60)
    # As the next request would: this thread's session still holds what it loaded before the writers committed
    # (on CKAN 2.12 a record's extras are columns of its row, loaded with it).
    model.Session.remove()
    return outcomes
