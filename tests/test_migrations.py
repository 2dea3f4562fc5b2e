"""Upgrading is safe: ``ckan db upgrade -p passport`` keeps every row, from an empty database or from any earlier
revision of this repository's migrations, and a round trip down to base and up again loses nothing on the way up.

The migrations run on a scratch database of their own (the worker's database name + ``_migrations``; the Makefile
has dev/services.sh make one per test database, as the ``ckan`` role may not create databases), never on the
suite's. Its schema is dropped and CKAN's, ckanext-harvest's and activity's tables made with ``ckan db init`` once a
run; each test then starts from the passport plugin at base and no rows. The commands run in this process, as the
CLI runs them, with ``sqlalchemy.url`` pointed at the scratch database while they run.

What down loses (``ckan db downgrade -p passport``, to base): the plugin's own tables and what they hold (workflow
events, feedback, harvest findings, site checks and their passports, job summaries, notices, link checks) and the
conformance scores it copied into harvest object extras, which the next upgrade copies again from the objects'
content. Two upgrades change values and their downgrades do not restore them: the author fields every save filled
(f2b6d8a4c1e3, never the record's) and the job summaries' INN keys (6f1b3d5a7c9e, rekeyed by organization). Records,
organizations, users and ckanext-harvest's sources, jobs, objects and errors are never touched by down.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from alembic.config import Config as AlembicConfig

import ckanext.passport

MIGRATIONS = Path(ckanext.passport.__file__).parent / "migration" / "passport"
NOW = datetime(2026, 1, 2, 3, 4, 5)


def _revisions() -> list[str]:
    """This repository's revisions, oldest first."""
    script = ScriptDirectory.from_config(AlembicConfig(str(MIGRATIONS / "alembic.ini")))
    return [r.revision for r in reversed(list(script.walk_revisions("base", "heads")))]


REVISIONS = _revisions()


# Rows the tables hold, written in the scratch database wherever the table exists: core's and ckanext-harvest's
# (a record with the author fields an old save filled, a `passport` harvest object holding a read passport's score
# and one holding none) and each of the plugin's.
def _core_rows(connection: sa.Connection) -> None:
    connection.execute(sa.text(
        "INSERT INTO \"user\" (id, name, state) VALUES ('u-1', 'migrating-curator', 'active');"
        "INSERT INTO \"group\" (id, name, title, type, is_organization, state)"
        " VALUES ('o-1', 'migrating-office', 'Migrating Office', 'organization', true, 'active');"
        "INSERT INTO package (id, name, type, owner_org, state, author, author_email)"
        " VALUES ('p-1', 'kept-record', 'dataset', 'o-1', 'active', 'saver', 'saver@example.org'),"
        "        ('p-2', 'another-kept-record', 'dataset', 'o-1', 'active', NULL, NULL);"
        "INSERT INTO resource (id, package_id, url) VALUES ('r-1', 'p-1', 'https://example.org/data.csv');"
        "INSERT INTO harvest_source (id, url, type, title, active)"
        " VALUES ('s-1', 'https://example.org/passports/', 'passport', 'Office passports', true);"
        "INSERT INTO harvest_job (id, source_id, status, created, finished)"
        " VALUES ('j-1', 's-1', 'Finished', :now, :now);"
        "INSERT INTO harvest_object (id, guid, current, harvest_job_id, harvest_source_id, package_id, state, content)"
        " VALUES ('ho-1', 'g-1', true, 'j-1', 's-1', 'p-1', 'COMPLETE', :read),"
        "        ('ho-2', 'g-2', false, 'j-1', 's-1', NULL, 'ERROR', :unread);"
        "INSERT INTO harvest_object_error (id, harvest_object_id, message, stage, created)"
        " VALUES ('e-1', 'ho-2', 'The passport could not be read', 'Fetch', :now);"
        "INSERT INTO harvest_object_extra (id, harvest_object_id, key, value) VALUES ('x-1', 'ho-1', 'status', 'new');"
    ), {"now": NOW, "read": json.dumps({"passport": {}, "conformance": {"score": 87}}),
        "unread": json.dumps({"failure": "unreadable"})})


PLUGIN_ROWS: dict[str, tuple[str, dict]] = {
    "passport_workflow_event": (
        "INSERT INTO passport_workflow_event (id, package_id, user_id, created, from_state, to_state, comment)"
        " VALUES ('w-1', 'p-1', 'u-1', :now, 'draft', 'published', 'ready')", {}),
    "passport_feedback": (
        "INSERT INTO passport_feedback (id, package_id, text, email, created, client_hash)"
        " VALUES ('f-1', 'p-1', 'A column is missing', 'reader@example.org', :now, 'hash')", {}),
    "passport_harvest_finding": (
        "INSERT INTO passport_harvest_finding (error_id, code, finding) VALUES ('e-1', 'fetch.unreadable', '{}')", {}),
    "passport_site_check": (
        "INSERT INTO passport_site_check (id, url, host, user_id, status, created, result)"
        " VALUES ('c-1', 'https://example.org/', 'example.org', 'u-1', 'done', :now, :result)",
        # A report as checks before e5a1c9d3b2f7 kept it (the passport inside); later ones take it apart.
        {"result": json.dumps({"passports": [{"url": "https://example.org/p.json", "passport": {"title": "P"}}]})}),
    "passport_site_check_passport": (
        "INSERT INTO passport_site_check_passport (check_id, number, url, passport)"
        " VALUES ('c-1', 2, 'https://example.org/q.json', '{\"title\": \"Q\"}')", {}),
    "passport_job_summary": (
        "INSERT INTO passport_job_summary (job_id, source_id, organization_id, publisher_key, publisher_name,"
        " finished, status) VALUES ('j-1', 's-1', 'o-1', '00006947', 'A creator', :now, 'finished')", {}),
    "passport_notice_sent": (
        "INSERT INTO passport_notice_sent (recipient, kind, about, sent)"
        " VALUES ('curator@example.org', 'job', 'j-1', :now)", {}),
    "passport_notice_optout": (
        "INSERT INTO passport_notice_optout (address, created) VALUES ('gone@example.org', :now)", {}),
    "passport_link_check": (
        "INSERT INTO passport_link_check (package_id, resource_id, field, url, status, checked_at)"
        " VALUES ('p-1', 'r-1', 'url', 'https://example.org/data.csv', 'ok', :now)", {}),
}


def _write_plugin_rows(connection: sa.Connection) -> list[str]:
    """A row in each of the plugin's tables that exists now; the tables written."""
    existing = set(sa.inspect(connection).get_table_names())
    written = [table for table in PLUGIN_ROWS if table in existing]
    for table in written:
        statement, values = PLUGIN_ROWS[table]
        connection.execute(sa.text(statement), {"now": NOW, **values})
    return written


Snapshot = dict[str, set[tuple]]


def _rows(connection: sa.Connection) -> Snapshot:
    """Every row of every table (but alembic's versions), by primary key (by whole row where there is none)."""
    inspector = sa.inspect(connection)
    snapshot: Snapshot = {}
    for table in inspector.get_table_names():
        if table.endswith("alembic_version"):
            continue
        key = inspector.get_pk_constraint(table)["constrained_columns"]
        columns = ", ".join(f'"{c}"' for c in key) if key else "*"
        snapshot[table] = {tuple(row) for row in connection.exec_driver_sql(f'SELECT {columns} FROM "{table}"')}
    return snapshot


def _lost(before: Snapshot, after: Snapshot, leaving_out: Callable[[str], bool] = lambda table: False
          ) -> dict[str, set[tuple]]:
    return {table: rows - after.get(table, set()) for table, rows in before.items()
            if not leaving_out(table) and rows - after.get(table, set())}


def _scores(connection: sa.Connection) -> set[tuple]:
    return set(connection.execute(sa.text(
        "SELECT harvest_object_id, value FROM harvest_object_extra WHERE key = 'conformance_score'")))


# The scratch database ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scratch_url() -> str:
    from ckan.common import config

    url = sa.engine.make_url(config["sqlalchemy.url"])
    scratch = url.set(database=f"{url.database}_migrations").render_as_string(hide_password=False)
    try:
        sa.create_engine(scratch, poolclass=sa.pool.NullPool).connect().close()
    except sa.exc.OperationalError as error:
        pytest.fail(f"{scratch}: no scratch database (dev/services.sh makes it: `make services`): {error}")
    return scratch


@pytest.fixture(scope="module")
def scratch_engine(scratch_url: str, pytestconfig: pytest.Config) -> Iterator[sa.Engine]:
    """The scratch database made again once a run: CKAN's, ckanext-harvest's and activity's tables (and the
    plugin's, which each test takes down to base)."""
    engine = sa.create_engine(scratch_url, poolclass=sa.pool.NullPool)
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    subprocess.run([str(Path(sys.executable).parent / "ckan"), "db", "init"], check=True, capture_output=True,
                   env={**os.environ, "CKAN_INI": str(Path(pytestconfig.getoption("ckan_ini")).resolve()), "CKAN_SQLALCHEMY_URL": scratch_url})
    yield engine
    engine.dispose()


@pytest.fixture
def ckan_db(cli, shared_plugins, scratch_url: str) -> Callable[..., None]:
    """``ckan_db("upgrade", "-p", "passport")``: the ``ckan db`` command, run on the scratch database."""
    from ckan.cli.db import db
    from ckan.common import config

    def run(*arguments: str) -> None:
        with _pointed_at(config, scratch_url):
            result = cli.invoke(db, list(arguments))
        assert result.exit_code == 0, result.output + repr(result.exception)

    return run


@contextlib.contextmanager
def _pointed_at(config, url: str) -> Iterator[None]:
    suite = config["sqlalchemy.url"]
    config["sqlalchemy.url"] = url
    try:
        yield
    finally:
        config["sqlalchemy.url"] = suite


@pytest.fixture
def at_base(scratch_engine: sa.Engine, ckan_db) -> sa.Engine:
    """The passport plugin at base (none of its tables) and no rows in any table, core's and records' included."""
    ckan_db("downgrade", "-p", "passport")
    with scratch_engine.begin() as connection:
        tables = [t for t in sa.inspect(connection).get_table_names() if not t.endswith("alembic_version")]
        connection.exec_driver_sql("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")
        _core_rows(connection)
    return scratch_engine


# The tests ---------------------------------------------------------------------------------------------------------

def test_every_table_the_migrations_make_holds_a_row_in_these_tests(at_base: sa.Engine, ckan_db):
    ckan_db("upgrade", "-p", "passport")
    with at_base.connect() as connection:
        made = {t for t in sa.inspect(connection).get_table_names() if t.startswith("passport_")}
    assert made == set(PLUGIN_ROWS) | {"passport_alembic_version"}


@pytest.mark.parametrize("revision", ["base", *REVISIONS[:-1]])
def test_an_upgrade_from_any_earlier_revision_keeps_every_row(at_base: sa.Engine, ckan_db, revision: str):
    if revision != "base":
        ckan_db("upgrade", "-p", "passport", "--version", revision)
    with at_base.begin() as connection:
        _write_plugin_rows(connection)
        before = _rows(connection)

    ckan_db("upgrade", "-p", "passport")

    with at_base.connect() as connection:
        assert _lost(before, _rows(connection)) == {}


def test_a_round_trip_down_to_base_and_up_again_loses_nothing_on_the_way_up(at_base: sa.Engine, ckan_db):
    with at_base.connect() as connection:
        empty = _rows(connection)
    ckan_db("upgrade", "-p", "passport")
    with at_base.begin() as connection:
        assert _lost(empty, _rows(connection)) == {}
        assert _write_plugin_rows(connection) == list(PLUGIN_ROWS)
        held = _rows(connection)
        scores = _scores(connection)
        copied = set(connection.execute(sa.text("SELECT id FROM harvest_object_extra WHERE key = 'conformance_score'")))
    assert scores == {("ho-1", "87")}
    held["harvest_object_extra"] -= copied  # copied again, under new ids, by the next upgrade

    ckan_db("downgrade", "-p", "passport")
    with at_base.connect() as connection:
        down = _rows(connection)
        assert _scores(connection) == set()
    assert not set(PLUGIN_ROWS) & set(down)
    assert _lost(held, down, leaving_out=PLUGIN_ROWS.__contains__) == {}

    ckan_db("upgrade", "-p", "passport")
    with at_base.connect() as connection:
        up = _rows(connection)
        assert _scores(connection) == scores
    assert _lost(down, up) == {}
    assert _lost(held, up, leaving_out=PLUGIN_ROWS.__contains__) == {}
    assert {table: up[table] for table in PLUGIN_ROWS} == {table: set() for table in PLUGIN_ROWS}
