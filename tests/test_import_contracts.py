"""The rooms' layering (.importlinter) holds: every room imports only the rooms below it, mr/ imports no CKAN, and
the sibling features stay independent. The same check `.ci/run` makes, so a test run catches an import up the
layers too."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_contract_is_kept():
    run = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
