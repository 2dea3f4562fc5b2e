"""``check`` and ``parse`` logic against a real local MR site and the real publications."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tests.support.loopback import LOCAL_SITE_CHECK

from ckanext.passport.mr import report
from ckanext.passport.mr.fetch import FetchPolicy
from ckanext.passport.mr.model import STANDARD_3_0, Severity
from ckanext.passport.mr.translation import translator

from tests.support.mr_site import serve_mr_site

PREDGOR = "predgor/2618017120-politicaldivisions"
DEMO_SITE = Path(__file__).resolve().parents[2] / "dev" / "demo-site"
# The local test sites are loopback addresses; the settings room builds real policies (tests/test_settings.py).
@pytest.fixture
def site(httpserver) -> str:
    return serve_mr_site(httpserver)


@pytest.fixture
def checked(site) -> report.SiteReport:
    return report.check_site(site, LOCAL_SITE_CHECK, check_data=False)


def by_identifier(site_report: report.SiteReport) -> dict[str, report.PassportCheck]:
    return {passport.identifier: passport for passport in site_report.passports}


def codes(passport: report.PassportCheck) -> list[str]:
    return [p.code for p in passport.problems]


# --- check ----------------------------------------------------------------------------------------------

def test_check_finds_the_registry_of_a_site(checked, site):
    assert checked.registry_url == f"{site}opendata/list.csv"
    assert checked.registry_form == "list.csv"
    assert checked.registry_size == 4
    assert checked.problems == []


def test_check_reads_every_passport_in_the_form_it_is_published(checked, site):
    found = by_identifier(checked)

    assert [(p.identifier, p.form, p.encoding) for p in checked.passports] == [
        ("7708234640-okvedva", "meta.csv", "mixed"),
        ("2618017120-politicaldivisions", "meta.json", "utf-8"),
        ("7703092752-terorg", "mr23.csv", "windows-1251"),
        ("7710000000-missing", "", ""),
    ]
    assert found["7708234640-okvedva"].url == f"{site}opendata/7708234640-okvedva/meta.csv"


def test_check_prefers_the_machine_readable_passport_to_the_page_beside_it(checked, site):
    assert by_identifier(checked)["2618017120-politicaldivisions"].url == (
        f"{site}opendata/2618017120-politicaldivisions/meta.json")


def test_check_reports_parse_and_conformance_problems_per_passport(checked):
    found = by_identifier(checked)

    assert codes(found["7708234640-okvedva"]) == ["decode.mixed_encoding"]
    assert found["7708234640-okvedva"].score == 95
    predgor = codes(found["2618017120-politicaldivisions"])
    assert "check.registry_identifier_mismatch" in predgor
    assert "check.identifier_folder_mismatch" in predgor
    assert "schema.json_violation" in predgor
    assert found["2618017120-politicaldivisions"].score < found["7708234640-okvedva"].score


def test_a_passport_that_cannot_be_fetched_anywhere_is_unreachable_with_every_address_tried(checked, site):
    missing = by_identifier(checked)["7710000000-missing"]

    assert missing.score is None
    assert codes(missing) == ["passport.unreachable"] + ["fetch.not_found"] * 4
    assert missing.problems[0].severity is Severity.ERROR
    assert missing.problems[1].location.url == f"{site}opendata/7710000000-missing/meta.json"


def test_the_site_score_is_the_mean_of_the_readable_passports(checked):
    scores = [p.score for p in checked.passports if p.score is not None]

    assert checked.score == round(sum(scores) / len(scores))


def test_limit_caps_the_passports_checked(site):
    limited = report.check_site(site, LOCAL_SITE_CHECK, limit=2, check_data=False)

    assert [p.identifier for p in limited.passports] == ["7708234640-okvedva", "2618017120-politicaldivisions"]
    assert limited.registry_size == 4


def test_a_single_passport_file_url_is_checked_alone(site):
    single = report.check_site(f"{site}opendata/7703092752-terorg/meta.csv",
                               LOCAL_SITE_CHECK, check_data=False)

    assert single.registry_url == ""
    assert [(p.identifier, p.form) for p in single.passports] == [("7703092752-terorg", "mr23.csv")]


def test_a_single_rdfa_passport_page_is_checked_alone(site):
    page = f"{site}opendata/2618017120-politicaldivisions/index.php"

    single = report.check_site(page, LOCAL_SITE_CHECK, check_data=False)

    assert [(p.identifier, p.form, p.url) for p in single.passports] == [
        ("2618017120-politicaldivisions", "rdfa", page)]
    assert single.problems == []


def test_a_registry_page_at_a_file_address_is_checked_as_the_registry(tmp_path, serve_site):
    shutil.copytree(DEMO_SITE, tmp_path / "site")
    shutil.copy(tmp_path / "site" / "opendata" / "index.html", tmp_path / "site" / "index.html")
    served = serve_site(tmp_path / "site")

    checked = report.check_site(f"{served.url}/index.html", LOCAL_SITE_CHECK, limit=1, check_data=False)

    assert (checked.registry_url, checked.registry_form, checked.registry_size) == (
        f"{served.url}/index.html", "rdfa", 6)
    assert [p.identifier for p in checked.passports] == ["7708234640-okvedva"]
    assert not [hit for hit in served.hits if hit.startswith("/index.html/")]


def test_a_passport_page_at_a_file_address_is_fetched_once_and_nothing_appended(tmp_path, serve_site):
    shutil.copytree(DEMO_SITE, tmp_path / "site")
    served = serve_site(tmp_path / "site")
    page = "/opendata/2618017120-politicaldivisions/index.html"

    single = report.check_site(served.url + page, LOCAL_SITE_CHECK, check_data=False)

    assert [(p.identifier, p.form) for p in single.passports] == [("2618017120-politicaldivisions", "rdfa")]
    assert served.hits == [page]


def test_a_registry_broken_part_way_is_reported_as_incomplete(tmp_path, serve_site):
    shutil.copytree(DEMO_SITE, tmp_path / "site")
    registry = tmp_path / "site" / "opendata" / "list.csv"
    registry.write_bytes(registry.read_bytes().replace(b"7701234560-schools,", b'7701234560-schools,"', 1))
    served = serve_site(tmp_path / "site")

    checked = report.check_site(f"{served.url}/", LOCAL_SITE_CHECK, limit=0, check_data=False)

    assert (checked.registry_form, checked.registry_size) == ("list.csv", 3)
    incomplete = [p for p in checked.problems if p.code == "registry.incomplete"]
    assert [(p.severity, p.location.line) for p in incomplete] == [(Severity.ERROR, 6)]
    assert "csv.malformed_row" in incomplete[0].message()


def test_without_allow_private_a_local_site_is_refused(site):
    refused = report.check_site(site, FetchPolicy(connect_timeout=5, read_timeout=5, total_timeout=20), check_data=False)

    assert refused.passports == []
    assert refused.problems[0].code == "registry.not_discovered"
    assert {p.code for p in refused.problems[1:]} == {"fetch.refused_address"}


# --- rendering ------------------------------------------------------------------------------------------

def test_text_report_groups_problems_by_passport_in_one_language(checked, site):
    text = report.render_text(checked)

    assert text.startswith(f"Site: {site}\nRegistry: {site}opendata/list.csv (list.csv), 4 datasets, 4 checked\n")
    okved = text[text.index("Passport 7708234640-okvedva"):text.index("Passport 2618017120")]
    assert f"{site}opendata/7708234640-okvedva/meta.csv (meta.csv, mixed), score 95/100" in okved
    assert "WARNING decode.mixed_encoding" in okved
    assert "    The file mixes encodings: 1 line in UTF-8" in okved
    assert "Файл смешивает кодировки" not in okved
    assert "Passport 7710000000-missing: Набор, который не опубликован\n  not read\n" in text
    assert text.rstrip().endswith(
        f"Total: 4 passports checked, 1 not read, average score {checked.score}/100, "
        f"{checked.count(Severity.ERROR)} errors, {checked.count(Severity.WARNING)} warnings")


def test_text_report_speaks_the_language_it_is_given(checked):
    text = report.render_text(checked, translator("ru"))

    okved = text[text.index("Паспорт 7708234640-okvedva"):text.index("Паспорт 2618017120")]
    assert "ПРЕДУПРЕЖДЕНИЕ decode.mixed_encoding (" in okved and "строка 14" in okved
    assert "    Файл смешивает кодировки: 1 строка в UTF-8, 6 — в Windows-1251" in okved
    assert "The file mixes encodings" not in text


def test_json_report_holds_passports_problems_and_scores(checked):
    document = json.loads(report.report_json(checked))

    assert document["registry_form"] == "list.csv"
    assert document["score"] == checked.score
    assert document["errors"] == checked.count(Severity.ERROR)
    first = document["passports"][0]
    assert (first["identifier"], first["form"], first["score"]) == ("7708234640-okvedva", "meta.csv", 95)
    assert first["problems"][0]["code"] == "decode.mixed_encoding"
    assert first["problems"][0]["severity"] == "warning"
    assert first["problems"][0]["location"]["line"] == 14
    assert document["passports"][3]["score"] is None


# --- parse FILE -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "kind", "form", "encoding"), [
    ("rosstat-okved2/meta.csv", "passport", "meta.csv", "mixed"),
    ("meteorf-terorg/meta.csv", "passport", "mr23.csv", "windows-1251"),
    (f"{PREDGOR}/meta.json", "passport", "meta.json", "utf-8"),
    (f"{PREDGOR}/index.php", "passport", "rdfa", "utf-8"),
    ("predgor/list.json", "registry", "list.json", "utf-8"),
    ("fedstat/list.xml", "registry", "list.xml", "utf-8"),
])
def test_parse_file_detects_what_a_real_file_is(real_fixtures, path, kind, form, encoding):
    found_kind, result = report.parse_file(real_fixtures / path)

    assert (found_kind, result.form, result.encoding) == (kind, form, encoding)
    assert result.value is not None


def test_parse_file_reads_a_given_form(real_fixtures):
    kind, result = report.parse_file(real_fixtures / "meteorf-terorg/meta.csv", form="meta.csv")

    assert (kind, result.form) == ("passport", "meta.csv")
    assert "passport.csv_missing_header" in [p.code for p in result.problems]


def test_parse_json_shows_dates_as_published_text_and_iso_value(real_fixtures):
    path = real_fixtures / "meteorf-terorg/meta.csv"

    document = json.loads(report.parse_json(path, *report.parse_file(path)))

    assert document["kind"] == "passport"
    assert document["passport"]["created"] == {"text": "15.07.2013", "value": "2013-07-15"}
    assert document["passport"]["identifier"] == "7703092752-terorg"
    assert document["problems"][0]["code"] == "decode.windows_1251"


def test_parse_json_shows_a_registry(real_fixtures):
    path = real_fixtures / "predgor/list.json"

    document = json.loads(report.parse_json(path, *report.parse_file(path)))

    assert document["registry"]["standard_version"] == STANDARD_3_0
    assert [e["identifier"] for e in document["registry"]["entries"]] == [
        "2618017120-politicaldivisions", "2618017120-subdivisions"]


def test_parse_json_shows_moments_and_unreadable_dates(tmp_path):
    path = tmp_path / "meta.csv"
    path.write_bytes(b"property,value\r\nidentifier,7712345678-showrooms\r\ncreated,2013-13-45\r\n"
                     b"modified,20130601T1030\r\n")

    document = json.loads(report.parse_json(path, *report.parse_file(path)))

    assert document["passport"]["modified"] == {"text": "20130601T1030", "value": "2013-06-01T10:30:00"}
    assert document["passport"]["created"] == {"text": "2013-13-45", "value": None}
