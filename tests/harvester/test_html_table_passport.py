"""A harvest reads a passport published as a plain HTML table, without RDFa, where the registry links its page.

The site is a real local HTTP server: `/opendata/list.csv` links the Treasury-style page (tests/fixtures/mr-pages),
served as the dataset folder's `index.html` in Windows-1251; MR's passport files beside it do not exist.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject

from ckanext.passport.mr.model import STANDARD_3_0, Registry, RegistryEntry
from ckanext.passport.mr.writers.registry import write_registry

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
GUID = "7710568760-budgetexecution"
PAGE = Path(__file__).parent.parent / "fixtures" / "mr-pages" / "treasury-3col-windows-1251.html"


@pytest.fixture
def treasury_site(tmp_path, serve_site):
    folder = tmp_path / "opendata" / GUID
    folder.mkdir(parents=True)
    shutil.copy(PAGE, folder / "index.html")
    entry = RegistryEntry(GUID, "Сведения об исполнении федерального бюджета", f"/opendata/{GUID}/", "csv")
    (tmp_path / "opendata" / "list.csv").write_bytes(write_registry(Registry(STANDARD_3_0, [entry]), "list.csv"))
    return serve_site(tmp_path)


def test_a_table_passport_page_is_harvested_with_its_finding(treasury_site, harvest_source, run_harvest):
    source = harvest_source(f"{treasury_site.url}/opendata/list.csv", ALLOW)

    results, job = run_harvest(source)

    assert results[GUID]["report_status"] == "added", results[GUID]["errors"]
    dataset = call_action("package_show", id=results[GUID]["dataset"]["id"])
    assert (dataset["mr_identifier"], dataset["title"]) == (GUID, "Сведения об исполнении федерального бюджета")
    assert (dataset["mr_periodicity"], dataset["accrual_periodicity"]) == ("Ежемесячно", "MONTHLY")
    data = sorted(r["mr_version"] for r in dataset["resources"] if r.get("resource_type") == "data")
    assert data == ["20181101T0000", "20181203T0000", "20190109T0000", "20190201T0000"]
    content = json.loads(HarvestObject.get(results[GUID]["obj_id"]).content)
    assert (content["form"], content["encoding"]) == ("html-table", "windows-1251")
    assert "passport.rdfa_missing" in [p["code"] for p in content["problems"]]
    assert f"/opendata/{GUID}/" in treasury_site.hits
