"""`ckan passport …` is wired into CKAN's own command line by the passport plugin."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.stack]

ROOT = Path(__file__).resolve().parents[2]
CKAN = [str(Path(sys.executable).with_name("ckan")), "-c", str(ROOT / "test.ini")]


def _ckan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(CKAN + list(args), capture_output=True, text=True, timeout=120, env=os.environ.copy())


def test_passport_group_offers_check_parse_and_vocab():
    shown = _ckan("passport", "--help")
    assert shown.returncode == 0, shown.stderr[-1000:]
    assert {"check", "parse", "vocab"} <= {line.split()[0] for line in shown.stdout.splitlines()[3:] if line.strip()}


def test_parse_prints_a_real_passport_as_json():
    shown = _ckan("passport", "parse", str(ROOT / "tests/fixtures/real/rosstat-okved2/meta.csv"))
    assert shown.returncode == 0, shown.stderr[-1000:]
    assert '"identifier": "7708234640-okvedva"' in shown.stdout
    assert '"encoding": "mixed"' in shown.stdout
