"""A harvest source's conformance report, built from real harvests of real MR publications.

The demo site (dev/demo-site) serves the real passports of Rosstat, Roshydromet and the Predgorny district beside
three written for the demo; the Predgorny district's own registry (fixtures/real/predgor) is served as published.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
from typing import Iterator

import pytest
import sqlalchemy as sa
from bs4 import BeautifulSoup
from ckan import model
from ckan.lib.redis import connect_to_redis
from ckan.tests.helpers import call_action
from tests.support.demo_site import DEMO_SITE, IDENTIFIERS

from ckanext.passport.conformance.shape import CSV_COLUMNS
from ckanext.passport.mr.check import SEVERITY_COST, check_passport
from ckanext.passport.mr.corrections import FIXED_FILES
from ckanext.passport.mr.passport import parse_passport
from ckanext.passport.mr.problems import catalogue
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack]

ALLOW = {"allow_private_addresses": True}
OKVED = "7708234640-okvedva"
TERORG = "7703092752-terorg"
PREDGOR_HOST = "http://opendata.predgor-ray.ru"
COST = {severity.value: cost for severity, cost in SEVERITY_COST.items()}


@pytest.fixture(scope="module")
def site(stack_once, tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("demo") / "site"
    shutil.copytree(DEMO_SITE, root)
    return serve_site(root)


@pytest.fixture(scope="module")
def harvested(site, harvest_source, run_harvest):
    """The demo site harvested twice: the second job finds every passport unchanged."""
    source = harvest_source(f"{site.url}/opendata/list.csv", ALLOW, name="demo-conformance")
    first_results, first = run_harvest(source)
    second_results, second = run_harvest(source)
    return source, (first_results, first), (second_results, second)


def _report(source, **params):
    return call_action("passport_conformance_report", id=source["name"], **params)


def _by_identifier(report):
    return {entry["identifier"]: entry for entry in report["passports"]}


def test_the_report_has_one_passport_per_registry_entry_with_its_dataset(harvested):
    source, (results, first), _ = harvested
    report = _report(source, job_id=first["id"])
    assert report["source_id"] == source["id"] and report["job_id"] == first["id"]
    entries = _by_identifier(report)
    assert set(entries) == IDENTIFIERS
    for identifier, entry in entries.items():
        dataset = results[identifier]["dataset"]
        assert entry["dataset_id"] == dataset["id"]
        assert entry["score"] == int(dataset["mr_conformance"])
        assert entry["url"].startswith("http://127.0.0.1:")
    assert report["summary"]["passports"] == report["summary"]["read"] == len(IDENTIFIERS)
    assert report["problems"] == []


def test_the_score_counts_what_reading_found_as_the_site_check_does(harvested, site):
    """Rosstat's real meta.csv: its findings are what reading it and checking it found, and they make its score."""
    source, (_, first), _ = harvested
    url = f"{site.url}/opendata/{OKVED}/meta.csv"
    read = parse_passport((site.root / "opendata" / OKVED / "meta.csv").read_bytes(), url)
    checked = check_passport(read.value, None, url, read.form)
    entries = _by_identifier(_report(source, job_id=first["id"]))
    okved = entries[OKVED]
    assert {p.code for p in read.problems + checked.problems} <= {f["code"] for f in okved["findings"]}
    assert okved["form"] == "meta.csv"
    for entry in entries.values():
        assert entry["score"] == explained_score(entry["findings"]), entry["identifier"]


def explained_score(findings) -> int:
    """The score the findings make: each code once, at its worst severity (mr.check.score)."""
    worst: dict[str, int] = {}
    for found in findings:
        worst[found["code"]] = max(worst.get(found["code"], 0), COST[found["severity"]])
    return max(0, 100 - sum(worst.values()))


def test_each_finding_says_what_where_and_in_which_file(harvested, site):
    source, (_, first), _ = harvested
    terorg = _by_identifier(_report(source, job_id=first["id"]))[TERORG]
    assert terorg["form"] == "mr23.csv" and terorg["findings"]
    for found in terorg["findings"]:
        kind = catalogue()[found["code"]]
        assert found["severity"] == kind.severity.value
        assert found["message"] and "{" not in found["message"]
        if found["url"]:
            assert found["url"].startswith(site.url) and found["url"] in found["where"]


def test_an_unchanged_reharvest_still_reports_every_passport(harvested):
    source, (_, first), (second_results, second) = harvested
    assert {r["report_status"] for r in second_results.values()} == {"not modified"}
    before, after = _report(source, job_id=first["id"]), _report(source)
    assert after["job_id"] == second["id"]  # the default: the last finished job
    assert after["passports"] == before["passports"]
    assert after["summary"] == before["summary"]


def test_every_passport_read_has_its_fixed_files_and_corrections(harvested, web):
    source, _, _ = harvested
    entry = _by_identifier(_report(source))[TERORG]
    assert set(entry["fixed"]) == set(FIXED_FILES)
    assert entry["corrections"] and all(c["code"].startswith("fix.") for c in entry["corrections"])
    # The links name the object that read the passport, so they hold after the unchanged re-harvest.
    path = entry["fixed"]["meta.json"].split("://", 1)[1].split("/", 1)[1]
    fixed = json.loads(web.get("/" + path).body)
    assert fixed["identifier"] == TERORG
    assert fixed["standardversion"] == "http://opendata.gosmonitor.ru/standard/3.0"


def test_the_history_has_the_mean_score_of_each_finished_job(harvested):
    source, (_, first), (_, second) = harvested
    history = call_action("passport_conformance_history", id=source["id"])
    assert [job["job_id"] for job in history] == [first["id"], second["id"]]
    mean = _report(source)["summary"]["mean_score"]
    assert [job["mean_score"] for job in history] == [mean, mean]
    assert [job["passports"] for job in history] == [len(IDENTIFIERS)] * 2


def test_the_report_speaks_czech_under_cs(harvested, web):
    source, _, _ = harvested
    czech = translator("cs")
    body = web.get(f"/cs/api/3/action/passport_conformance_report?id={source['name']}").json["result"]
    english = _report(source)
    for cs_entry, en_entry in zip(body["passports"], english["passports"]):
        for cs_found, en_found in zip(cs_entry["findings"], en_entry["findings"]):
            template = catalogue()[cs_found["code"]].message
            assert czech.template(template) != translator(None).template(template), cs_found["code"]
            assert cs_found["message"] != en_found["message"]
    assert any(found["message"] for entry in body["passports"] for found in entry["findings"])


def test_the_csv_has_a_row_per_finding_in_the_readers_language(harvested, web):
    source, _, _ = harvested
    response = web.get(f"/harvest/{source['name']}/conformance.csv")
    assert response.headers["Content-Type"].startswith("text/csv")
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.body.lstrip("\ufeff"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    report = _report(source)
    assert len(rows) == sum(max(1, len(e["findings"])) for e in report["passports"])
    assert {row["identifier"] for row in rows} == IDENTIFIERS
    okved = [row for row in rows if row["identifier"] == OKVED]
    assert {row["score"] for row in okved} == {str(_by_identifier(report)[OKVED]["score"])}
    czech = list(csv.DictReader(io.StringIO(web.get(f"/cs/harvest/{source['name']}/conformance.csv").body.lstrip("\ufeff"))))
    assert [r["code"] for r in czech] == [r["code"] for r in rows]
    assert [r["message"] for r in czech] != [r["message"] for r in rows]


@contextlib.contextmanager
def _harvest_object_reads() -> Iterator[list[str]]:
    """The SQL statements that read harvest objects (their content, extras or errors) while the block runs."""
    statements: list[str] = []

    def seen(connection, cursor, statement, *args) -> None:
        if "harvest_object" in statement:
            statements.append(statement)

    sa.event.listen(model.meta.engine, "before_cursor_execute", seen)
    try:
        yield statements
    finally:
        sa.event.remove(model.meta.engine, "before_cursor_execute", seen)


def test_a_finished_jobs_download_is_kept_per_job_filter_and_language(harvested, web):
    """A large source's whole report cost seconds of CPU per anonymous download (issue 37): the same download of a
    finished job again reads no harvest object; another job, filter or language is its own download."""
    source, (_, first), (_, second) = harvested
    url = f"/harvest/{source['name']}/conformance.json?sort=identifier&job_id={first['id']}"
    with _harvest_object_reads() as built:
        once = web.get(url).body
    with _harvest_object_reads() as again:
        assert web.get(url).body == once
    assert built and again == []
    assert connect_to_redis().keys(f"*:passport:report_download:{first['id']}:*")
    with _harvest_object_reads() as other_job:
        later = json.loads(web.get(url.replace(first["id"], second["id"])).body)
    assert other_job and later["job_id"] == second["id"] != json.loads(once)["job_id"]
    with _harvest_object_reads() as other_filter:
        narrowed = json.loads(web.get(url + "&severity=error").body)
    assert other_filter and narrowed["filters"]["severity"] == "error"
    with _harvest_object_reads() as other_language:
        czech = web.get("/cs" + url).body
    assert other_language and czech != once and json.loads(czech)["job_id"] == first["id"]


def test_filters_narrow_the_passports_and_their_findings(harvested, web):
    source, _, _ = harvested
    report = _report(source)
    code = next(iter(report["summary"]["by_code"]))
    narrowed = json.loads(web.get(f"/harvest/{source['name']}/conformance.json?code={code}").body)
    assert len(narrowed["passports"]) == report["summary"]["by_code"][code]
    assert {f["code"] for e in narrowed["passports"] for f in e["findings"]} == {code}
    warnings = json.loads(web.get(f"/harvest/{source['name']}/conformance.json?severity=warning").body)
    assert {f["severity"] for e in warnings["passports"] for f in e["findings"]} == {"warning"}
    best = json.loads(web.get(f"/harvest/{source['name']}/conformance.json?sort=-score").body)["passports"]
    assert [e["score"] for e in best] == sorted((e["score"] for e in best), reverse=True)
    worst = json.loads(web.get(f"/harvest/{source['name']}/conformance.json").body)["passports"]
    assert [e["score"] for e in worst] == sorted(e["score"] for e in worst)
    rows = list(csv.DictReader(io.StringIO(
        web.get(f"/harvest/{source['name']}/conformance.csv?code={code}").body.lstrip("\ufeff"))))
    assert {row["code"] for row in rows} == {code}


def test_the_tab_shows_the_charts_the_codes_and_the_table(harvested, web):
    source, _, _ = harvested
    page = web.get(f"/harvest/{source['name']}/conformance").body
    assert page.count("<svg") >= 2 and 'class="passport-chart-bar"' in page and "passport-chart-point" in page
    assert page.count('class="passport-conformance-row"') == len(IDENTIFIERS)
    report = _report(source)
    for code in report["summary"]["by_code"]:
        assert f'<tr data-code="{code}">' in page
    # The tab sits beside ckanext-harvest's own on the source's pages.
    read = web.get(f"/harvest/{source['name']}").body
    assert f'href="/harvest/{source["name"]}/conformance"' in read


@pytest.fixture(scope="module")
def predgor(harvested, tmp_path_factory, serve_site, harvest_source, run_harvest):
    """The Predgorny district's registry and passport as published, with its links pointed at the local server;
    harvested after the demo source, which lists the same passport and so holds its identifier."""
    root = tmp_path_factory.mktemp("predgor") / "predgor"
    shutil.copytree(DEMO_SITE.parent.parent / "tests" / "fixtures" / "real" / "predgor", root)
    served = serve_site(root)
    registry = root / "list.json"
    registry.write_text(registry.read_text("utf-8").replace(PREDGOR_HOST, served.url), "utf-8")
    source = harvest_source(f"{served.url}/list.json", ALLOW | {"registry_url": f"{served.url}/list.json"},
                            name="predgor-conformance")
    run_harvest(source)
    return source


def test_a_registry_entry_whose_passport_is_missing_is_reported_unread(predgor):
    """The real registry lists two datasets; only one passport is published: the other is unread, score None."""
    report = _report(predgor)
    entries = _by_identifier(report)
    assert set(entries) == {"2618017120-politicaldivisions", "2618017120-subdivisions"}
    missing = entries["2618017120-subdivisions"]
    assert missing["score"] is None and missing["form"] == ""
    assert "fetch.not_found" in {f["code"] for f in missing["findings"]}
    assert missing["fixed"] == {} and missing["corrections"] == []
    # Read, but the demo source holds its identifier: its import was refused, and it has no score.
    read = entries["2618017120-politicaldivisions"]
    assert read["form"] == "meta.json" and read["refused"] and read["score"] is None
    summary = report["summary"]
    assert summary["read"] == 0 and summary["refused"] == 1 and summary["passports"] == 2


def test_a_chart_with_nothing_scored_says_so_instead_of_drawing_empty_axes(predgor, web):
    """No passport of the Predgorny job has a score (one unread, one refused): no job of the source has a mean."""
    page = BeautifulSoup(web.get(f"/cs/harvest/{predgor['name']}/conformance").body, "html.parser")
    history = page.select_one("figure.passport-chart-history")
    assert history.select_one("svg") is None
    assert history.select_one(".passport-chart-empty").get_text(strip=True) == (
        "Zatím nic nehodnoceno: žádná dokončená úloha sklizně nemá průměrné hodnocení.")


def test_the_table_is_paged_and_the_downloads_hold_every_passport(harvested, web, monkeypatch):
    from ckanext.passport.conformance.harvest import views as harvest_views

    monkeypatch.setattr(harvest_views, "PAGE_SIZE", 4)
    source, _, _ = harvested
    first = web.get(f"/harvest/{source['name']}/conformance?sort=identifier").body
    second = web.get(f"/harvest/{source['name']}/conformance?sort=identifier&page=2").body
    assert first.count('class="passport-conformance-row"') == 4
    assert second.count('class="passport-conformance-row"') == len(IDENTIFIERS) - 4
    assert f'href="/harvest/{source["name"]}/conformance?sort=identifier&amp;page=2"' in first
    assert 'rel="prev"' in second and 'rel="next"' not in second
    listed = [identifier for page in (first, second) for identifier in sorted(IDENTIFIERS) if
              f'data-identifier="{identifier}"' in page]
    assert listed == sorted(IDENTIFIERS)
    rows = csv.DictReader(io.StringIO(web.get(f"/harvest/{source['name']}/conformance.csv").body.lstrip("\ufeff")))
    assert {row["identifier"] for row in rows} == IDENTIFIERS
