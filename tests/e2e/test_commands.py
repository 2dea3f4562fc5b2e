"""`ckan passport …` is wired into CKAN's own command line by the passport plugin."""
from __future__ import annotations

import json
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


def test_check_prints_as_json_the_document_the_portals_site_check_keeps(tmp_path, serve_site):
    """One check, one report: the command's JSON is the site check's document of the same reading."""
    from tests.support.local_demo_site import local_demo_site

    from ckanext.passport.conformance.site_check.report import site_document
    from ckanext.passport.mr.report import check_site
    from ckanext.passport.mr.translation import translator
    from ckanext.passport.settings import site_fetch_policy

    url = local_demo_site(tmp_path / "site", serve_site).url + "/opendata/"
    shown = _ckan("passport", "check", url, "--format", "json", "--allow-private", "--lang", "cs")
    assert shown.returncode == 1, shown.stderr[-1000:]  # the demo site has errors to show
    printed = json.loads(shown.stdout)
    here = site_document(check_site(url, site_fetch_policy(allow_private_addresses=True)), translator("cs"))
    assert printed == here
    assert {"url", "registry_url", "registry_form", "registry_size", "problems", "passports", "summary"} == set(printed)
    assert all(entry["fixed"] == {} for entry in printed["passports"])
