"""The site check's pages: the form (CSRF, in the reader's language), a check's page refreshing until the check
ends, then its report with downloads and corrected files, and the header's link for signed-in users."""
from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_site import IDENTIFIERS
from tests.support.site_check_jobs import clean_site_checks, home_site, shown  # noqa: F401

import ckan.model as model

from ckanext.passport.conformance.site_check import job as site_check_job
from ckanext.passport.conformance.site_check.model import FINISHED, SiteCheck, add
from ckanext.passport.conformance.site_check.report import kept
from ckanext.passport.conformance.shape import CSV_COLUMNS
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.report import PassportCheck, SiteReport
from ckanext.passport.mr.translation import translator

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks"),
]


def auth(user: dict) -> dict:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


def csrf_token(body: str) -> str:
    return re.search(r'name="_csrf_token" value="([^"]+)"', body).group(1)


def submit(client, headers: dict, url: str, prefix: str = "", **form: str):
    """Open the form and send it, as one visitor (one cookie jar)."""
    page = client.get(f"{prefix}/passport/check", headers=headers)
    return client.post(f"{prefix}/passport/check", headers=headers, follow_redirects=False,
                       data={"_csrf_token": csrf_token(page.body), "url": url, **form})


@pytest.fixture
def user():
    return factories.User()


@pytest.fixture
def finished_private(home_site):
    """A sysadmin's check of the demo site with private addresses, run to its end (the job in this process; the
    worker's test runs it for real)."""
    sysadmin = factories.Sysadmin()
    check_id = call_action("passport_site_check", context={"user": sysadmin["name"]},
                           url=home_site.url + "/opendata/", allow_private_addresses=True)["id"]
    site_check_job.run(check_id)
    return check_id


@pytest.fixture
def finished(finished_private):
    """The same check as a check of a public site: the local test site needs private addresses, a public one not."""
    check = SiteCheck.get(finished_private)
    check.allow_private_addresses = False
    model.Session.commit()
    return finished_private


def test_a_signed_in_user_gets_the_form_in_czech_with_its_csrf_token(web, user):
    page = BeautifulSoup(web.get("/cs/passport/check", headers=auth(user)).body, "html.parser")
    form = page.select_one("form.passport-site-check-form")
    assert page.select_one("h1").text == "Kontrola webu"
    assert form.select_one("input[name=_csrf_token]")["value"]
    assert form.select_one("input[name=url]")["type"] == "url"
    assert form.select_one("input[name=allow_private_addresses]") is None


def test_a_sysadmin_may_ask_for_private_addresses_in_the_form(web):
    page = BeautifulSoup(web.get("/passport/check", headers=auth(factories.Sysadmin())).body, "html.parser")
    assert page.select_one("form.passport-site-check-form input[name=allow_private_addresses]")


def test_an_anonymous_visitor_is_asked_to_sign_in_and_comes_back_to_the_check_with_its_address(web):
    page = BeautifulSoup(web.get("/cs/passport/check?url=https://opendata.example.cz/").body, "html.parser")
    assert page.select_one("form.passport-site-check-form") is None
    link = urlsplit(page.select_one(".passport-site-check-sign-in a")["href"])
    assert link.path == "/cs/user/login"
    assert parse_qs(link.query)["came_from"] == ["/cs/passport/check?url=https://opendata.example.cz/"]


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
def test_an_anonymous_visitor_gets_the_form_when_the_check_is_public(web):
    page = BeautifulSoup(web.get("/passport/check").body, "html.parser")
    assert page.select_one("form.passport-site-check-form")


def test_the_header_links_the_check_for_signed_in_users(web, user):
    page = BeautifulSoup(web.get("/dataset/", headers=auth(user)).body, "html.parser")
    assert page.select_one("a.passport-site-check-link")["href"] == "/passport/check"
    assert BeautifulSoup(web.get("/dataset/").body, "html.parser").select_one("a.passport-site-check-link") is None


def test_the_form_without_its_csrf_token_is_refused(web, user):
    answer = web.post("/passport/check", headers=auth(user), data={"url": "https://opendata.example.ru/"})
    assert answer.status_code == 400
    assert call_action("job_list") == []


def test_a_submitted_address_leads_to_the_checks_page_refreshing_until_it_ends(web, user):
    client = web.test_client()
    answer = submit(client, auth(user), "https://opendata.example.ru/opendata/")
    assert answer.status_code == 302
    path = answer.headers["Location"].split("//", 1)[-1].split("/", 1)[1]
    assert re.fullmatch(r"passport/check/[0-9a-f-]{36}", path)

    page = BeautifulSoup(client.get("/" + path, headers=auth(user)).body, "html.parser")
    assert page.select_one(".passport-site-check-status")["data-status"] == "queued"
    assert page.select_one("meta[http-equiv=refresh]")["content"] == "2"


def test_a_refused_address_marks_the_field_with_its_sentence_in_czech_and_keeps_the_code_out_of_the_text(web, user):
    answer = submit(web.test_client(), auth(user), "ftp://example.ru/", prefix="/cs")
    assert answer.status_code == 400
    page = BeautifulSoup(answer.body, "html.parser")
    field = page.select_one("input[name=url]")
    assert field["value"] == "ftp://example.ru/"
    assert field["aria-invalid"] == "true"
    error = page.select_one(f"#{field['aria-describedby']} p")
    assert error["data-code"] == "site_check.url_invalid"
    assert error.text.startswith("'ftp://example.ru/' není webová adresa")


def test_a_private_address_is_refused_as_a_sentence_saying_a_sysadmin_can_check_it(web, user, home_site):
    answer = submit(web.test_client(), auth(user), home_site.url + "/opendata/", prefix="/cs")
    assert answer.status_code == 400
    page = BeautifulSoup(answer.body, "html.parser")
    field = page.select_one("input[name=url]")
    assert field["aria-invalid"] == "true"
    error = page.select_one(f"#{field['aria-describedby']}")
    assert error.select_one("p")["data-code"] == "site_check.private_address"
    assert error.text.strip() == ("Tato adresa je v privátní, místní nebo zvláštní síti a kontrola webu čte jen veřejné "
                                  "weby. Zkontrolovat ji může správce portálu, s volbou čtení privátních adres.")
    assert "site_check." not in page.select_one("#content").text


@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_host", "1")
def test_a_rate_limit_is_shown_on_the_form_as_too_many_requests(web, user):
    client = web.test_client()
    assert submit(client, auth(user), "https://opendata.example.ru/").status_code == 302
    answer = submit(client, auth(user), "https://opendata.example.ru/list.csv")
    assert answer.status_code == 429
    page = BeautifulSoup(answer.body, "html.parser")
    assert page.select_one(".passport-site-check-errors p")["data-code"] == "site_check.rate_host"


def test_a_finished_check_shows_its_report(web, user, finished):
    page = BeautifulSoup(web.get(f"/passport/check/{finished}", headers=auth(user)).body, "html.parser")
    assert page.select_one("meta[http-equiv=refresh]") is None
    assert page.select_one(".passport-site-check-status")["data-status"] == "finished"
    assert page.select_one("[data-field=passports]").text == str(len(IDENTIFIERS))
    passports = page.select(".passport-site-check-passport")
    assert {p["data-identifier"] for p in passports} == IDENTIFIERS
    for passport in passports:
        assert passport.select_one(".passport-score")["data-score"].isdigit()
        links = [a["href"] for a in passport.select(".passport-site-check-fixed-files a")]
        assert [link.rsplit("/", 1)[1] for link in links] == ["meta.json", "meta.xml", "meta.csv"]
    findings = page.select(".passport-finding")
    assert findings and all(f["data-code"] for f in findings)


def test_the_report_in_czech(web, user, finished):
    page = BeautifulSoup(web.get(f"/cs/passport/check/{finished}", headers=auth(user)).body, "html.parser")
    assert page.select_one(".passport-site-check-status").text.strip() == "Dokončeno"
    assert "Průměrné hodnocení" in page.text


def test_the_registry_size_takes_the_plural_form_of_its_number(web, user, finished):
    """The page's {% trans count %} goes through flask-babel, our catalog merged into CKAN's: each language shows
    the form our catalog gives that number."""
    english = web.get(f"/passport/check/{finished}", headers=auth(user)).body
    size = int(re.search(r"(\d+) datasets? listed", english).group(1))
    for lang in ("cs", "ru"):
        page = BeautifulSoup(web.get(f"/{lang}/passport/check/{finished}", headers=auth(user)).body, "html.parser")
        wanted = translator(lang).ngettext("%(count)s dataset listed", "%(count)s datasets listed", size)
        assert wanted % {"count": size} in " ".join(page.text.split()), lang


def test_the_report_downloads_as_csv_and_json(web, user, finished):
    report = shown(finished)["report"]
    as_csv = web.get(f"/passport/check/{finished}.csv", headers=auth(user))
    assert as_csv.headers["Content-Type"].startswith("text/csv")
    assert "attachment" in as_csv.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(as_csv.body.lstrip("\ufeff"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert {row[0] for row in rows[1:]} == IDENTIFIERS
    as_json = web.get(f"/passport/check/{finished}.json", headers=auth(user))
    assert json.loads(as_json.body) == report


def test_a_check_still_running_has_no_downloads_yet(web, user):
    check_id = call_action("passport_site_check", context={"user": user["name"]},
                           url="https://opendata.example.ru/")["id"]
    assert web.get(f"/passport/check/{check_id}.csv", headers=auth(user)).status_code == 404


def test_a_failed_check_shows_its_code_and_stops_refreshing(web, user, monkeypatch):
    check_id = call_action("passport_site_check", context={"user": user["name"]},
                           url="https://opendata.example.ru/")["id"]
    monkeypatch.setattr(site_check_job, "check_site", lambda *a, **k: 1 / 0)
    site_check_job.run(check_id)
    page = BeautifulSoup(web.get(f"/passport/check/{check_id}", headers=auth(user)).body, "html.parser")
    assert page.select_one(".passport-site-check-failure")["data-code"] == "site_check.failed"
    assert "ZeroDivisionError" in page.select_one(".passport-site-check-failure").text
    assert page.select_one("meta[http-equiv=refresh]") is None


def test_an_unknown_check_is_not_found(web, user):
    assert web.get("/passport/check/no-such-check", headers=auth(user)).status_code == 404


def test_a_check_that_read_private_addresses_is_not_shown_to_others(web, user, finished_private):
    assert web.get(f"/passport/check/{finished_private}", headers=auth(user)).status_code == 403
    assert web.get(f"/passport/check/{finished_private}.csv").status_code == 403


def test_a_check_that_read_private_addresses_tells_its_sysadmin_who_can_open_it_not_to_share_it(web, finished_private):
    page = BeautifulSoup(web.get(f"/cs/passport/check/{finished_private}",
                                 headers=auth(factories.Sysadmin())).body, "html.parser")
    audience = page.select_one(".passport-site-check-audience").text.strip()
    assert audience.startswith("Tato kontrola četla i adresy v privátní a místní síti, proto tento výsledek mohou "
                               "podle jeho adresy otevřít jen správci portálu")
    assert "sdílejte" not in audience


def test_a_check_of_a_public_site_tells_its_reader_to_share_the_link(web, user, finished):
    page = BeautifulSoup(web.get(f"/passport/check/{finished}", headers=auth(user)).body, "html.parser")
    assert "share the link with the site's publisher" in page.select_one(".passport-site-check-audience").text


def test_a_private_check_answers_a_visitor_with_a_page_in_czech_that_says_who_can_open_it(web, finished_private):
    answer = web.get(f"/cs/passport/check/{finished_private}", status=403)
    page = BeautifulSoup(answer.body, "html.parser")
    refused = page.select_one(".passport-site-check-forbidden")
    assert refused["data-code"] == "site_check.private_sysadmin_only"
    assert refused.select_one("h1").text == "Tento výsledek je jen pro správce portálu"
    sign_in = urlsplit(refused.select_one("a.btn-primary")["href"])
    assert parse_qs(sign_in.query)["came_from"] == [f"/cs/passport/check/{finished_private}"]
    text = page.select_one("#content").text
    assert "site_check." not in text and "login" not in text and "403" not in text


def test_a_publisher_without_an_account_opens_the_shared_link_downloads_and_fixed_files(web, finished):
    for address in (f"/passport/check/{finished}", f"/passport/check/{finished}.csv",
                    f"/passport/check/{finished}/fixed/1/meta.json"):
        assert web.get(address).status_code == 200, address


def test_a_publishers_script_link_is_shown_as_text_never_as_a_link(web, user):
    hostile = "javascript:alert(1)"
    checked = PassportCheck(identifier="7701234560-x", link=hostile,
                            problems=[problem("passport.unreachable", url=hostile, identifier="7701234560-x", tried=0)])
    check = add("https://opendata.example.ru/opendata/", "opendata.example.ru", None, False)
    check.status, check.result = FINISHED, json.dumps(kept(SiteReport(url=check.url, passports=[checked])).summary)
    model.Session.commit()

    page = BeautifulSoup(web.get(f"/passport/check/{check.id}", headers=auth(user)).body, "html.parser")

    assert hostile in page.select_one(".passport-site-check-passport").text
    assert not [a for a in page.select("a[href]") if a["href"].lower().startswith("javascript:")]
