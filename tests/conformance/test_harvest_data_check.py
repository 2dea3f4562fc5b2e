"""A passport source with ``check_data`` compares each passport's newest data file with its structure, as the site
check does; the findings join the source's conformance report and the record's score."""
from __future__ import annotations

import pytest
from ckan.tests.helpers import call_action
from tests.support.local_demo_site import local_demo_site

pytestmark = [pytest.mark.stack]

ALLOW = {"allow_private_addresses": True}
TERORG = "7703092752-terorg"  # Roshydromet's data file heads its columns otherwise than its structure names them
SCHOOLS = "7701234560-schools"  # written for the demo: data and structure agree


@pytest.fixture(scope="module")
def home_site(stack_once, tmp_path_factory, serve_site):
    return local_demo_site(tmp_path_factory.mktemp("data-check") / "site", serve_site)


def _codes(source: dict) -> dict[str, set[str]]:
    report = call_action("passport_conformance_report", id=source["name"])
    return {entry["identifier"]: {f["code"] for f in entry["findings"]} for entry in report["passports"]}


@pytest.fixture(scope="module")
def checked(home_site, harvest_source, run_harvest):
    source = harvest_source(f"{home_site.url}/opendata/list.csv", ALLOW | {"check_data": True}, name="data-checked")
    results, _ = run_harvest(source)
    return source, results


def test_data_findings_join_the_report_of_a_source_that_asks_for_them(checked):
    source, _ = checked
    codes = _codes(source)
    assert "data.field_renamed" in codes[TERORG]
    assert not {code for code in codes[SCHOOLS] if code.startswith("data.")}


def test_a_data_finding_costs_the_record_its_score_but_never_its_import(checked):
    source, results = checked
    report = {e["identifier"]: e for e in call_action("passport_conformance_report", id=source["name"])["passports"]}
    record = call_action("package_show", id=report[TERORG]["dataset_id"])
    assert str(record["mr_conformance"]) == str(report[TERORG]["score"])
    assert report[TERORG]["score"] < 100


def test_a_source_without_the_option_reads_no_data_file(checked, home_site, harvest_source, run_harvest):
    # After the module's source harvested the site, whatever the order the tests run in: the first source to harvest
    # it holds its identifiers (this one's entries are refused at import, after the fetch that would read data).
    source = harvest_source(f"{home_site.url}/opendata/list.csv", ALLOW, name="data-unchecked")
    run_harvest(source)
    assert not {code for found in _codes(source).values() for code in found if code.startswith("data.")}
