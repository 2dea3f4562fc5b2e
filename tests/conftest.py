"""Fixtures shared by the whole suite."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, TypeVar

from tests.support import plugin_state
import pysolr
import pytest
from tests.support import workers
from tests.support.demo_site import DEMO_SITE
from tests.support.resets import reset_with_plugin_tables

T = TypeVar("T")

FIXTURES = Path(__file__).parent / "fixtures"
REAL = FIXTURES / "real"


def pytest_configure(config: pytest.Config) -> None:
    """An xdist worker's own database, Solr core and site id, set before CKAN's plugin reads the configuration
    (at session start)."""
    ini = config.getoption("ckan_ini", default=None)
    if ini:
        workers.isolate(Path(ini))
    cheap_password_hashes()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In each module, the tests that run without the plugins first, then the others grouped by the configuration
    their marks ask for: the plugins are loaded (and the app made) once per group (plugin_state) instead of at every
    change, which cost a second a change on a loaded machine. The long modules go first (LONG_MODULES), the others keep
    their order, and the tests of a group theirs, shuffled too when the run is (last, after any plugin that reorders)."""
    by_module: dict[Any, list[pytest.Item]] = {}
    for item in items:
        by_module.setdefault(item.module if isinstance(item, pytest.Function) else item.path, []).append(item)
    modules = sorted(by_module.values(), key=lambda module: not _long(module[0]))
    items[:] = [item for module in modules for item in sorted(module, key=_configuration_asked)]


# Modules that take a worker a minute or more (browser walks with their live servers, the authorization matrix's
# world): xdist hands whole modules out in collection order, so these go first, and the many short modules fill the
# workers' ends evenly instead of one worker finishing a walk while the other waits (three minutes of a run).
LONG_MODULES = ("e2e/", "test_every_action_and_route.py", "test_migrations.py", "harvester/test_fault_site.py")


def _long(item: pytest.Item) -> bool:
    path = item.path.relative_to(Path(__file__).parent).as_posix()
    return any(path.startswith(long) for long in LONG_MODULES)


def _configuration_asked(item: pytest.Item) -> tuple[bool, tuple[tuple[str, str], ...]]:
    asks_plugins = bool(PLUGIN_FIXTURES.intersection(getattr(item, "fixturenames", ())))
    marks = sorted((str(key), str(value)) for mark in item.iter_markers("ckan_config") for key, value in [mark.args])
    return asks_plugins, tuple(marks)


# Rounds of the password hash for the users tests make: every factory user, sysadmin and curator is hashed with
# CKAN's pbkdf2_sha512 (25,000 rounds, about 30 ms each, thousands in a run). A hash records its rounds, so the
# passwords still verify, in this process and in a live server's.
TEST_PASSWORD_ROUNDS = 1000


def cheap_password_hashes() -> None:
    from passlib.hash import pbkdf2_sha512

    pbkdf2_sha512.default_rounds = TEST_PASSWORD_ROUNDS


@pytest.fixture
def real_fixtures() -> Path:
    """Folder of real government publications, kept byte-for-byte (see fixtures/real/SOURCES.md)."""
    return REAL


@pytest.fixture
def read_real():
    """Bytes of one real fixture file, by path relative to fixtures/real."""

    def read(relative: str) -> bytes:
        return (REAL / relative).read_bytes()

    return read


# The suite's own fixtures where CKAN has one for the same need: named apart from CKAN's (``clean_db``,
# ``with_plugins``, ``make_app``, ``app``, ``with_request_context``) because they behave otherwise, so a reader who
# knows CKAN's is not misled and CKAN's stay usable as they are.


@pytest.fixture
def empty_db(reset_db, migrate_db_for):
    """An empty database with the plugins' tables too (CKAN's ``clean_db`` recreates core's only): the plugins'
    migrations applied at the process's first reset, every row deleted at the later ones (resets.py)."""
    reset_with_plugin_tables(reset_db, migrate_db_for)


@pytest.fixture
def shared_plugins(ckan_config):
    """Every plugin of ``ckan.plugins`` loaded for the test, as by CKAN's ``with_plugins``, but left loaded for the
    next test asking with the same configuration instead of unloaded after each (plugin_state)."""
    plugin_state.load_all()
    yield


@pytest.fixture
def make_shared_app(ckan_config):
    """A new test client for each call, over the app made once for a run of tests with the same configuration
    (plugin_state), where CKAN's ``make_app`` makes a new app each time."""
    from ckan.lib.app_globals import _CONFIG_CACHE

    _CONFIG_CACHE.clear()  # values app_globals cached in an earlier test would hide this test's ckan_config marks
    return _test_app


@pytest.fixture
def web(make_shared_app):
    """A test client of the app shared by the tests of one configuration (``make_shared_app``): the web app
    CKAN's ``app`` gives a new one of."""
    return make_shared_app()


@pytest.fixture
def with_web_request_context(web):
    """A request context of the shared app (``web``) for the test, as CKAN's ``with_request_context`` gives of a
    new one (for code that needs CKAN's translator or ``request``)."""
    with web.flask_app.test_request_context():
        yield


def _test_app():
    from ckan.common import config
    from ckan.config.middleware import make_app
    from ckan.tests.helpers import CKANTestApp

    config["testing"] = True
    return CKANTestApp(plugin_state.app(lambda: make_app(config)))


# Fixtures that load the plugins: a test that asks for none of them runs without, as after CKAN's with_plugins.
PLUGIN_FIXTURES = frozenset({"shared_plugins", "make_shared_app", "stack_once"})


@pytest.fixture(autouse=True)
def _plugins_only_where_asked(request: pytest.FixtureRequest) -> None:
    if not PLUGIN_FIXTURES.intersection(request.fixturenames):
        plugin_state.unload()


@pytest.fixture(scope="module")
def stack_once(reset_db, migrate_db_for, reset_index):
    """Plugins loaded and a clean database and index once for a whole module.

    For modules whose tests each read one expensive setup (a whole harvest) instead of repeating it per test.
    """
    plugin_state.load_all()
    reset_with_plugin_tables(reset_db, migrate_db_for)
    reset_index()


@pytest.fixture(scope="module")
def _built_once() -> dict[str, Any]:
    return {}


@pytest.fixture
def built_once(stack_once, shared_plugins, _built_once: dict[str, Any]) -> Callable[[str, Callable[[], T]], T]:
    """``built_once(key, build)``: what ``build()`` made for the module's first test asking for ``key``, returned
    to its later tests; on the module's one clean database and index (``stack_once``), for state they only read.

    Built for a test rather than by a module fixture: the test's configuration (its marks) and plugins hold while it
    is made, as they did when each test made its own (a record's index labels are computed from the configuration).
    """

    def once(key: str, build: Callable[[], T]) -> T:
        if key not in _built_once:
            _built_once[key] = build()
        return _built_once[key]

    return once


@pytest.fixture(scope="module")
def serve_site():
    """Start real HTTP servers over folders: ``serve_site(root, faults)`` returns a started :class:`Site`."""
    from tests.support.http_site import Site

    started = []

    def serve(root: Path, faults=None):
        site = Site(root, faults).start()
        started.append(site)
        return site

    yield serve
    for site in started:
        site.stop()


@pytest.fixture
def demo_site(tmp_path, serve_site):
    """A private copy of the bundled demo MR site (tests may change its files), served on a free port."""
    import shutil

    root = tmp_path / "site"
    shutil.copytree(DEMO_SITE, root)
    return serve_site(root)


@pytest.fixture(scope="session")
def harvest_source():
    """Create a ``passport`` harvest source: ``harvest_source(url, config=None, **fields)`` returns its dict."""
    from tests.support.factories import PassportSource

    return lambda url, config=None, **fields: PassportSource(url=url, config=config, **fields)


@pytest.fixture(scope="session")
def run_harvest():
    """Run one job of a source through gather, fetch and import in-process; returns {guid: result}."""
    from ckan.plugins import toolkit
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.tests.lib import run_harvest_job
    from tests.support.factories import JobObj

    from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

    def run(source: dict):
        job = JobObj(source=HarvestSource.get(source["id"]))
        results = run_harvest_job(job, PassportHarvesterPlugin())
        return results, toolkit.get_action("harvest_job_show")({"ignore_auth": True}, {"id": job.id})

    return run


@pytest.fixture
def org_admin():
    """A user with an API token, admin of ``own_org`` (a harvest source's authority tests)."""
    from ckan.tests import factories

    return factories.UserWithToken()


@pytest.fixture
def own_org(org_admin):
    """The organization ``org_admin`` administers."""
    from ckan.tests import factories

    return factories.Organization(users=[{"name": org_admin["name"], "capacity": "admin"}])


@pytest.fixture
def solr_unreachable(ckan_config):
    """A switch: inside ``with solr_unreachable:`` this process's CKAN sends every search index request to a closed
    port (2.11 reads the address from SolrSettings, set at start-up; 2.12 from the config on each connection)."""
    from ckan.lib.search import common

    closed = "http://127.0.0.1:9/solr/closed"
    settings = getattr(common, "SolrSettings", None)
    saved = (settings.get() if settings else None, ckan_config.get("solr_url"))

    def point_at(url: str, stored) -> None:
        ckan_config["solr_url"] = url
        if settings:
            settings.init(url, *stored[1:])

    class Switch:
        def __enter__(self) -> None:
            point_at(closed, saved[0])

        def __exit__(self, *exc: object) -> None:
            point_at(saved[1], saved[0])

    yield Switch()
    point_at(saved[1], saved[0])


@pytest.fixture
def solr_updates(monkeypatch):
    """Each update request this process sends to the real Solr: ``hard``, ``soft`` or ``none`` (no commit)."""
    sent: list[str] = []
    send = pysolr.Solr._update

    def recorded(self, message, *args, commit=None, softCommit=False, **kwargs):
        sent.append("hard" if commit else "soft" if softCommit else "none")
        return send(self, message, *args, commit=commit, softCommit=softCommit, **kwargs)

    monkeypatch.setattr(pysolr.Solr, "_update", recorded)
    return sent
