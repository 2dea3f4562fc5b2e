"""``ckan passport check`` and ``ckan passport parse`` as a user runs them (click's CliRunner)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckanext.passport.cli import passport

from tests.support.mr_site import serve_mr_site

DEMO_SITE = Path(__file__).resolve().parents[2] / "dev" / "demo-site"


@pytest.fixture
def site(httpserver) -> str:
    return serve_mr_site(httpserver)


def run(*args: str):
    return CliRunner().invoke(passport, list(args), catch_exceptions=False)


def test_check_prints_a_readable_report_of_a_live_site(site):
    result = run("check", "--no-data", site, "--allow-private", "--timeout", "5")

    assert result.output.startswith(f"Site: {site}\nRegistry: {site}opendata/list.csv (list.csv), 4 datasets")
    assert "Passport 7703092752-terorg: Перечень территориальных органов Росгидромета" in result.output
    assert "ERROR passport.unreachable" in result.output
    assert "Total: 4 passports checked, 1 not read" in result.output


def test_check_prints_the_report_in_english_alone_by_default(site):
    output = run("check", "--no-data", site, "--allow-private").output

    assert "  The file mixes encodings: " in output
    assert "Файл смешивает кодировки" not in output and " en: " not in output


def test_check_prints_the_report_in_czech_with_lang_cs(site):
    output = run("check", "--no-data", site, "--allow-private", "--lang", "cs").output

    assert output.startswith(f"Web: {site}\nRegistr: {site}opendata/list.csv (list.csv), 4 datové sady")
    assert "CHYBA passport.unreachable" in output
    assert "VAROVÁNÍ decode.mixed_encoding" in output
    assert "  Soubor míchá kódování: 1 řádek v UTF-8, " in output
    assert "Celkem: zkontrolovány 4 pasporty, nepřečteno 1" in output
    assert "The file mixes encodings" not in output


def test_check_prints_the_report_in_russian_with_lang_ru(site):
    output = run("check", "--no-data", site, "--allow-private", "--lang", "ru").output

    assert "ОШИБКА passport.unreachable" in output
    assert "  Файл смешивает кодировки: 1 строка в UTF-8, " in output
    assert "Итого: проверено 4 паспорта, не прочитано 1" in output
    assert "The file mixes encodings" not in output


def test_check_json_carries_each_finding_in_the_chosen_language_with_its_place(site):
    # The JSON is the conformance report's document (the portal's site check prints the same): findings as
    # readers see them, their params rendered into the message.
    result = run("check", "--no-data", site, "--allow-private", "--format", "json", "--limit", "1", "--lang", "ru")

    found = json.loads(result.output)["passports"][0]["findings"][0]
    assert found["code"] == "decode.mixed_encoding"
    assert found["severity"] == "warning"
    assert found["message"].startswith("Файл смешивает кодировки")
    assert found["url"].endswith("/opendata/7708234640-okvedva/meta.csv") and found["where"].startswith(found["url"])


def test_check_refuses_a_language_without_catalog(site):
    assert CliRunner().invoke(passport, ["check", site, "--lang", "de"]).exit_code == 2


def test_parse_prints_findings_in_the_chosen_language(tmp_path):
    broken = tmp_path / "meta.csv"
    broken.write_text("property,value\nstandardversion,http://opendata.gosmonitor.ru/standard/3.0\n", encoding="utf-8")

    document = json.loads(run("parse", str(broken), "--lang", "cs").output)

    missing = [p for p in document["problems"] if p["code"] == "passport.csv_missing_identifier"]
    assert missing[0]["message"] == "Pasport nemá identifikátor datové sady"


def test_check_exits_with_1_when_errors_were_found(site):
    assert run("check", "--no-data", site, "--allow-private").exit_code == 1


def test_check_exits_with_0_when_the_passport_has_no_error(site):
    result = run("check", "--no-data", f"{site}opendata/7708234640-okvedva/meta.csv", "--allow-private")

    assert result.exit_code == 0
    assert "score 95/100" in result.output


def test_check_prints_json_on_request(site):
    result = run("check", "--no-data", site, "--allow-private", "--format", "json", "--limit", "1")

    document = json.loads(result.output)
    assert document["registry_size"] == 4
    assert [p["identifier"] for p in document["passports"]] == ["7708234640-okvedva"]
    assert document["passports"][0]["findings"][0]["message"].startswith("The file mixes encodings")
    assert set(document["summary"]) == {"passports", "read", "refused", "mean_score", "conformant", "by_code"}


def test_check_refuses_a_local_site_without_allow_private(site, monkeypatch):
    import ckan.plugins.toolkit as tk

    monkeypatch.setitem(tk.config, "ckanext.passport.allow_private_addresses", False)
    result = run("check", "--no-data", site, "--format", "json")

    document = json.loads(result.output)
    assert result.exit_code == 1
    assert document["problems"][0]["code"] == "registry.not_discovered"
    assert document["problems"][1]["code"] == "fetch.refused_address"


def test_check_reads_a_registry_page_where_the_user_points(tmp_path, serve_site):
    shutil.copytree(DEMO_SITE, tmp_path / "site")
    shutil.copy(tmp_path / "site" / "opendata" / "index.html", tmp_path / "site" / "index.html")
    served = serve_site(tmp_path / "site")

    result = run("check", "--no-data", f"{served.url}/index.html", "--allow-private", "--limit", "0")

    assert f"Registry: {served.url}/index.html (rdfa), 6 datasets, 0 checked" in result.output
    assert served.hits == ["/index.html"]


@pytest.mark.parametrize("option", [["--timeout", "0"], ["--limit", "-1"], ["--format", "xml"]])
def test_check_rejects_bad_options(site, option):
    result = CliRunner().invoke(passport, ["check", site, *option])

    assert result.exit_code == 2


@pytest.mark.parametrize(("path", "form", "identifier"), [
    ("rosstat-okved2/meta.csv", "meta.csv", "7708234640-okvedva"),
    ("meteorf-terorg/meta.csv", "mr23.csv", "7703092752-terorg"),
    ("predgor/2618017120-politicaldivisions/meta.json", "meta.json", "2618017120-subdivisions"),
    ("predgor/2618017120-politicaldivisions/index.php", "rdfa", "2618017120-politicaldivisions"),
])
def test_parse_prints_a_real_passport_as_json(real_fixtures, path, form, identifier):
    result = run("parse", str(real_fixtures / path))

    document = json.loads(result.output)
    assert result.exit_code == 0
    assert (document["kind"], document["form"]) == ("passport", form)
    assert document["passport"]["identifier"] == identifier


def test_parse_prints_dates_with_text_and_iso_value(real_fixtures):
    result = run("parse", str(real_fixtures / "rosstat-okved2/meta.csv"))

    document = json.loads(result.output)
    assert document["passport"]["modified"] == {"text": "20251101", "value": "2025-11-01"}
    assert document["passport"]["data_versions"][0]["created"] == {
        "text": "20251101T1411", "value": "2025-11-01T14:11:00"}
    assert document["passport"]["publisher"]["phone"] == "+7 (495) 568-00-42 доб. 99732"


def test_parse_prints_a_real_registry_as_json(real_fixtures):
    result = run("parse", str(real_fixtures / "fedstat/list.xml"))

    document = json.loads(result.output)
    assert (document["kind"], document["form"]) == ("registry", "list.xml")
    assert len(document["registry"]["entries"]) == 6692


def test_parse_reads_the_form_given(real_fixtures):
    result = run("parse", str(real_fixtures / "meteorf-terorg/meta.csv"), "--form", "meta.csv")

    document = json.loads(result.output)
    assert document["form"] == "meta.csv"
    assert "passport.csv_missing_header" in [p["code"] for p in document["problems"]]


def test_parse_exits_with_1_when_nothing_could_be_read(tmp_path):
    empty = tmp_path / "meta.xml"
    empty.write_bytes(b"")

    result = run("parse", str(empty))

    assert result.exit_code == 1
    assert json.loads(result.output)["problems"][0]["code"] == "passport.empty"


def test_parse_rejects_a_missing_file(tmp_path):
    result = CliRunner().invoke(passport, ["parse", str(tmp_path / "nothing.csv")])

    assert result.exit_code == 2
