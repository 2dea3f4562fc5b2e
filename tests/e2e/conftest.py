"""Fixtures every browser walk shares: Debian's Chromium and a live CKAN server over the test stack."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import plugin_state
import pytest
import requests
from browser_walk import EDITORS_ORG
from ckan.lib.redis import connect_to_redis
from resets import ensure_tables
from workers import free_port

from ckanext.passport import rate_limits

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium, never a downloaded browser; no sandbox (containers) and no background traffic."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


def _live_ini(path: Path, port: int) -> Path:
    # The test configuration, served on its own address, with the editors organization of this walk.
    path.write_text(
        f"""[app:main]
use = config:{ROOT / "test.ini"}
ckan.site_url = http://127.0.0.1:{port}
ckanext.passport.editors_organization = {EDITORS_ORG}

[loggers]
keys = root
[handlers]
keys = console
[formatters]
keys = generic
[logger_root]
level = WARNING
handlers = console
[handler_console]
class = StreamHandler
args = (sys.stderr,)
level = NOTSET
formatter = generic
[formatter_generic]
format = %(asctime)s %(levelname)-5.5s [%(name)s] %(message)s
"""
    )
    return path


class _LiveServer:
    """One ``ckan run`` on a port of this worker's own, over the worker's database, index and site id."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "ckan.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [str(Path(sys.executable).parent / "ckan"), "-c", str(_live_ini(self.folder / "live.ini", self.port)),
                 "run", "--host", "127.0.0.1", "--port", str(self.port), "--disable-reloader"],
                env=dict(os.environ),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 90
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("CKAN did not start:\n" + self.log_path.read_text(errors="replace"))
            time.sleep(0.5)

    def answers(self) -> bool:
        try:
            return requests.get(f"{self.url}/api/3/action/status_show", timeout=5).ok
        except requests.RequestException:
            return False

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def _live_server(tmp_path_factory: pytest.TempPathFactory, reset_db, migrate_db_for) -> Iterator[_LiveServer]:
    """The worker's one CKAN server, started by the first walk that needs it and kept for the session: starting
    one costs seconds to a minute on a loaded machine, and every walk reads the same configuration."""
    # The first reset of a session drops every table, which must not happen under a server; the plugins' migrations
    # need the plugins loaded.
    plugin_state.load_all()
    ensure_tables(reset_db, migrate_db_for)
    server = _LiveServer(tmp_path_factory.mktemp("live-ckan"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def live_ckan(_live_server: _LiveServer, clean_db, clean_index) -> str:
    """The worker's CKAN server over a freshly reset database and index and no rate-limit count of this site (every
    walk is the same client, 127.0.0.1): the server keeps no state of its own between requests (sessions are the
    browser's, each walk has its own context), so a reset is a fresh portal."""
    redis = connect_to_redis()
    for key in redis.scan_iter(rate_limits.key("*")):
        redis.delete(key)
    if not _live_server.running() or not _live_server.answers():
        _live_server.stop()
        _live_server.start()
    return _live_server.url
