"""The report of a site with faults: unreadable passports stay in it (score None, findings from their errors),
a registry that cannot be read is a finding about the site, and whatever the site publishes is shown escaped."""
from __future__ import annotations

import json

import pytest
from ckan.tests.helpers import call_action
from tests.support.fault_passports import valid_passport
from tests.support.http_site import Fault

pytestmark = [pytest.mark.stack]

INN = "7701234560"
GOOD = 4
HOSTILE_TITLE = '<script>alert("title")</script>'
# kind → (what the passport's path answers, the code its report entry carries)
UNREADABLE = {
    "missing": (Fault(status=404), "fetch.not_found"),
    "broken": (Fault(status=500), "fetch.server_error"),
    "html": (Fault(body=b"<!DOCTYPE html><html><body>Access denied</body></html>", content_type="text/html"), None),
}


@pytest.fixture(scope="module")
def fault_site(stack_once, tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("faults")
    (root / "opendata").mkdir()
    entries, faults = [], {}
    for n in range(GOOD):
        identifier = f"{INN}-good{n}"
        title = HOSTILE_TITLE if n == 0 else f"Набор {n}"
        (root / "opendata" / identifier).mkdir()
        (root / "opendata" / identifier / "meta.json").write_text(
            json.dumps(valid_passport(identifier, title), ensure_ascii=False), "utf-8")
        entries.append(f'{identifier},"{title.replace(chr(34), chr(34) * 2)}",/opendata/{identifier}/meta.json,json')
    for kind, (fault, _) in UNREADABLE.items():
        identifier = f"{INN}-{kind}"
        name = "meta.csv" if kind == "html" else "meta.json"
        entries.append(f"{identifier},Плохой {kind},/opendata/{identifier}/{name},{name.split('.')[1]}")
        faults[f"/opendata/{identifier}/{name}"] = fault
    # A registry entry whose link is a script: never followed, never made a link.
    entries.append(f"{INN}-script,Скрипт,javascript:alert(1),json")
    body = "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
    (root / "opendata" / "list.csv").write_text(body + "\n".join(entries) + "\n", "utf-8")
    faults["/gone/list.csv"] = Fault(status=404)
    return serve_site(root, faults)


@pytest.fixture(scope="module")
def report(fault_site, harvest_source, run_harvest):
    config = {"allow_private_addresses": True, "timeout": 1}
    source = harvest_source(f"{fault_site.url}/opendata/list.csv", config, name="faults-conformance")
    run_harvest(source)
    return source, call_action("passport_conformance_report", id=source["id"])


def _entries(report):
    return {entry["identifier"]: entry for entry in report["passports"]}


def test_every_registry_entry_is_in_the_report_readable_or_not(report):
    _, body = report
    assert len(body["passports"]) == GOOD + len(UNREADABLE) + 1
    assert body["summary"]["passports"] == GOOD + len(UNREADABLE) + 1
    assert body["summary"]["read"] == GOOD


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_an_unreadable_passport_has_no_score_and_says_why(report, kind):
    _, body = report
    entry = _entries(body)[f"{INN}-{kind}"]
    assert entry["score"] is None and entry["form"] == "" and entry["fixed"] == {}
    assert entry["findings"], "an unreadable passport's findings are its errors"
    assert all(f["severity"] == "error" for f in entry["findings"] if f["code"].startswith("fetch."))
    expected = UNREADABLE[kind][1]
    if expected:
        assert expected in {f["code"] for f in entry["findings"]}
    assert entry["dataset_id"] is None


def test_unreadable_passports_are_not_conformant_and_do_not_count_in_the_mean(report):
    _, body = report
    read = [e["score"] for e in body["passports"] if e["score"] is not None]
    assert body["summary"]["mean_score"] == round(sum(read) / len(read), 1)
    assert body["summary"]["conformant"] <= GOOD


def test_a_registry_that_cannot_be_read_is_a_finding_about_the_site(fault_site, harvest_source, run_harvest):
    source = harvest_source(f"{fault_site.url}/gone/list.csv",
                            {"allow_private_addresses": True, "registry_url": f"{fault_site.url}/gone/list.csv"},
                            name="gone-conformance")
    _, job = run_harvest(source)
    body = call_action("passport_conformance_report", id=source["name"])
    assert body["job_id"] == job["id"] and body["passports"] == []
    assert "fetch.not_found" in {found["code"] for found in body["problems"]}
    assert body["summary"]["passports"] == 0 and body["summary"]["mean_score"] is None


def test_a_source_never_harvested_has_an_empty_report(fault_site, harvest_source, web):
    source = harvest_source(f"{fault_site.url}/opendata/list.csv", {"allow_private_addresses": True},
                            name="never-conformance")
    body = call_action("passport_conformance_report", id=source["name"])
    assert body["job_id"] is None and body["passports"] == []
    assert "passport-conformance-empty" in web.get(f"/harvest/{source['name']}/conformance").body


def test_what_the_site_publishes_is_escaped_on_the_tab(report, web):
    source, body = report
    assert _entries(body)[f"{INN}-good0"]["title"] == HOSTILE_TITLE
    page = web.get(f"/harvest/{source['name']}/conformance").body
    assert HOSTILE_TITLE not in page and "&lt;script&gt;alert(" in page
    assert 'href="javascript:' not in page.lower()
    assert f'data-identifier="{INN}-script"' in page
