"""What a site check keeps is bounded, whatever the site published: long texts are cut with a marker, findings kept
while they fit, a passport too large for corrected files is said to be so, and the report is still whole to read:
its page, CSV and JSON render from the bounded summary; the passports read are kept apart, for corrected files."""
from __future__ import annotations

import json

import pytest
from ckan import model
from ckan.tests import factories
from tests.support.fault_passports import valid_passport
from tests.support.site_check_jobs import clean_site_checks, shown  # noqa: F401 (fixtures)

from ckanext.passport.conformance.site_check import job as site_check_job
from ckanext.passport.conformance.site_check.model import SiteCheck, SiteCheckPassport, add
from ckanext.passport.conformance.site_check.report import CUT_MARK, ENTRY_CHARS, TEXT_CHARS, kept
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.report import PassportCheck, SiteReport

INN = "7701234560"
BIG = 3
LONG_TITLE = "Набор " * 2000
# A passport past what the portal keeps for corrected files (1,000,000 characters), within the readers' 2 MiB.
HUGE_DESCRIPTION = "x" * 1_300_000
# A catalogued code with a free-text parameter: a code defined here would join the catalogue the message tests
# check, in whichever worker imports this module.
NOISY = "fetch.connection_error"


def _entry_sizes(summary: dict) -> list[int]:
    return [len(json.dumps(entry, ensure_ascii=False)) for entry in summary["passports"]]


# --- the bound, on reports made here --------------------------------------------------------------------------


def test_a_passport_with_endless_findings_keeps_those_that_fit_and_says_how_many_more():
    noisy = PassportCheck(identifier=f"{INN}-noisy", url="https://example.ru/meta.json", form="json", score=0,
                          problems=[problem(NOISY, detail="y" * 5000) for _ in range(20_000)])
    summary = kept(SiteReport(url="https://example.ru/", passports=[noisy])).summary

    [entry] = summary["passports"]
    assert _entry_sizes(summary) == [len(json.dumps(entry, ensure_ascii=False))]
    assert len(json.dumps(entry, ensure_ascii=False)) <= ENTRY_CHARS
    *findings, values_cut, findings_cut = entry["problems"]
    assert findings and all(f["params"]["detail"] == "y" * (TEXT_CHARS - 1) + CUT_MARK for f in findings)
    assert values_cut["code"] == "site_check.values_cut"
    assert (findings_cut["code"], findings_cut["params"]["count"]) == ("site_check.findings_cut",
                                                                       20_000 - len(findings))


def test_the_site_s_own_findings_are_bounded_too():
    summary = kept(SiteReport(url="https://example.ru/" + "a" * 50_000,
                              problems=[problem(NOISY, detail="z" * 900) for _ in range(1000)])).summary
    assert len(json.dumps(summary, ensure_ascii=False)) <= ENTRY_CHARS + len('"passports": []')
    assert summary["url"].endswith(CUT_MARK) and len(summary["url"]) == TEXT_CHARS
    assert summary["problems"][-1]["code"] == "site_check.findings_cut"


# --- a site of big passports, through the job -------------------------------------------------------------------


@pytest.fixture
def big_site(tmp_path, serve_site):
    """Three passports of 1.3 MB, each with a long registry title and a 5,000-character identifier of its own."""
    (tmp_path / "opendata").mkdir()
    entries = []
    for number in range(BIG):
        identifier = f"{INN}-big{number}"
        passport = {**valid_passport(f"{INN}-{'a' * 5000}", "Большой"), "description": HUGE_DESCRIPTION}
        (tmp_path / "opendata" / identifier).mkdir()
        (tmp_path / "opendata" / identifier / "meta.json").write_text(json.dumps(passport, ensure_ascii=False))
        entries.append(f"{identifier},{LONG_TITLE},/opendata/{identifier}/meta.json,json")
    small = f"{INN}-small"
    (tmp_path / "opendata" / small).mkdir()
    (tmp_path / "opendata" / small / "meta.json").write_text(json.dumps(valid_passport(small, "Малый")))
    entries.append(f"{small},Малый,/opendata/{small}/meta.json,json")
    body = "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
    (tmp_path / "opendata" / "list.csv").write_text(body + "\n".join(entries) + "\n", "utf-8")
    return serve_site(tmp_path)


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


@pytest.fixture
def big_check(big_site) -> str:
    check = add(big_site.url + "/opendata/list.csv", "127.0.0.1", None, allow_private_addresses=True)
    site_check_job.run(check.id)
    return check.id


def _auth(user: dict) -> dict:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks")
def test_a_check_of_big_passports_keeps_a_summary_within_its_bound(big_check):
    model.Session.remove()
    result = SiteCheck.get(big_check).result
    assert len(result) <= (BIG + 2) * ENTRY_CHARS
    assert HUGE_DESCRIPTION[:TEXT_CHARS] not in result
    report = shown(big_check)["report"]
    assert report["summary"]["passports"] == report["summary"]["read"] == BIG + 1
    big = [entry for entry in report["passports"] if entry["identifier"].startswith(f"{INN}-big")]
    assert len(big) == BIG
    for entry in big:
        assert entry["title"].endswith(CUT_MARK) and len(entry["title"]) == TEXT_CHARS
        codes = [found["code"] for found in entry["findings"]]
        assert "site_check.values_cut" in codes and "site_check.fixed_too_large" in codes
        assert entry["fixed"] == {}


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks")
def test_the_page_and_downloads_of_a_check_of_big_passports_render_from_its_summary(web, big_check, sysadmin):
    page = web.get(f"/en/passport/check/{big_check}", headers=_auth(sysadmin))
    assert page.status_code == 200
    assert "No corrected files are offered for this passport" in page.body
    assert "characters of long texts were left out of this report" in page.body
    csv = web.get(f"/passport/check/{big_check}.csv", headers=_auth(sysadmin))
    assert csv.status_code == 200 and "site_check.fixed_too_large" in csv.body
    document = web.get(f"/passport/check/{big_check}.json", headers=_auth(sysadmin)).json
    assert len(document["passports"]) == BIG + 1


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks")
def test_only_passports_within_the_bound_are_kept_for_their_corrected_files(web, big_check, sysadmin):
    model.Session.remove()
    kept_rows = model.Session.query(SiteCheckPassport).filter_by(check_id=big_check).all()
    assert [row.number for row in kept_rows] == [BIG + 1]
    small = shown(big_check)["report"]["passports"][BIG]
    assert small["fixed"]["meta.json"].endswith(f"/passport/check/{big_check}/fixed/{BIG + 1}/meta.json")
    served = web.get(f"/passport/check/{big_check}/fixed/{BIG + 1}/meta.json", headers=_auth(sysadmin))
    assert served.status_code == 200 and json.loads(served.body)["identifier"] == f"{INN}-small"
    assert web.get(f"/passport/check/{big_check}/fixed/1/meta.json", headers=_auth(sysadmin)).status_code == 404
