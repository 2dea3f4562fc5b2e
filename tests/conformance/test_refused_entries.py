"""A registry entry the harvest read but refused to import (its identifier held by another source's record) is
reported as not imported: no score, out of the mean score, and the summary's figures are of one set of passports.

The demo site is harvested by a first source; a second site lists one of its identifiers beside one of its own.
"""
from __future__ import annotations

import json
import shutil
from statistics import mean

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action

from tests.support.catalog_records import owned_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

ALLOW = {"allow_private_addresses": True}
TAKEN = "7709876545-pharmacies"
NIGHT = "7709876545-nightpharmacies"
HOLDER_TITLE = "Pharmacies of the city"


@pytest.fixture
def second_site(demo_site, tmp_path, serve_site):
    """A site listing the demo site's TAKEN identifier and one of its own (NIGHT)."""
    other = tmp_path / "other"
    shutil.copytree(demo_site.root, other)
    (other / "opendata" / NIGHT).mkdir()
    passport = (other / "opendata" / TAKEN / "meta.csv").read_bytes().replace(TAKEN.encode(), NIGHT.encode())
    (other / "opendata" / NIGHT / "meta.csv").write_bytes(passport)
    # The entry refused is scored lower than NIGHT, so a mean that counted it would show.
    taken_passport = other / "opendata" / TAKEN / "meta.csv"
    lines = taken_passport.read_bytes().split(b"\n")
    taken_passport.write_bytes(b"\n".join(line for line in lines if not line.startswith(b"publishermbox,")))
    registry = other / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    taken = next(e for e in data["meta"] if e["identifier"] == TAKEN)
    data["meta"] = [taken, {**taken, "identifier": NIGHT, "link": f"/opendata/{NIGHT}/meta.csv"}]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return serve_site(other)


@pytest.fixture
def refused(demo_site, second_site, harvest_source, run_harvest):
    """The second source's job, after the first source took TAKEN: (source, job, report)."""
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW, name="first", title=HOLDER_TITLE))
    source = harvest_source(f"{second_site.url}/opendata/list.json", ALLOW, name="second")
    _, job = run_harvest(source)
    return source, job, call_action("passport_conformance_report", id=source["name"], job_id=job["id"])


def _entry(report, identifier):
    return next(e for e in report["passports"] if e["identifier"] == identifier)


def test_a_refused_entry_has_no_score_and_says_it_was_not_imported(refused):
    _, _, report = refused
    entry = _entry(report, TAKEN)
    assert entry["score"] is None and entry["refused"] is True
    assert "harvest.identifier_taken" in {f["code"] for f in entry["findings"]}
    assert _entry(report, NIGHT)["refused"] is False and _entry(report, NIGHT)["score"] is not None


def test_the_summary_counts_and_mean_are_over_the_passports_imported(refused):
    _, _, report = refused
    summary = report["summary"]
    scored = [e for e in report["passports"] if e["score"] is not None]
    assert summary["passports"] == 2 and summary["refused"] == 1 and summary["read"] == len(scored) == 1
    assert summary["mean_score"] == round(mean(e["score"] for e in scored), 1)
    errorless = [e for e in scored if not any(f["severity"] == "error" for f in e["findings"])]
    assert summary["conformant"] == len(errorless)


def test_the_score_history_leaves_the_refused_entry_out_of_the_mean(refused):
    source, job, report = refused
    history = call_action("passport_conformance_history", id=source["name"])
    imported = _entry(report, NIGHT)["score"]
    assert [point["mean_score"] for point in history if point["job_id"] == job["id"]] == [imported]
    assert report["summary"]["mean_score"] == imported


def test_the_refusal_names_the_source_that_holds_the_identifier(refused):
    _, _, report = refused
    taken = next(f for f in _entry(report, TAKEN)["findings"] if f["code"] == "harvest.identifier_taken")
    assert f"the harvest source {HOLDER_TITLE}" in taken["message"]


def test_the_refusal_names_the_portal_when_a_portal_record_holds_the_identifier(demo_site, harvest_source,
                                                                              run_harvest):
    factories.Dataset(**owned_record(name="lekarny", mr_identifier=TAKEN))
    results, _ = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW))
    message = results[TAKEN]["errors"][0].message
    assert "lekarny" in message and "the portal (a record not harvested)" in message


def test_the_tab_shows_the_refused_entry_as_not_imported(refused, web):
    source, job, _ = refused
    page = web.get(f"/harvest/{source['name']}/conformance?job_id={job['id']}").body
    row = page.split(f'data-identifier="{TAKEN}"', 1)[1].split("</tr>", 1)[0]
    assert 'data-score=""' in row and "not imported" in row
    assert 'data-summary="refused">1<' in page
