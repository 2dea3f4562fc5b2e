"""Fixtures shared by the whole suite."""
from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REAL = FIXTURES / "real"


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


# Plugins whose tables live in their own migrations: CKAN's reset drops every table and recreates only core's.
MIGRATED_PLUGINS = ("activity", "harvest")


@pytest.fixture
def clean_db(reset_db, migrate_db_for):
    """CKAN's ``clean_db``, plus the migrations of the plugins the suite runs with."""
    reset_db()
    for plugin in MIGRATED_PLUGINS:
        migrate_db_for(plugin)
