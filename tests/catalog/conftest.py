"""Fixtures the catalog's tests share."""
from __future__ import annotations

from pathlib import Path

import pytest

from ckanext.passport import settings


@pytest.fixture
def vocab_dir(tmp_path, ckan_config, monkeypatch) -> Path:
    """The folder ``ckan passport vocab load`` stores a loaded EUROVOC in, configured for this test."""
    directory = tmp_path / "vocab"
    monkeypatch.setitem(ckan_config, settings.VOCAB_DIR, str(directory))
    return directory
