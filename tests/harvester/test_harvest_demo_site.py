"""Harvesting the bundled demo MR site: every registry form gives the same datasets with the right values."""
from __future__ import annotations

import pytest
from ckan.tests.helpers import call_action
from tests.support.demo_site import IDENTIFIERS

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}


@pytest.mark.parametrize("registry", ["list.csv", "list.xml", "list.json", "opendatalist.csv", ""])
def test_every_registry_form_lands_every_dataset(demo_site, harvest_source, run_harvest, registry):
    source = harvest_source(f"{demo_site.url}/opendata/{registry}", ALLOW)
    results, job = run_harvest(source)
    assert {r["report_status"] for r in results.values()} == {"added"}, [r["errors"] for r in results.values()]
    names = {d["name"] for d in call_action("package_search", rows=50)["results"]}
    assert names == IDENTIFIERS
    assert job["status"] == "Finished"
