"""A re-harvest asks first where the last read found the passport, and tries every form again once a day.

The site is a real local HTTP server: `/opendata/list.csv` links a dataset folder holding only the Treasury's real
passport page (no meta.json, meta.xml or meta.csv beside it), the publisher's choice the issue describes.
"""
from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import ckan.model as model
import pytest
from ckanext.harvest.model import HarvestObject, HarvestObjectExtra

from ckanext.passport.harvest import stored
from ckanext.passport.mr.model import STANDARD_3_0, Registry, RegistryEntry
from ckanext.passport.mr.writers.registry import write_registry

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
GUID = "7710568760-budgetexecution"
FOLDER = f"/opendata/{GUID}/"
PAGE = Path(__file__).parent.parent / "fixtures" / "mr-pages" / "treasury-3col-windows-1251.html"
META_JSON = {
    "standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
    "identifier": GUID,
    "title": "Сведения об исполнении федерального бюджета (meta.json)",
    "description": "Сведения об исполнении федерального бюджета",
    "creator": "Федеральное казначейство",
    "created": "20181101T0000",
    "modified": "20190201T0000",
    "subject": "бюджет",
    "format": "csv",
    "data": [{"source": f"{FOLDER}data-20190201T0000-structure-20181101T0000.csv", "created": "20190201T0000",
              "structure": "20181101T0000"}],
    "structure": [{"source": f"{FOLDER}structure-20181101T0000.csv", "created": "20181101T0000"}],
}


@pytest.fixture
def page_only_site(tmp_path, serve_site):
    folder = tmp_path / "opendata" / GUID
    folder.mkdir(parents=True)
    shutil.copy(PAGE, folder / "index.html")
    entry = RegistryEntry(GUID, "Сведения об исполнении федерального бюджета", FOLDER, "csv")
    (tmp_path / "opendata" / "list.csv").write_bytes(write_registry(Registry(STANDARD_3_0, [entry]), "list.csv"))
    return serve_site(tmp_path)


@pytest.fixture
def source(page_only_site, harvest_source):
    return harvest_source(f"{page_only_site.url}/opendata/list.csv", ALLOW)


def _passport_requests(site) -> list[str]:
    return [path for path in site.hits if path.startswith(FOLDER)]


def _current_extras() -> dict[str, str]:
    current = model.Session.query(HarvestObject).filter_by(guid=GUID, current=True).one()
    return stored.extras_of(current)


def _probed_days_ago(days: int) -> None:
    """As if the last probe had been ``days`` ago (the current object's stamp moved back)."""
    extra = (model.Session.query(HarvestObjectExtra).join(HarvestObject)
             .filter(HarvestObject.guid == GUID, HarvestObject.current == True,  # noqa: E712
                     HarvestObjectExtra.key == stored.FORMS_PROBED).one())
    extra.value = (dt.datetime.fromisoformat(extra.value) - dt.timedelta(days=days)).isoformat()
    model.Session.commit()


def test_the_first_harvest_tries_every_form_in_order_and_reads_the_page(page_only_site, source, run_harvest):
    results, _ = run_harvest(source)

    assert results[GUID]["report_status"] == "added", results[GUID]["errors"]
    assert _passport_requests(page_only_site) == [f"{FOLDER}meta.json", f"{FOLDER}meta.xml", f"{FOLDER}meta.csv",
                                                  FOLDER]
    assert _current_extras()[stored.FORMS_PROBED]


def test_an_unchanged_page_only_passport_costs_one_request_on_a_re_harvest(page_only_site, source, run_harvest):
    run_harvest(source)
    page_only_site.hits.clear()

    results, _ = run_harvest(source)

    assert results[GUID]["report_status"] == "not modified"
    assert _passport_requests(page_only_site) == [FOLDER]


def test_a_meta_json_added_beside_the_page_is_found_once_the_probe_is_due(page_only_site, source, run_harvest):
    run_harvest(source)
    (page_only_site.root / "opendata" / GUID / "meta.json").write_text(json.dumps(META_JSON, ensure_ascii=False),
                                                                        "utf-8")
    within_a_day, _ = run_harvest(source)
    _probed_days_ago(2)
    page_only_site.hits.clear()

    results, _ = run_harvest(source)

    assert within_a_day[GUID]["report_status"] == "not modified"
    assert results[GUID]["report_status"] == "updated", results[GUID]["errors"]
    assert _passport_requests(page_only_site)[0] == f"{FOLDER}meta.json"
    assert results[GUID]["dataset"]["title"] == META_JSON["title"]
    assert _current_extras()[stored.PASSPORT_URL].endswith(f"{FOLDER}meta.json")


def test_a_due_probe_that_finds_nothing_new_is_remembered_on_the_current_object(page_only_site, source, run_harvest):
    run_harvest(source)
    _probed_days_ago(2)
    stale = _current_extras()[stored.FORMS_PROBED]
    page_only_site.hits.clear()

    probing, _ = run_harvest(source)
    probed = _passport_requests(page_only_site)
    page_only_site.hits.clear()
    run_harvest(source)

    assert probing[GUID]["report_status"] == "not modified"
    assert probed == [f"{FOLDER}meta.json", f"{FOLDER}meta.xml", f"{FOLDER}meta.csv", FOLDER]
    assert _current_extras()[stored.FORMS_PROBED] > stale
    assert _passport_requests(page_only_site) == [FOLDER]


def test_a_remembered_place_that_is_gone_falls_back_to_every_form(page_only_site, source, run_harvest):
    run_harvest(source)
    folder = page_only_site.root / "opendata" / GUID
    (folder / "meta.json").write_text(json.dumps(META_JSON, ensure_ascii=False), "utf-8")
    (folder / "index.html").unlink()
    page_only_site.hits.clear()

    results, _ = run_harvest(source)

    assert results[GUID]["report_status"] == "updated", results[GUID]["errors"]
    assert _passport_requests(page_only_site) == [FOLDER, f"{FOLDER}meta.json"]


@pytest.mark.ckan_config("ckanext.passport.harvest_form_probe_hours", "0")
def test_with_no_probe_interval_every_harvest_tries_every_form(page_only_site, source, run_harvest):
    run_harvest(source)
    page_only_site.hits.clear()

    results, _ = run_harvest(source)

    assert results[GUID]["report_status"] == "not modified"
    assert _passport_requests(page_only_site) == [f"{FOLDER}meta.json", f"{FOLDER}meta.xml", f"{FOLDER}meta.csv",
                                                  FOLDER]
