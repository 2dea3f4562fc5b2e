"""A site check's report explains itself: why a harvest's Conformance tab may score a passport otherwise (the site
check reads data files, a harvest only when asked), which findings came from the data files and what the score
would be without them; and, in "Passports by problem", what each code means, in the reader's language, with a link
to each passport that has it."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.site_check_jobs import clean_site_checks, home_site, shown  # noqa: F401

from ckanext.passport.conformance.harvest.views import meaning
from ckanext.passport.conformance.site_check import job as site_check_job
from ckanext.passport.conformance.site_check.report import TEXT_CHARS, kept, restored
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.report import PassportCheck, SiteReport
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks")]

TERORG = "7703092752-terorg"  # its data file heads its columns otherwise than its structure names them
SCHOOLS = "7701234560-schools"  # data and structure agree


@pytest.fixture
def sysadmin() -> dict:
    return factories.Sysadmin()


@pytest.fixture
def checked(home_site, sysadmin) -> str:
    """A check of the local demo site, run to its end in this process."""
    check_id = call_action("passport_site_check", context={"user": sysadmin["name"]},
                           url=home_site.url + "/opendata/", allow_private_addresses=True)["id"]
    site_check_job.run(check_id)
    return check_id


def report_page(app, check_id: str, user: dict, prefix: str = "") -> BeautifulSoup:
    headers = {"Authorization": factories.APIToken(user=user["name"])["token"]}
    return BeautifulSoup(app.get(f"{prefix}/passport/check/{check_id}", headers=headers).body, "html.parser")


def passport_of(report: dict, identifier: str) -> dict:
    return next(entry for entry in report["passports"] if entry["identifier"] == identifier)


def test_the_report_tells_each_passports_data_file_findings_and_its_score_without_them(checked, sysadmin):
    report = shown(checked, user=sysadmin["name"])["report"]
    terorg = passport_of(report, TERORG)
    from_data = terorg["findings"][-terorg["data_findings"]:]
    codes = {found["code"] for found in from_data}
    assert "data.field_renamed" in codes and all(code.startswith("data.") for code in codes)
    assert all(found["severity"] == "warning" for found in from_data)
    assert terorg["score_without_data"] == terorg["score"] + 5 * len(codes)  # each warning code costs 5
    assert passport_of(report, SCHOOLS)["data_findings"] == 0


def test_the_page_marks_the_findings_of_a_passports_data_file_and_says_its_score_without_them(
        web, checked, sysadmin):
    report = shown(checked, user=sysadmin["name"])["report"]
    page = report_page(web, checked, sysadmin)
    terorg = page.select_one(f".passport-site-check-passport[data-identifier='{TERORG}']")
    marked = {found["data-code"] for found in terorg.select(".passport-finding")
              if found.select_one(".passport-finding-data-file")}
    assert "data.field_renamed" in marked and all(code.startswith("data.") for code in marked)
    without = passport_of(report, TERORG)["score_without_data"]
    assert f"Without them it would score {without}/100" in terorg.select_one(".passport-site-check-data-note").text


def test_a_passport_whose_data_file_agrees_with_its_structure_has_no_data_file_note(web, checked, sysadmin):
    schools = report_page(web, checked, sysadmin).select_one(
        f".passport-site-check-passport[data-identifier='{SCHOOLS}']")
    assert schools.select(".passport-finding-data-file") == []
    assert schools.select_one(".passport-site-check-data-note") is None


def test_the_report_says_beside_its_scores_why_a_harvest_may_score_a_passport_otherwise(web, checked, sysadmin):
    note = report_page(web, checked, sysadmin).select_one(".passport-site-check-score-note").text
    assert "data file" in note and "check_data" in note and "Conformance tab" in note


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_passports_by_problem_gives_each_code_its_meaning_in_the_readers_language(web, checked, sysadmin, language):
    prefix = "" if language == "en" else f"/{language}"
    rows = report_page(web, checked, sysadmin, prefix).select(".passport-site-check-codes tbody tr")
    assert rows
    for row in rows:
        wanted = meaning(row["data-code"], translator(language))
        assert wanted and row.select_one(".passport-code-meaning").text.strip() == wanted, row["data-code"]


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_passports_by_problem_names_what_a_code_with_particulars_means_with_no_holes(
        web, checked, sysadmin, language):
    """data.field_renamed's message names a column and two headings; its meaning names none, and leaves no gap."""
    prefix = "" if language == "en" else f"/{language}"
    page = report_page(web, checked, sysadmin, prefix)
    said = page.select_one(".passport-site-check-codes tbody tr[data-code='data.field_renamed'] .passport-code-meaning")
    assert said is not None and said.text.strip() == translator(language)(
        "A column of the data file is headed with another name than the structure's field")
    assert [row["data-code"] for row in page.select(".passport-site-check-codes tbody tr")
            if "{" in row.select_one(".passport-code-meaning").text
            or "…" in row.select_one(".passport-code-meaning").text] == []


def test_passports_by_problem_links_each_passport_to_its_section_in_the_report(web, checked, sysadmin):
    page = report_page(web, checked, sysadmin)
    for row in page.select(".passport-site-check-codes tbody tr"):
        links = row.select(".passport-code-passports a")
        assert len(links) == int(row.select_one(".passport-code-count").text)
        for link in links:
            section = page.select_one(f"article{link['href']}")
            assert section["data-identifier"] == link.text
            assert row["data-code"] in {found["data-code"] for found in section.select(".passport-finding")}


def test_a_kept_report_keeps_the_data_file_findings_last_after_the_notes_of_what_was_cut():
    url = "https://opendata.example.ru/opendata/7701234560-x/meta.json"
    own = problem("check.missing_field", url=url, field="creator")
    from_data = problem("data.field_renamed", url=url, column=2, header="Name", field="name")
    checked = PassportCheck(identifier="7701234560-x", title="x" * (TEXT_CHARS + 10), url=url, form="json",
                            problems=[own, from_data], score=75, data_findings=1, score_without_data=80)

    report, _offered = restored(kept(SiteReport(url=url, passports=[checked])).summary)

    [passport] = report.passports
    assert [found.code for found in passport.problems] == [own.code, "site_check.values_cut", from_data.code]
    assert (passport.data_findings, passport.score_without_data) == (1, 80)
