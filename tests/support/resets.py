"""Resetting the test database between tests, at the cost a test needs.

CKAN's reset (``reset_db``) drops every table the first time in a process and recreates only core's: the plugins'
tables live in their own migrations, re-applied here. Later resets delete rows (plugin tables share CKAN's
metadata, so theirs too), which costs milliseconds on the small databases tests make.
"""
from __future__ import annotations

from typing import Callable

# Plugins whose tables live in their own migrations: CKAN's reset drops every table and recreates only core's.
MIGRATED_PLUGINS = ("activity", "harvest", "passport")


def reset_with_plugin_tables(reset_db: Callable[[], None], migrate_db_for: Callable[[str], None]) -> None:
    """CKAN's reset, with the plugins' migrations re-applied when it dropped the tables (the process's first); later
    resets delete every row in one round trip (:func:`delete_rows`)."""
    from ckan import model

    if model.repo.tables_created_and_initialised:
        delete_rows()
        return
    reset_db()
    for plugin in MIGRATED_PLUGINS:
        migrate_db_for(plugin)


_existing_tables: frozenset[str] | None = None


def delete_rows() -> None:
    """What CKAN's ``delete_all`` does (every row of every table CKAN and the plugins declare, alembic's version
    kept), as one statement instead of a table-existence query and a DELETE per table: about a hundred round trips
    fewer for every test that starts from an empty catalog."""
    global _existing_tables
    import sqlalchemy as sa
    from ckan import model

    model.Session.close_all()
    model.repo.session.remove()
    engine = model.meta.engine
    if _existing_tables is None:
        _existing_tables = frozenset(sa.inspect(engine).get_table_names())
    tables = [t for t in reversed(model.repo.metadata.sorted_tables)
              if t.name != "alembic_version" and t.name in _existing_tables]
    with engine.begin() as connection:
        connection.exec_driver_sql(";".join(f'DELETE FROM "{table.name}"' for table in tables))


def ensure_tables(reset_db: Callable[[], None], migrate_db_for: Callable[[str], None]) -> None:
    """The process's first reset (every table dropped and migrated again) unless it happened: before a server or a
    consumer process is started over the database, whose tables must not be dropped under it."""
    from ckan import model

    if not model.repo.tables_created_and_initialised:
        reset_with_plugin_tables(reset_db, migrate_db_for)
