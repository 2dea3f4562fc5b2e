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
