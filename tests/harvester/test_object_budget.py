"""One wall-clock budget per harvested passport: however many of its files a site holds back, each within its own
timeout, the object's fetches together end by ``ckanext.passport.harvest_object_budget`` with a coded error.
"""
from __future__ import annotations

import pytest
from ckanext.harvest.model import HarvestObject
from tests.support.fault_passports import one_passport_site, valid_passport
from tests.support.http_site import Fault

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    pytest.mark.ckan_config("ckanext.passport.harvest_object_budget", "2"),
]

IDENTIFIER = "7701234560-slowfiles"
VERSIONS = 6
HELD = 3.0  # seconds each file is held back: well within the source's timeout, far past the budget together
# Generous for a loaded machine: without the budget the object takes (VERSIONS + 2) * HELD = 24 s (every structure
# file, and the newest data file and its structure for the data check).
BOUND = 12.0


@pytest.fixture
def slow_site(tmp_path, serve_site):
    """A passport whose data and structure files all answer only after HELD seconds."""
    passport = valid_passport(IDENTIFIER, "Медленные файлы")
    stamps = [f"2024010{n + 1}T0000" for n in range(VERSIONS)]
    passport["data"] = [{"source": f"/opendata/{IDENTIFIER}/data-{stamp}-structure-{stamp}.csv", "created": stamp,
                         "provenance": "Обновление", "structure": stamp} for stamp in stamps]
    passport["structure"] = [{"source": f"/opendata/{IDENTIFIER}/structure-{stamp}.csv", "created": stamp}
                             for stamp in stamps]
    one_passport_site(tmp_path, passport)
    slow = Fault(delay=HELD, body=b"field,description\nid,Identifier\n", content_type="text/csv")
    faults = {version["source"]: slow for version in passport["data"] + passport["structure"]}
    return serve_site(tmp_path, faults)


def test_all_fetches_of_one_passport_end_within_its_budget_with_a_timeout_error(slow_site, harvest_source,
                                                                                run_harvest):
    config = {"allow_private_addresses": True, "fetch_structures": True, "check_data": True, "timeout": 10}
    results, _ = run_harvest(harvest_source(f"{slow_site.url}/opendata/list.csv", config))

    result = results[IDENTIFIER]
    stored = HarvestObject.get(result["obj_id"])
    assert (stored.fetch_finished - stored.fetch_started).total_seconds() < BOUND
    assert "[fetch.timeout]" in " ".join(error.message for error in result["errors"])
