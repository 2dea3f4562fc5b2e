"""The portal served as `make demo` and a portal serve it: uWSGI (dev/serve-uwsgi.sh, the shape of
contrib/uwsgi/ckan-uwsgi.ini) with two worker processes, over the test stack, with a storage of its own."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
from tests.support.ini_logging import LOGGING
import requests
from tests.support.workers import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.stack]


class UwsgiServer:
    def __init__(self, url: str, process: subprocess.Popen, log: Path) -> None:
        self.url, self.process, self.log = url, process, log

    def children(self) -> list[int]:
        """The master's live children: its workers and its HTTP router."""
        found = []
        for entry in Path("/proc").iterdir():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == self.process.pid and fields[0] != "Z":
                found.append(int(entry.name))
        return found


def _answers(url: str) -> bool:
    try:
        return requests.get(f"{url}/api/3/action/status_show", timeout=5).ok
    except requests.RequestException:
        return False


@pytest.fixture
def uwsgi_server(live_ckan: str, tmp_path: Path) -> Iterator[UwsgiServer]:
    """dev/serve-uwsgi.sh with two workers on a port of its own, over the worker's database (live_ckan made its
    tables), with a storage no server has used: what a portal's first start finds."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    ini = tmp_path / "uwsgi.ini"
    ini.write_text(f"""[app:main]
use = config:{ROOT / "test.ini"}
ckan.site_url = {url}
ckan.storage_path = {tmp_path / "storage"}
{LOGGING}""")
    log = tmp_path / "uwsgi.log"
    with log.open("wb") as output:
        process = subprocess.Popen([str(ROOT / "dev" / "serve-uwsgi.sh"), str(port), "2"],
                                   env={**os.environ, "CKAN_INI": str(ini), "VENV": sys.prefix}, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    server = UwsgiServer(url, process, log)
    try:
        deadline = time.monotonic() + 120
        while not _answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("uWSGI did not serve CKAN:\n" + log.read_text(errors="replace")[-4000:])
            time.sleep(0.5)
        yield server
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_production_server_serves_ckan_from_two_worker_processes(uwsgi_server):
    # Each worker loads the application itself (lazy-apps): the first to be ready answers while the other loads.
    deadline = time.monotonic() + 90
    while uwsgi_server.log.read_text(errors="replace").count("WSGI app 0 (mountpoint='') ready") < 2:
        assert time.monotonic() < deadline, uwsgi_server.log.read_text(errors="replace")[-4000:]
        time.sleep(0.5)
    log = uwsgi_server.log.read_text(errors="replace")
    assert "spawned uWSGI worker 1" in log and "spawned uWSGI worker 2" in log
    assert "spawned uWSGI worker 3" not in log
    assert len(uwsgi_server.children()) == 3  # the two workers and the HTTP router
    assert requests.get(f"{uwsgi_server.url}/dataset/", timeout=30).status_code == 200


def test_the_production_server_serves_ckans_script_messages_in_czech(uwsgi_server):
    # uWSGI builds no JavaScript messages, as `ckan run` does when it starts: dev/serve-uwsgi.sh builds them.
    messages = requests.get(f"{uwsgi_server.url}/api/i18n/cs", timeout=30).json()
    assert messages["Upload"] == [None, "Nahrát"]
    assert messages["Remove"] == [None, "Odstranit"]
