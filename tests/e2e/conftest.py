"""Fixtures every browser walk shares: Debian's Chromium and a live CKAN server over the test stack."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
import requests
from browser_walk import EDITORS_ORG

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


@pytest.fixture
def live_ckan(clean_db, clean_index, tmp_path: Path) -> Iterator[str]:
    """A CKAN server on a free port over the test database and Solr site id (started after they are reset)."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "ckan.log").open("wb")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "ckan"), "-c", str(_live_ini(tmp_path / "live.ini", port)),
         "run", "--host", "127.0.0.1", "--port", str(port), "--disable-reloader"],
        env=dict(os.environ),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(f"{url}/api/3/action/status_show", timeout=2).ok:
                    break
            except requests.ConnectionError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("CKAN did not start:\n" + (tmp_path / "ckan.log").read_text(errors="replace"))
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
