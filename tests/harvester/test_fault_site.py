"""A site where one passport in ten is bad: every good one lands, every bad one has an error with its code."""
from __future__ import annotations

import json

import pytest
from ckanext.harvest.model import HarvestObject
from tests.support.fault_passports import valid_passport
from tests.support.http_site import Fault

pytestmark = [pytest.mark.stack]

GOOD = 72
# path suffix → (fault or file body, expected problem code)
BAD = {
    "missing": (Fault(status=404), "fetch.not_found"),
    "broken": (Fault(status=500), "fetch.server_error"),
    "slow": (Fault(delay=3, body=b"{}", content_type="application/json"), "fetch.timeout"),
    "loop": (None, "fetch.redirect_loop"),
    "html": (Fault(body=b"<!DOCTYPE html><html><body>Access denied</body></html>", content_type="text/html"), None),
    "huge": (Fault(body=b"x" * 200_000, content_type="text/csv"), "fetch.too_large"),
    "xxe": (None, "xml.entity_declared"),
    "cp1251": (None, "decode.windows_1251"),
}
INN = "7701234560"


@pytest.fixture(scope="module")
def fault_site(tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("fault")
    (root / "opendata").mkdir(parents=True)
    entries = []
    for n in range(GOOD):
        identifier = f"{INN}-good{n}"
        folder = root / "opendata" / identifier
        folder.mkdir()
        (folder / "meta.json").write_text(json.dumps(valid_passport(identifier, f"Набор {n}"), ensure_ascii=False), "utf-8")
        entries.append(f"{identifier},Набор {n},/opendata/{identifier}/meta.json,json")
    faults = {}
    for kind, (fault, _) in BAD.items():
        identifier = f"{INN}-{kind}"
        name = "meta.csv" if kind in ("html", "huge", "cp1251") else "meta.xml" if kind == "xxe" else "meta.json"
        path = f"/opendata/{identifier}/{name}"
        entries.append(f"{identifier},Плохой {kind},{path},{name.split('.')[1]}")
        if fault is not None:
            faults[path] = fault
    faults[f"/opendata/{INN}-loop/meta.json"] = Fault(status=302, location=f"/opendata/{INN}-loop/meta.json")
    xxe = root / "opendata" / f"{INN}-xxe"
    xxe.mkdir()
    (xxe / "meta.xml").write_bytes(
        b'<?xml version="1.0"?><!DOCTYPE meta [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><meta>'
        b"<standardversion>http://opendata.gosmonitor.ru/standard/3.0</standardversion>"
        b"<identifier>" + f"{INN}-xxe".encode() + b"</identifier><title>&xxe;</title></meta>"
    )
    cp = root / "opendata" / f"{INN}-cp1251"
    cp.mkdir()
    rows = ["property,value", "standardversion,http://opendata.gosmonitor.ru/standard/3.0",
            f"identifier,{INN}-cp1251", "title,Набор в кодировке Windows-1251", "creator,Тестовое ведомство",
            "created,20240101", "modified,20240201", "format,csv", "subject,кодировка"]
    (cp / "meta.csv").write_bytes("\n".join(rows).encode("cp1251"))
    body = "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
    (root / "opendata" / "list.csv").write_text(body + "\n".join(entries) + "\n", "utf-8")
    return serve_site(root, faults)


@pytest.fixture(scope="module")
def harvested(stack_once, fault_site, harvest_source, run_harvest):
    config = {"allow_private_addresses": True, "timeout": 1, "max_file_size": 100_000}
    return run_harvest(harvest_source(f"{fault_site.url}/opendata/list.csv", config))


def _codes(result, with_findings: bool = False) -> set[str]:
    lines = [e.message for e in result["errors"]]
    if with_findings:
        extras = {e.key: e.value for e in HarvestObject.get(result["obj_id"]).extras}
        lines += json.loads(extras.get("findings", "[]"))
    return {line.split("]", 1)[0].lstrip("[") for line in lines}


def test_every_good_passport_lands_with_its_values(harvested):
    results, _ = harvested
    for n in range(GOOD):
        result = results[f"{INN.lower()}-good{n}"]
        assert result["report_status"] == "added"
        assert result["dataset"]["title"] == f"Набор {n}"
    one = results[f"{INN}-good7"]["dataset"]
    assert one["notes"] == "Описание набора Набор 7"
    assert sorted(t["name"] for t in one["tags"]) == ["набор", "тест"]


@pytest.mark.parametrize("kind", [k for k, (_, code) in BAD.items() if code and k not in ("xxe", "cp1251")])
def test_each_unreadable_passport_is_errored_with_its_code(harvested, kind):
    results, _ = harvested
    result = results[f"{INN}-{kind}"]
    assert result["report_status"] == "errored"
    assert BAD[kind][1] in _codes(result)


def test_html_page_served_as_csv_is_errored_not_imported(harvested):
    results, _ = harvested
    result = results[f"{INN}-html"]
    assert result["report_status"] == "errored"
    assert _codes(result) & {"csv.html_instead_of_csv", "passport.csv_not_a_passport", "rdfa.not_found"}


def test_external_entity_is_reported_and_never_expanded(harvested):
    results, _ = harvested
    result = results[f"{INN}-xxe"]
    assert "xml.entity_declared" in _codes(result)
    dataset = result.get("dataset") or {}
    assert "root:" not in json.dumps(dataset)


def test_windows_1251_passport_lands_readable_with_a_warning(harvested):
    results, _ = harvested
    result = results[f"{INN}-cp1251"]
    assert result["report_status"] == "added"
    assert result["dataset"]["title"] == "Набор в кодировке Windows-1251"
    assert "decode.windows_1251" in _codes(result, with_findings=True)
    assert "decode.windows_1251" not in _codes(result)


def test_the_job_finishes_with_a_report(harvested):
    _, job = harvested
    assert job["status"] == "Finished"
    assert job["stats"]["added"] == GOOD + 2
    # Errored counts objects with errors: the six unreadable ones and the imported XXE passport.
    assert job["stats"]["errored"] == len(BAD) - 1
