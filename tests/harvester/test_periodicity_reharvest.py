"""The MR periodicity text of a harvested passport gives the record its EU frequency once; then it is the curator's.

Roshydromet's real MR 2.x passport (the demo site's 7703092752-terorg) says "по мере изменений": the first harvest
makes the record's frequency IRREG. A curator changes it; the publisher then changes the text, and the re-harvest
writes the new text (the MR identity) but keeps the curator's frequency.
"""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action

from tests.support.catalog_records import EUROVOC_ECONOMICS, complete_record

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
GUID = "7703092752-terorg"
PASSPORT = f"opendata/{GUID}/meta.csv"  # MR 2.x three-column passport in windows-1251
# What a curator must add before saving a harvested record in the portal.
CURATOR_PART = ("openness_conditions", "publisher_email", "publisher_id_scheme", "publisher_id")


def test_the_first_harvest_sets_the_frequency_and_a_reharvest_keeps_the_curators(
    demo_site, harvest_source, run_harvest
):
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW)
    first, _ = run_harvest(source)
    dataset_id = first[GUID]["dataset"]["id"]
    harvested = call_action("package_show", id=dataset_id)
    assert (harvested["mr_periodicity"], harvested["accrual_periodicity"]) == ("по мере изменений", "IRREG")

    record = complete_record()
    call_action(
        "package_patch", {"user": factories.Sysadmin()["name"]}, id=dataset_id, accrual_periodicity="ANNUAL",
        eurovoc=[{"uri": EUROVOC_ECONOMICS}], **{name: record[name] for name in CURATOR_PART},
    )
    path = demo_site.root / PASSPORT
    path.write_bytes(path.read_bytes().replace("по мере изменений".encode("cp1251"), "ежемесячно".encode("cp1251")))
    again, _ = run_harvest(source)

    assert again[GUID]["report_status"] == "updated"
    after = call_action("package_show", id=dataset_id)
    assert (after["mr_periodicity"], after["accrual_periodicity"]) == ("ежемесячно", "ANNUAL")
