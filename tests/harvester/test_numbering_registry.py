"""A registry that numbers its entries: the record keys on its passport's well-formed identifier, not the number.

Glavgosexpertiza's list.xml gives ``<identifier>1</identifier>`` for the passport of ``7707082071-fsnb2020``;
keyed on the number, the record was ``1`` (name ``mr-356a…``), its permanent link ``/opendata/1/``, and a second
numbering registry collided with it.
"""
from __future__ import annotations

import json

import pytest
from ckan.tests.helpers import call_action
from tests.support.fault_passports import valid_passport

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    # Every record public, so the permanent links answer without the editorial workflow.
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

ALLOW = {"allow_private_addresses": True}
FSNB = "7707082071-fsnb2020"
SCHOOLS = "7701234560-schools"


def numbering_site(root, identifier: str, title: str) -> None:
    """An MR site whose list.xml lists one passport as entry number 1, as Glavgosexpertiza's does."""
    folder = root / "opendata" / identifier
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps(valid_passport(identifier, title), ensure_ascii=False), "utf-8")
    (root / "opendata" / "list.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<list>'
        "<standardversion>http://opendata.gosmonitor.ru/standard/3.0</standardversion><meta><item>"
        f"<identifier>1</identifier><title>{title}</title><link>/opendata/{identifier}/meta.json</link>"
        "<format>json</format></item></meta></list>\n",
        "utf-8",
    )


@pytest.fixture
def numbering_sites(tmp_path, serve_site):
    sites = []
    for identifier, title in ((FSNB, "ФСНБ-2020"), (SCHOOLS, "Школы")):
        root = tmp_path / identifier
        numbering_site(root, identifier, title)
        sites.append(serve_site(root))
    return sites


def test_the_record_of_a_numbered_entry_keys_on_its_passports_identifier(web, numbering_sites, harvest_source,
                                                                       run_harvest):
    results, _ = run_harvest(harvest_source(f"{numbering_sites[0].url}/opendata/list.xml", ALLOW))

    dataset = results["1"]["dataset"]
    assert (dataset["mr_identifier"], dataset["name"]) == (FSNB, FSNB)
    served = json.loads(web.get(f"/opendata/{FSNB}/meta.json").body)
    assert (served["identifier"], served["title"]) == (FSNB, "ФСНБ-2020")


def test_two_registries_numbering_their_entries_from_one_do_not_collide(numbering_sites, harvest_source, run_harvest):
    for n, site in enumerate(numbering_sites):
        results, _ = run_harvest(harvest_source(f"{site.url}/opendata/list.xml", ALLOW, name=f"numbering-{n}"))
        assert results["1"]["report_status"] == "added", results["1"]["errors"]
    found = call_action("package_search", q="*:*", rows=10, include_private=True)["results"]
    assert sorted(d["mr_identifier"] for d in found) == [SCHOOLS, FSNB]
