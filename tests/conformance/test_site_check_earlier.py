"""A publisher finds their earlier site checks: the form lists them (those of the site asked about, else all of
them), a report lists its reader's other checks of the same site, each with its date, its counts and its link; nobody
is shown a check whose link they were not given."""
from __future__ import annotations

import datetime
import json

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.tests import factories
from ckan.logic import ValidationError
from ckan.tests.helpers import call_action

from ckanext.passport.conformance.site_check.model import FINISHED, QUEUED, SiteCheck, add
from ckanext.passport.conformance.site_check.report import kept
from ckanext.passport.mr.report import PassportCheck, SiteReport

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]

SITE = "https://opendata.example.ru/opendata/"
OTHER_SITE = "https://data.example.org/opendata/"


def auth(user: dict) -> dict:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


def finished_check(url: str, user: dict | None, scores: list[int | None], days_ago: int = 0) -> str:
    """A check of ``url`` by ``user``, finished ``days_ago`` with one passport per score (``None``: not read)."""
    host = url.split("/")[2]
    account = model.User.get(user["name"]) if user else None
    check = add(url, host, account.id if account else None, False)
    passports = [PassportCheck(identifier=f"7701234560-{n}", url=f"{url}{n}/meta.json", form="json", score=score)
                 for n, score in enumerate(scores)]
    check.created -= datetime.timedelta(days=days_ago)
    check.status, check.finished = FINISHED, check.created
    check.result = json.dumps(kept(SiteReport(url=url, passports=passports)).summary)
    model.Session.commit()
    return check.id


def listed(page_body: str) -> list[str]:
    page = BeautifulSoup(page_body, "html.parser")
    return [row["data-id"] for row in page.select(".passport-site-check-earlier-check")]


@pytest.fixture
def publisher() -> dict:
    return factories.User()


def test_the_list_gives_each_own_check_newest_first_with_its_reports_counts(publisher):
    older = finished_check(SITE, publisher, [80, 91, None], days_ago=2)
    newer = finished_check(SITE, publisher, [100], days_ago=1)

    checks = call_action("passport_site_check_list", context={"user": publisher["name"]})

    assert [c["id"] for c in checks] == [newer, older]
    assert checks[1] | {"created": None, "finished": None} == {
        "id": older, "url": SITE, "status": FINISHED, "created": None, "finished": None,
        "passports": 3, "read": 2, "mean_score": 85.5}


def test_the_listed_mean_score_is_the_reports(publisher):
    check_id = finished_check(SITE, publisher, [80, 91, 67])
    report = call_action("passport_site_check_show", id=check_id)["report"]
    [listed_check] = call_action("passport_site_check_list", context={"user": publisher["name"]})
    assert listed_check["mean_score"] == report["summary"]["mean_score"]


def test_a_check_without_a_report_yet_is_listed_without_counts(publisher):
    account = model.User.get(publisher["name"])
    check = add(SITE, "opendata.example.ru", account.id, False)
    [waiting] = call_action("passport_site_check_list", context={"user": publisher["name"]})
    assert (waiting["id"], waiting["status"]) == (check.id, QUEUED)
    assert (waiting["passports"], waiting["read"], waiting["mean_score"]) == (None, None, None)


def test_the_list_of_one_site_holds_only_that_hosts_checks_however_its_address_is_spelt(publisher):
    ours = finished_check(SITE, publisher, [90])
    finished_check(OTHER_SITE, publisher, [70])
    checks = call_action("passport_site_check_list", context={"user": publisher["name"]},
                         url="HTTPS://OpenData.Example.RU./opendata/list.csv")
    assert [c["id"] for c in checks] == [ours]


def test_nobody_is_listed_another_users_checks_not_even_a_sysadmin(publisher):
    finished_check(SITE, publisher, [90])
    for reader in (factories.User(), factories.Sysadmin()):
        assert call_action("passport_site_check_list", context={"user": reader["name"]}, url=SITE) == []


def test_an_anonymous_visitor_is_listed_no_checks(publisher):
    finished_check(SITE, None, [90])
    assert call_action("passport_site_check_list", context={"user": ""}) == []


def test_the_form_lists_the_users_earlier_checks_of_the_site_asked_about_each_linked(web, publisher):
    ours = finished_check(SITE, publisher, [80, 91])
    finished_check(OTHER_SITE, publisher, [70])

    body = web.get("/passport/check", query_string={"url": SITE}, headers=auth(publisher)).body

    assert listed(body) == [ours]
    page = BeautifulSoup(body, "html.parser")
    earlier = page.select_one(".passport-site-check-earlier")
    assert earlier.select_one("h2").text == "Your earlier checks of this site"
    row = earlier.select_one(f"[data-id='{ours}']")
    assert row.select_one("a")["href"] == f"/passport/check/{ours}"
    assert row.select_one("[data-field=mean_score]").text == "85.5"
    assert row.select_one("[data-field=read]").text == "2 of 2"
    assert str(SiteCheck.get(ours).created.year) in row.select_one("a").text


def test_the_form_without_an_address_lists_the_users_checks_of_every_site(web, publisher):
    first = finished_check(SITE, publisher, [90], days_ago=1)
    second = finished_check(OTHER_SITE, publisher, [70])
    page = BeautifulSoup(web.get("/passport/check", headers=auth(publisher)).body, "html.parser")
    assert page.select_one(".passport-site-check-earlier h2").text == "Your earlier checks"
    assert listed(str(page)) == [second, first]


def test_a_report_lists_its_readers_other_checks_of_the_same_site(web, publisher):
    older = finished_check(SITE, publisher, [90], days_ago=1)
    shown = finished_check(SITE, publisher, [95])
    finished_check(OTHER_SITE, publisher, [70])

    page = BeautifulSoup(web.get(f"/passport/check/{shown}", headers=auth(publisher)).body, "html.parser")

    assert page.select_one(".passport-site-check-earlier h2").text == "Your other checks of this site"
    assert listed(str(page)) == [older]


def test_a_report_opened_by_its_link_lists_none_of_its_owners_checks(web, publisher):
    finished_check(SITE, publisher, [90], days_ago=1)
    shared = finished_check(SITE, publisher, [95])
    for headers in ({}, auth(factories.User())):
        body = web.get(f"/passport/check/{shared}", headers=headers).body
        assert BeautifulSoup(body, "html.parser").select_one(".passport-site-check-earlier") is None


def test_the_list_holds_at_most_its_limit_and_refuses_a_limit_that_is_no_number(publisher):
    newest = finished_check(SITE, publisher, [90])
    finished_check(SITE, publisher, [80], days_ago=1)
    context = {"user": publisher["name"]}
    assert [c["id"] for c in call_action("passport_site_check_list", context=context, limit=1)] == [newest]
    with pytest.raises(ValidationError):
        call_action("passport_site_check_list", context=context, limit="many")
