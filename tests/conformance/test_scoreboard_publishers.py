"""Who a publisher is on the scoreboard: an organization, the one a sysadmin says holds the INN when the source
speaks for it, else the source's own; named by the organization's title. An INN or a creator read from a registry
never makes or names one, since anyone may list identifiers under a ministry's INN on their own site.

A district holds the INN its site's identifiers start with most; an outsider's public source lists identifiers under
that INN (one readable passport, the others unreadable) and is harvested after the district's.
"""
from __future__ import annotations

import importlib
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from ckan import model
from ckan.plugins import toolkit
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestSource
from tests.support.demo_site import DEMO_SITE
from tests.support.scoreboard_rows import add_source, add_summary
from sqlalchemy import text

from ckanext.passport.conformance.harvest.report import Counted
from ckanext.passport.conformance.scoreboard import summary
from ckanext.passport.conformance.scoreboard.model import JobSummary

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once", "shared_plugins")]

ALLOW = {"allow_private_addresses": True}
ATOM = "{http://www.w3.org/2005/Atom}"
# The demo site's identifiers name six INNs once each: the most frequent is the smallest.
DISTRICT_INN = "2618017120"
CREATOR = "Администрация Предгорного муниципального района Ставропольского края"
MIGRATION = importlib.import_module(
    "ckanext.passport.migration.passport.versions.6f1b3d5a7c9e_job_summary_keyed_by_organization")


def _squatters_site(root: Path) -> None:
    """A registry listing only identifiers under the district's INN: its readable passport, copied, and three
    that are not there."""
    shutil.copytree(DEMO_SITE / "opendata" / f"{DISTRICT_INN}-politicaldivisions",
                    root / "opendata" / f"{DISTRICT_INN}-politicaldivisions")
    rows = [f"{DISTRICT_INN}-politicaldivisions,Деление,/opendata/{DISTRICT_INN}-politicaldivisions/meta.json,json"]
    rows += [f"{DISTRICT_INN}-{name},{name},/opendata/{DISTRICT_INN}-{name}/meta.csv,csv"
             for name in ("roads", "parks", "budget")]
    (root / "opendata" / "list.csv").write_text(
        "property,title,value,format\n"
        "standardversion,Версия методических рекомендаций,http://opendata.gosmonitor.ru/standard/3.0,\n"
        + "\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def harvested(stack_once, tmp_path_factory, serve_site, harvest_source, run_harvest) -> dict[str, Any]:
    district = factories.Organization(title="Predgorny district", inns=DISTRICT_INN)
    outsider = factories.Organization(title="Outsider")
    own_root = tmp_path_factory.mktemp("district") / "site"
    shutil.copytree(DEMO_SITE, own_root)
    squat_root = tmp_path_factory.mktemp("squatter") / "site"
    _squatters_site(squat_root)
    own = harvest_source(f"{serve_site(own_root).url}/opendata/list.csv", ALLOW, name="district-registry",
                         title="District registry", owner_org=district["id"])
    squatter = harvest_source(f"{serve_site(squat_root).url}/opendata/list.csv", ALLOW, name="squatter-registry",
                              title="Squatter registry", owner_org=outsider["id"])
    own_job = run_harvest(own)[1]
    squat_job = run_harvest(squatter)[1]
    return {"district": district, "outsider": outsider, "own": own, "squatter": squatter,
            "own_job": own_job["id"], "squat_job": squat_job["id"]}


def _row(key: str) -> dict[str, Any]:
    rows = toolkit.get_action("passport_scoreboard")({"user": "", "ignore_auth": False}, {"publisher": key})["rows"]
    assert len(rows) == 1, rows
    return rows[0]


def _key(organization: dict[str, Any]) -> str:
    return f"org:{organization['id']}"


def test_a_source_of_the_organization_holding_its_inn_keys_to_it_by_its_title(harvested):
    kept = JobSummary.get(harvested["own_job"])
    assert (kept.publisher_key, kept.publisher_name) == (_key(harvested["district"]), "Predgorny district")


def test_an_outsiders_source_listing_identifiers_under_a_held_inn_is_keyed_by_its_own_organization(harvested):
    kept = JobSummary.get(harvested["squat_job"])
    assert kept.listed == 4
    assert (kept.publisher_key, kept.publisher_name) == (_key(harvested["outsider"]), "Outsider")


def test_the_outsiders_source_neither_joins_nor_renames_the_holders_row(harvested):
    district = _row(_key(harvested["district"]))
    assert [source["name"] for source in district["sources"]] == ["district-registry"]
    assert district["name"] == "Predgorny district"
    outsider = _row(_key(harvested["outsider"]))
    assert [source["name"] for source in outsider["sources"]] == ["squatter-registry"]
    assert outsider["name"] == "Outsider"


def test_the_holders_feed_and_page_show_only_its_own_sources(web, harvested):
    key = _key(harvested["district"])
    feed = ET.fromstring(web.get(f"/passport/scoreboard/publisher/{key}/feed.atom").body.encode("utf-8"))
    assert feed.find(ATOM + "title").text.startswith("Predgorny district")
    links = [entry.find(ATOM + "link").get("href") for entry in feed.findall(ATOM + "entry")]
    assert links and all("/harvest/district-registry/" in link for link in links)
    page = web.get(f"/passport/scoreboard/publisher/{key}").body
    assert "district-registry" in page and "squatter-registry" not in page and CREATOR not in page


def test_a_source_speaks_for_the_holder_its_config_sends_its_records_to_or_a_sysadmin_lists(
        harvested, harvest_source):
    region = factories.Organization(title="Region")
    district = harvested["district"]["name"]
    # Saved by a sysadmin (the fixture's user): the options that reach past the source's own organization.
    sending = harvest_source("http://sending.example/opendata/list.csv", {"organization": district},
                             name="region-sending", owner_org=region["id"])
    listing = harvest_source("http://listing.example/opendata/list.csv", {"publisher_organizations": [district]},
                             name="region-listing", owner_org=region["id"])
    plain = harvest_source("http://region.example/opendata/list.csv", name="region-own", owner_org=region["id"])
    entries = [Counted(object_id="o", identifier=f"{DISTRICT_INN}-{n}", score=None, refused=False, findings=())
               for n in range(3)]

    def keyed(source: dict[str, Any]) -> tuple[str, str]:
        return summary.publisher(entries, HarvestSource.get(source["id"]), source["owner_org"])

    assert keyed(sending) == keyed(listing) == (_key(harvested["district"]), "Predgorny district")
    assert keyed(plain) == (_key(region), "Region")


def test_a_row_is_named_by_its_organizations_title_now_not_the_name_its_summaries_kept(harvested):
    town = factories.Organization(title="Town hall")
    source = add_source("town-registry", owner_org=town["id"])
    add_summary(source, _key(town), 1, 50.0, name=CREATOR, organization_id=town["id"])
    assert _row(_key(town))["name"] == "Town hall"
    call_action("organization_patch", context={"user": factories.Sysadmin()["name"]}, id=town["id"],
                title="Town council")
    assert _row(_key(town))["name"] == "Town council"


def test_the_migration_keys_summaries_made_by_inn_by_their_sources_organization(harvested):
    town = factories.Organization(title="Old town")
    source = add_source("old-town-registry", owner_org=town["id"])
    legacy = add_summary(source, DISTRICT_INN, 5, 40.0, name=CREATOR, organization_id=town["id"]).job_id
    orphan = add_summary(add_source("orphan-registry"), "7708234640", 5, 40.0, name="Rosstat").job_id
    current = harvested["own_job"]
    before = JobSummary.get(current).publisher_key

    model.Session.execute(text(MIGRATION.REKEY))
    model.Session.commit()
    model.Session.expire_all()

    assert (JobSummary.get(legacy).publisher_key, JobSummary.get(legacy).publisher_name) == (_key(town), "Old town")
    assert (JobSummary.get(orphan).publisher_key, JobSummary.get(orphan).publisher_name) == ("org:", "")
    assert JobSummary.get(current).publisher_key == before
    assert [source["name"] for source in _row(_key(town))["sources"]] == ["old-town-registry"]


def test_an_address_keyed_by_a_held_inn_moves_to_its_holders(web, harvested):
    key = _key(harvested["district"])
    for suffix in ("", "/feed.atom", "/feed.xml"):
        moved = web.get(f"/cs/passport/scoreboard/publisher/{DISTRICT_INN}{suffix}", follow_redirects=False)
        assert moved.status_code == 301
        assert moved.headers["Location"].endswith(f"/cs/passport/scoreboard/publisher/{key}{suffix}")
    web.get("/passport/scoreboard/publisher/7708234640", status=404)
