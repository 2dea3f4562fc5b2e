"""A site check compares each passport's data with its structure, lists its corrections and reports progress.

The sites are real local HTTP servers over folders written by ``data_site``: conformant passports, so that
what is found is what the data and structure files say.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ckanext.passport.cli import passport as passport_command
from ckanext.passport.mr import report
from ckanext.passport.mr.check import score
from ckanext.passport.mr.model import Passport
from ckanext.passport.mr.translation import translator

from tests.support.data_site import DATA_CSV, STRUCTURE_CSV, Dataset, publish
from tests.support.mr_site import serve_mr_site
from tests.support.loopback import LOCAL_SITE_CHECK

AGREEING = "7709876545-pharmacies"
DISAGREEING = "7701234560-schools"
MISSING = "5027123457-bustops"


@pytest.fixture
def site(tmp_path, serve_site):
    served = serve_site(tmp_path)
    publish(tmp_path, served.url, [
        Dataset(AGREEING, DATA_CSV, STRUCTURE_CSV),
        Dataset(DISAGREEING, "Name,Adres\r\nШкола,Ленина 1\r\n".encode("utf-8"), STRUCTURE_CSV),
        Dataset(MISSING, None, STRUCTURE_CSV),
    ])
    return served


def found(checked: report.SiteReport) -> dict[str, list[tuple[str, dict]]]:
    return {p.identifier: [(f.code, dict(f.params)) for f in p.problems] for p in checked.passports}


def test_data_that_disagrees_with_its_structure_is_found_and_counts_in_the_score(site):
    checked = report.check_site(f"{site.url}/", LOCAL_SITE_CHECK)

    assert found(checked) == {
        AGREEING: [],
        DISAGREEING: [
            ("data.field_renamed", {"column": 1, "header": "Name", "field": "name"}),
            ("data.field_renamed", {"column": 2, "header": "Adres", "field": "address"}),
            ("data.field_missing", {"field": "hours"}),
        ],
        MISSING: [("fetch.not_found", {"status": 404})],
    }
    assert [p.score for p in checked.passports] == [100, 75, 80]
    assert all(p.score == score(p.problems) for p in checked.passports)


def test_without_the_data_check_no_data_file_is_fetched(site):
    checked = report.check_site(f"{site.url}/", LOCAL_SITE_CHECK, check_data=False)

    assert all(p.problems == [] for p in checked.passports)
    assert not any("/data-" in hit or "/structure-" in hit for hit in site.hits)


def test_progress_is_told_once_the_registry_is_read_and_after_each_passport(site):
    told = []

    report.check_site(f"{site.url}/", LOCAL_SITE_CHECK, progress=lambda done, total: told.append((done, total)))

    assert told == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_progress_of_a_single_passport_and_of_a_limited_check(site):
    told = []

    report.check_site(f"{site.url}/opendata/{AGREEING}/meta.json", LOCAL_SITE_CHECK, progress=lambda *p: told.append(p))
    report.check_site(f"{site.url}/", LOCAL_SITE_CHECK, limit=1, progress=lambda *p: told.append(p))

    assert told == [(1, 1), (0, 1), (1, 1)]


def test_each_passport_carries_what_was_read(site):
    checked = report.check_site(f"{site.url}/", LOCAL_SITE_CHECK)

    assert all(isinstance(p.passport, Passport) for p in checked.passports)
    assert checked.passports[0].passport.identifier == AGREEING
    assert checked.passports[0].corrections == []


@pytest.fixture
def mr_site(httpserver) -> str:
    return serve_mr_site(httpserver)


def test_each_passport_carries_its_corrections_which_cost_no_score(mr_site):
    checked = report.check_site(f"{mr_site}opendata/7703092752-terorg/meta.csv", LOCAL_SITE_CHECK, check_data=False)
    terorg, = checked.passports

    assert [f.code for f in terorg.corrections][:2] == ["fix.standard_version", "fix.date"]
    assert score(terorg.problems + terorg.corrections) == terorg.score


def test_the_text_report_shows_data_findings_and_corrections(site, mr_site):
    text = report.render_text(report.check_site(f"{site.url}/", LOCAL_SITE_CHECK), translator("ru"))
    terorg = report.render_text(report.check_site(f"{mr_site}opendata/7703092752-terorg/meta.csv", LOCAL_SITE_CHECK,
                                                  check_data=False))

    assert "ОШИБКА data.field_missing" in text
    assert "поле 'hours' структуры отсутствует в заголовке файла данных" in text
    assert "файл не найден (HTTP 404)" in text
    assert "  Corrections in the fixed meta.json, meta.csv and meta.xml (6):\n" in terorg
    assert "    INFO fix.date (" in terorg
    assert "      date '15.07.2013' in field 'created' written as 20130715\n" in terorg


def test_the_json_report_holds_data_findings_corrections_and_the_passport_read(site, mr_site):
    document = json.loads(report.report_json(report.check_site(f"{site.url}/", LOCAL_SITE_CHECK)))
    terorg = json.loads(report.report_json(report.check_site(
        f"{mr_site}opendata/7703092752-terorg/meta.csv", LOCAL_SITE_CHECK, check_data=False)))["passports"][0]

    assert [f["code"] for f in document["passports"][1]["problems"]] == [
        "data.field_renamed", "data.field_renamed", "data.field_missing"]
    assert document["passports"][0]["passport"]["identifier"] == AGREEING
    assert terorg["corrections"][0]["code"] == "fix.standard_version"
    assert terorg["corrections"][0]["severity"] == "info"


def run(*args: str):
    return CliRunner().invoke(passport_command, list(args), catch_exceptions=False)


def test_the_command_checks_data_unless_told_not_to(site):
    checked = run("check", f"{site.url}/", "--allow-private", "--lang", "cs")
    without = run("check", f"{site.url}/", "--allow-private", "--no-data")

    assert checked.exit_code == 1
    assert "data.field_missing" in checked.output
    assert "pole 'hours' struktury chybí v záhlaví datového souboru" in checked.output
    assert (without.exit_code, "data." in without.output, "fetch.not_found" in without.output) == (0, False, False)


def test_the_command_reads_no_more_of_a_data_file_than_its_head_bytes(site, tmp_path):
    folder = tmp_path / "opendata" / AGREEING
    data = next(folder.glob("data-*.csv"))
    data.write_bytes(DATA_CSV + b"x" * 100_000)

    result = run("check", f"{site.url}/opendata/{AGREEING}/meta.json", "--allow-private", "--head-bytes", "64")

    assert result.exit_code == 0, result.output
    assert "score 100/100" in result.output
