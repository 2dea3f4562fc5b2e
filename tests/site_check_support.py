"""What the site check's tests share: a clean job queue and rate-limit counters, the jobs worker as a real
process, and reading a check as its page would (a fresh database session, as each web request has)."""
from __future__ import annotations

import os
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

from local_demo_site import local_demo_site

from ckanext.passport.conformance.site_check import actions as site_check_actions

ROOT = Path(__file__).resolve().parents[1]
CKAN = str(Path(sys.executable).with_name("ckan"))


@pytest.fixture
def clean_site_checks():
    """No job left in this site's default queue by an earlier test, and no rate-limit count."""
    jobs.get_queue().empty()
    redis = connect_to_redis()
    for key in redis.scan_iter(site_check_actions.rate_limit_keys()):
        redis.delete(key)
    yield
    jobs.get_queue().empty()


def worker(burst: bool = True, log: Path | None = None) -> subprocess.Popen:
    """``ckan jobs worker`` over test.ini and this test's environment (database, site id: its queue)."""
    command = [CKAN, "-c", str(ROOT / "test.ini"), "jobs", "worker"] + (["--burst"] if burst else [])
    output = log.open("wb") if log else subprocess.DEVNULL
    return subprocess.Popen(command, env=dict(os.environ), stdin=subprocess.DEVNULL, stdout=output,
                            stderr=subprocess.STDOUT, start_new_session=True)


def run_worker_burst(timeout: float = 120) -> str:
    """Run the queued jobs in a worker process that exits once the queue is empty; its output."""
    done = subprocess.run([CKAN, "-c", str(ROOT / "test.ini"), "jobs", "worker", "--burst"], env=dict(os.environ),
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout + done.stderr


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
