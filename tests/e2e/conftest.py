"""Fixtures every browser walk shares: Debian's Chromium and a live CKAN server over the test stack."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

from tests.support import plugin_state
import pytest
import requests
from tests.support.browser_walk import EDITORS_ORG, axe_violations
from tests.support.ini_logging import LOGGING
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from ckan.lib.redis import connect_to_redis
from tests.support.resets import ensure_tables
from tests.support.workers import free_port

from ckanext.passport import rate_limits

ROOT = Path(__file__).resolve().parents[2]
# The demo's own scripts (dev/demo_lkod.py, dev/demo_workflow.py): walks serve and check what make demo does.
if str(ROOT / "dev") not in sys.path:
    sys.path.insert(0, str(ROOT / "dev"))


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


# An assertion on a page waits up to 20 s (Playwright's default: 5 s) before it fails: a walk's page changes after a
# job or a worker of the live server, which a loaded machine (two workers, a browser and the service-fault phase
# on two cores) can take longer than 5 s to deliver; a page that is right passes as soon as it is.
expect.set_options(timeout=20_000)


# CKAN's static files and its JavaScript translations: the same bytes for a whole run.
STATIC = re.compile(r"^http://127\.0\.0\.1:\d+/(webassets|base|api/i18n)/")


@pytest.fixture(scope="session")
def browser(browser: Browser) -> Browser:
    """pytest-playwright's browser, each of its contexts (the walks make several) given CKAN's static files from one
    copy kept for the session, as a browser's cache keeps them for a visitor: CKAN serves them with no lifetime, so
    every page load asked CKAN again for about twenty of them (600 of a walk's 700 requests), and a walk's context is
    new, so its own cache never had them."""
    kept: dict[str, tuple[str, bytes]] = {}

    def serve(route: Route) -> None:
        url = route.request.url
        try:
            if url not in kept:
                answer = route.fetch()
                if answer.status != 200:
                    route.fulfill(response=answer)
                    return
                kept[url] = (answer.headers.get("content-type", ""), answer.body())
            # The file's type only: its other headers set the session cookie of whoever asked first.
            content_type, body = kept[url]
            route.fulfill(status=200, content_type=content_type, body=body)
        except PlaywrightError:
            # The walk ended and closed its context while the file was on its way: no page waits for it.
            return

    new_context = browser.new_context

    def new_context_with_static_files(**options) -> BrowserContext:
        context = new_context(**options)
        context.route(STATIC, serve)
        context.on("page", _checked_for_accessibility)
        return context

    def new_page(**options) -> Page:
        # Browser.new_page makes its context without new_context: the same context, so the same files and checks.
        return new_context_with_static_files(**options).new_page()

    browser.new_context = new_context_with_static_files
    browser.new_page = new_page
    return browser


# The violations axe found in the extension's parts of the pages the running walk visited (browser_walk.axe_violations),
# each once.
_violations: dict[str, None] = {}


def _check(page: Page) -> None:
    try:
        _violations.update(dict.fromkeys(axe_violations(page)))
    except PlaywrightError:
        # The walk went on to another page (or closed this one) before axe finished: that page is checked on its load.
        return


def _checked_for_accessibility(page: Page) -> None:
    """Every page a walk's contexts open is checked by axe each time it loads (after a click, a form sent, a goto)."""
    page.on("load", lambda: _check(page))


@pytest.fixture(autouse=True)
def _accessible_pages(request: pytest.FixtureRequest, _contexts_closed: None) -> Iterator[None]:
    """A walk fails on any WCAG 2.1 AA violation in the extension's parts of the pages it visited, their last state
    included (checked here, before _contexts_closed closes the walk's contexts)."""
    _violations.clear()
    yield
    if "browser" not in request.fixturenames:
        return
    for context in request.getfixturevalue("browser").contexts:
        for page in context.pages:
            _check(page)
    found = list(_violations)
    _violations.clear()
    assert not found, "axe (WCAG 2.1 AA) in the extension's templates:\n" + "\n".join(found)


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every context a walk opened (a signed-in user's, a visitor's) closed when it ends: left open, its pages would
    keep the browser busy (and any page that polls, the server) for the rest of the run."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def _live_ini(path: Path, port: int) -> Path:
    # The test configuration, served on its own address, with the editors organization of this walk.
    path.write_text(
        f"""[app:main]
use = config:{ROOT / "test.ini"}
ckan.site_url = http://127.0.0.1:{port}
ckanext.passport.editors_organization = {EDITORS_ORG}

{LOGGING}"""
    )
    return path


# PASSPORT_LIVE_SERVER=uwsgi: the walks go through the production server, uWSGI with two workers (dev/serve-uwsgi.sh,
# as `make demo` serves), so that state one worker keeps and the other does not shows; by default `ckan run`, quicker.
LIVE_SERVER = os.environ.get("PASSPORT_LIVE_SERVER", "ckan-run")


class _LiveServer:
    """One ``ckan run`` (or uWSGI, see LIVE_SERVER) on a port of this worker's own, over the worker's database,
    index and site id."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "ckan.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            ini = _live_ini(self.folder / "live.ini", self.port)
            command = ([str(ROOT / "dev" / "serve-uwsgi.sh"), str(self.port), "2"] if LIVE_SERVER == "uwsgi" else
                       [str(Path(sys.executable).parent / "ckan"), "-c", str(ini), "run", "--host", "127.0.0.1",
                        "--port", str(self.port), "--disable-reloader"])
            self.process = subprocess.Popen(
                command,
                env={**os.environ, "CKAN_INI": str(ini), "VENV": sys.prefix},
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
def live_ckan(_live_server: _LiveServer, empty_db, clean_index) -> str:
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
