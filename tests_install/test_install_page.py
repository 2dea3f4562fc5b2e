"""docs/install.md walked as an admin would: into a CKAN from PyPI, from this project's wheel, on an empty database.

Slow (pip installs CKAN and the extensions; pip's cache is reused), so it is not part of `make test`: `make
test-install` runs it on the version CKAN_VERSION names, CI on every supported one. The blocks the page marks
``<!-- install-test: install -->`` run before CKAN is started, those marked ``check`` after; each as written,
through bash, but for the local services' ports (SUBSTITUTIONS).
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "install.md"
CKAN_VERSION = os.environ.get("CKAN_VERSION", "2.11.6")
PYTHON = os.environ.get("PYTHON", "python3.11")
PG_PORT = os.environ.get("PG_PORT", "5433")
REDIS_PORT = os.environ.get("REDIS_PORT", "6380")
SOLR_URL = os.environ.get("CKAN_SOLR_URL", "http://127.0.0.1:8983/solr/ckan")
DATABASE = "ckan_install_" + CKAN_VERSION.replace(".", "_")
PLUGINS = ("activity", "harvest", "scheming_datasets", "dcat", "passport", "passport_harvester", "passport_publish",
           "passport_lkod", "passport_lkod_harvester", "passport_conformance")
PAGES = ("/opendata/", "/lkod/", "/passport/scoreboard", "/harvest")


def page_blocks(phase: str) -> list[str]:
    """The bash blocks docs/install.md marks for ``phase``, in the page's order."""
    text = PAGE.read_text("utf-8")
    return re.findall(rf"<!-- install-test: {phase} -->\n```bash\n(.*?)```", text, re.DOTALL)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def as_postgres(*command: str) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else ["sudo", "-u", "postgres"]
    subprocess.run([*prefix, *command, "-p", PG_PORT], check=True, capture_output=True)


def ckan_requirement() -> str:
    """The ``ckan[requirements]==…`` line of this version's pins: the CKAN the portal already runs."""
    pins = (ROOT / "requirements" / f"ckan-{CKAN_VERSION}.txt").read_text("utf-8")
    return re.search(r"^ckan\[requirements\]==\S+$", pins, re.MULTILINE).group(0)


class Site:
    """A CKAN site in a fresh virtualenv: its folder, config and environment."""

    def __init__(self, folder: Path, url: str):
        self.folder, self.url = folder, url
        self.venv = folder / "venv"
        self.ini = folder / "ckan.ini"
        self.env = {**{k: v for k, v in os.environ.items() if not k.startswith("CKAN_")},
                    "PATH": f"{self.venv / 'bin'}:{os.environ['PATH']}", "VIRTUAL_ENV": str(self.venv),
                    "CKAN_INI": str(self.ini)}
        self.substitutions = {"http://127.0.0.1:5000": url, "mq.port=6379": f"mq.port={REDIS_PORT}"}

    def run(self, *command: str) -> str:
        done = subprocess.run(command, cwd=self.folder, env=self.env, capture_output=True, text=True)
        assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def run_block(self, block: str) -> str:
        for documented, local in self.substitutions.items():
            block = block.replace(documented, local)
        return self.run("bash", "-euo", "pipefail", "-c", block)


def timed(phase: str, started: float) -> None:
    print(f"[install test, CKAN {CKAN_VERSION}] {phase}: {time.monotonic() - started:.0f} s", flush=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """An existing CKAN (from PyPI, its config generated, its database initialised), then the page's install
    blocks run on it, then CKAN serving on a free port."""
    started = time.monotonic()
    folder = tmp_path_factory.mktemp("portal")
    port = free_port()
    portal = Site(folder, f"http://127.0.0.1:{port}")
    subprocess.run([PYTHON, "-m", "venv", str(portal.venv)], check=True)
    portal.run("pip", "install", "-q", "--upgrade", "pip", "wheel", "setuptools")
    portal.run("pip", "install", "-q", ckan_requirement())
    timed("CKAN installed", started)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(folder), str(ROOT)], check=True)

    as_postgres("dropdb", "--if-exists", DATABASE)
    as_postgres("createdb", "-O", "ckan", "-E", "utf-8", DATABASE)
    portal.run("ckan", "generate", "config", str(portal.ini))
    portal.run("ckan", "config-tool", str(portal.ini),
               f"sqlalchemy.url=postgresql://ckan:ckan@127.0.0.1:{PG_PORT}/{DATABASE}", f"solr_url={SOLR_URL}",
               f"ckan.redis.url=redis://127.0.0.1:{REDIS_PORT}/5", f"ckan.site_id=passport-install-{CKAN_VERSION}",
               f"ckan.site_url={portal.url}", f"ckan.storage_path={folder / 'storage'}")
    portal.run("ckan", "db", "init")

    for block in page_blocks("install"):
        portal.run_block(block)
    timed("the page's install blocks run", started)

    log = (folder / "ckan-run.log").open("w")
    server = subprocess.Popen(["ckan", "run", "--host", "127.0.0.1", "--port", str(port), "--disable-reloader"],
                              cwd=folder, env=portal.env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                requests.get(f"{portal.url}/api/3/action/status_show", timeout=5)
                break
            except requests.ConnectionError:
                assert server.poll() is None and time.monotonic() < deadline, (folder / "ckan-run.log").read_text()
                time.sleep(1)
        timed("CKAN serving", started)
        yield portal
    finally:
        server.terminate()
        server.wait(30)
        log.close()
        as_postgres("dropdb", "--if-exists", DATABASE)
        timed("done", started)


def test_the_migrations_the_page_runs_leave_none_pending(site):
    assert "unapplied migrations" not in site.run("ckan", "db", "pending-migrations")


def test_the_pages_check_commands_pass_on_the_installed_site(site):
    for block in page_blocks("check"):
        site.run_block(block)


def test_status_show_lists_every_plugin_the_page_enables(site):
    status = requests.get(f"{site.url}/api/3/action/status_show", timeout=30).json()["result"]
    assert status["ckan_version"] == CKAN_VERSION
    assert set(PLUGINS) <= set(status["extensions"]), json.dumps(status)


@pytest.mark.parametrize("path", PAGES)
def test_a_page_of_each_plugin_answers(site, path):
    answer = requests.get(f"{site.url}{path}", timeout=60)
    assert answer.status_code == 200, answer.text[:2000]
