"""What the site check's tests share: clean job queues and rate-limit counters, CKAN's jobs worker on the default
queue and the site checks' own (in this process, each job in a work horse of its own; or ``ckan jobs worker``
itself), and reading a check as its page would (a fresh database session, as each web request has)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ckan import model
from ckan.lib import jobs
from ckan.lib.redis import connect_to_redis
from ckan.tests.helpers import call_action

from tests.support.local_demo_site import local_demo_site

from ckanext.passport.conformance.site_check import actions as site_check_actions
from ckanext.passport.conformance.site_check import job as site_check_job

ROOT = Path(__file__).resolve().parents[2]
CKAN = str(Path(sys.executable).with_name("ckan"))
# The queues the tests' workers take jobs from: CKAN's default (link and openness checks) and the site checks'.
QUEUES = (jobs.DEFAULT_QUEUE_NAME, site_check_job.QUEUE)


def empty_queues() -> None:
    for name in QUEUES:
        jobs.get_queue(name).empty()


@pytest.fixture
def clean_site_checks():
    """No job left in this site's queues by an earlier test, and no rate-limit count."""
    empty_queues()
    redis = connect_to_redis()
    for key in redis.scan_iter(site_check_actions.rate_limit_keys()):
        redis.delete(key)
    yield
    empty_queues()


def worker(burst: bool = True, log: Path | None = None) -> subprocess.Popen:
    """``ckan jobs worker default passport_site_check`` over test.ini and this test's environment (database, site
    id: its queues): the demo's two workers in one."""
    command = [CKAN, "-c", str(ROOT / "test.ini"), "jobs", "worker", *QUEUES] + (["--burst"] if burst else [])
    output = log.open("wb") if log else subprocess.DEVNULL
    return subprocess.Popen(command, env=dict(os.environ), stdin=subprocess.DEVNULL, stdout=output,
                            stderr=subprocess.STDOUT, start_new_session=True)


def run_worker_burst() -> None:
    """Run the queued jobs until the queue is empty, with CKAN's own worker in this process: each job in a forked work
    horse that loads the environment again, as under ``ckan jobs worker`` (:func:`worker`, whose start-up of a whole
    CKAN costs seconds each time, is for the tests about the command itself and for the browser walks' servers)."""
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        jobs.Worker(list(QUEUES)).work(burst=True)
    finally:
        for sig, handler in handlers.items():  # the worker's own handlers would outlive it in this process
            signal.signal(sig, handler)
        model.Session.remove()


def act(user, action: str, **data):
    """Call an action as ``user`` (None: anonymous) with authorization checked, as the API would."""
    return call_action(action, context={"user": user["name"] if user else "", "ignore_auth": False}, **data)


def refusal(raised: pytest.ExceptionInfo) -> str:
    [(field, [message])] = raised.value.error_dict.items()
    return f"{field}: {message}"


def shown(check_id: str, **context: Any) -> dict[str, Any]:
    """``passport_site_check_show`` in a fresh session: the worker process wrote the row."""
    model.Session.remove()
    return call_action("passport_site_check_show", context=context or None, id=check_id)


def wait_for(check_id: str, statuses: set[str], seconds: float = 60, **context: Any) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        check = shown(check_id, **context)
        if check["status"] in statuses:
            return check
        assert time.monotonic() < deadline, f"the check stayed {check['status']}: {check}"
        time.sleep(0.2)


@pytest.fixture
def home_site(tmp_path, serve_site):
    """The demo site served from a copy whose data and structure links stay on the local server."""
    return local_demo_site(tmp_path / "site", serve_site)
