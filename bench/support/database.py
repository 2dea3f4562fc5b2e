"""The benchmarks' databases, brought up to date and emptied, and test.ini's configuration.

The harvest benchmarks run on ``ckan_bench`` (``BENCH_DATABASE``: another for a run beside others) with the Solr
site id ``bench`` (``BENCH_SITE_ID``): :func:`ensure_database`, :func:`empty_database`, :func:`bench_env`. The
report benchmarks run on test.ini's database, or the one CKAN_SQLALCHEMY_URL names: :func:`prepare_database`.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from support import INI, ROOT

DATABASE = os.environ.get("BENCH_DATABASE", "ckan_bench")  # another for a bench run beside others
DB_URL = f"postgresql://ckan:ckan@127.0.0.1:5433/{DATABASE}"
SITE_ID = os.environ.get("BENCH_SITE_ID", "bench")  # its queues and index entries: another beside others
PG_PORT = "5433"


def bench_env() -> dict[str, str]:
    return dict(os.environ, CKAN_INI=str(INI), CKAN_SQLALCHEMY_URL=DB_URL, CKAN_SITE_ID=SITE_ID)


def migrate(env: dict[str, str]) -> None:
    """The schema of the database ``env`` names brought up to date (CKAN, harvest, passport)."""
    ckan = str(Path(sys.executable).parent / "ckan")
    for command in (["db", "init"], ["db", "pending-migrations", "--apply"]):
        subprocess.run([ckan, *command], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def emptied(url: str) -> None:
    """Every row out of every table but the migration bookkeeping: each first harvest starts from nothing."""
    import psycopg2

    with psycopg2.connect(url) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                       "AND tablename NOT LIKE '%%alembic_version%%'")
        tables = ", ".join(f'"{name}"' for (name,) in cursor.fetchall())
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    connection.close()


def ensure_database() -> None:
    """Create ``ckan_bench`` (the role ``ckan`` may not create databases) and bring its schema up to date."""
    import psycopg2

    try:
        psycopg2.connect(DB_URL).close()
    except psycopg2.OperationalError as error:
        if "does not exist" not in str(error):
            raise
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else ["sudo", "-u", "postgres"]
        subprocess.run(as_postgres + ["createdb", "-p", PG_PORT, "-O", "ckan", "-E", "utf-8", DATABASE], check=True)
    migrate(bench_env())


def empty_database() -> None:
    emptied(DB_URL)


def review_free_config() -> Any:
    """test.ini with every record public (``review_scope: none``)."""
    from ckan.cli import load_config

    config = load_config(str(INI))
    config["ckanext.passport.review_scope"] = "none"
    return config


def database_url() -> str:
    return os.environ.get("CKAN_SQLALCHEMY_URL") or review_free_config()["sqlalchemy.url"]


def prepare_database() -> None:
    """The schema brought up to date (CKAN, harvest, passport), then every row out but the migration bookkeeping."""
    migrate(dict(os.environ, CKAN_INI=str(INI)))
    emptied(database_url())
