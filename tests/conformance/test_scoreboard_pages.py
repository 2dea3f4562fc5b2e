"""The scoreboard's pages over jobs' summaries written directly (the pages, not the arithmetic: test_scoreboard.py
has that): the table in the reader's language, its sort links, search, period and pages; the CSV and JSON equal to
the action's rows; a publisher's page and its Atom feed; who sees what; hostile names escaped; the links to it.

Rosstat publishes through two public sources, a town hall through one, 24 villages through one each (a second page),
a publisher with a hostile name, one whose name is a spreadsheet formula, and a ministry through a private source.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.plugins import toolkit
from ckan.tests import factories
from ckanext.harvest.model import HarvestSource
from tests.support.scoreboard_rows import NOW, add_source, add_summary

from ckanext.passport.conformance.harvest.views import meaning
from ckanext.passport.conformance.scoreboard.views import CSV_COLUMNS, PAGE_SIZE
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once", "shared_plugins")]

ROSSTAT = "7708234640"
SECRET = "7703092752"
HOSTILE = '<script>alert("board")</script> & Co'
FORMULA = "=HYPERLINK(\"http://evil.example\") Ltd"
ATOM = "{http://www.w3.org/2005/Atom}"
VILLAGES = 24


@pytest.fixture(scope="module")
def board(stack_once) -> dict[str, Any]:
    town = factories.Organization(title="Town hall")
    statistics = add_source("rosstat-statistics", title="Statistics")
    registers = add_source("rosstat-registers", title="Registers")
    add_summary(statistics, ROSSTAT, 40, 50.0, name="Rosstat")
    add_summary(statistics, ROSSTAT, 10, 60.0, name="Rosstat", codes={"csv.empty": 1})
    newest = add_summary(statistics, ROSSTAT, 1, 70.0, name="Rosstat",
                         codes={"csv.empty": 2, "csv.html_instead_of_csv": 3})
    add_summary(registers, ROSSTAT, 2, 90.0, listed=30, conformant=20, name="Rosstat")
    town_source = add_source("town-hall", owner_org=town["id"])
    add_summary(town_source, f"org:{town['id']}", 20, 60.0, name="Town hall")
    add_summary(town_source, f"org:{town['id']}", 1, 40.0, name="Town hall")
    for number in range(VILLAGES):
        village = add_source(f"village-{number:02}")
        add_summary(village, f"org:village-{number:02}", 3, 20.0 + number, name=f"Village {number:02}")
    hostile = add_source("hostile-publisher")
    add_summary(hostile, "1234567890", 1, 10.0, name=HOSTILE, codes={"csv.empty": 1})
    formula = add_source("formula-publisher")
    add_summary(formula, "org:formula", 1, 15.0, name=FORMULA)
    secret = add_source("secret-ministry", private=True)
    add_summary(secret, SECRET, 3, 99.0, listed=3, name="Secret ministry")
    overdue = HarvestSource.get(add_source("daily-never-harvested", title="Daily never harvested"))
    overdue.frequency, overdue.created = "DAILY", NOW - dt.timedelta(days=3)
    overdue.save()
    model.Session.commit()
    return {"sysadmin": factories.SysadminWithToken(), "town": town, "newest": newest.job_id,
            "statistics": statistics}


def _action(**params: Any) -> dict[str, Any]:
    return toolkit.get_action("passport_scoreboard")({"user": "", "ignore_auth": False}, {"limit": 500, **params})


def _page(app, url: str, status: int = 200, headers: Any = None) -> BeautifulSoup:
    response = app.get(url, headers=headers or {})
    assert response.status_code == status, BeautifulSoup(response.body, "html.parser").select_one("main, #content, body").get_text(" ", strip=True)[:1500]
    return BeautifulSoup(response.body, "html.parser")


def _publishers(page: BeautifulSoup) -> list[str]:
    return [row["data-publisher"] for row in page.select("tr.passport-scoreboard-row")]


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_the_table_shows_each_publisher_linked_with_its_codes_in_the_reader_s_language(web, board, lang):
    prefix = "" if lang == "en" else f"/{lang}"
    page = _page(web, f"{prefix}/passport/scoreboard")
    assert page.html["lang"].startswith(lang)
    rosstat = page.select_one(f'tr[data-publisher="{ROSSTAT}"]')
    link = rosstat.select_one("a.passport-scoreboard-publisher")
    assert link.get_text(strip=True) == "Rosstat"
    assert link["href"] == f"{prefix}/passport/scoreboard/publisher/{ROSSTAT}"
    codes = rosstat.select_one(".passport-scoreboard-codes").get_text(" ", strip=True)
    said = meaning("csv.html_instead_of_csv", translator(lang))
    assert "csv.html_instead_of_csv" in codes and said and said in codes
    assert rosstat.select_one('[data-field="mean_score"]').get_text(strip=True) == "85.0"
    assert rosstat.select_one(".passport-scoreboard-trend svg polyline") is not None


def test_the_rows_are_the_actions_first_page_in_its_order(web, board):
    page = _page(web, "/passport/scoreboard")
    assert _publishers(page) == [row["publisher"] for row in _action(limit=PAGE_SIZE)["rows"]]
    assert SECRET not in _publishers(page)


def test_sorting_by_change_orders_the_rows_and_its_header_then_reverses(web, board):
    page = _page(web, "/passport/scoreboard?sort=change&q=o&period=week")
    assert _publishers(page) == [row["publisher"] for row in _action(sort="change", q="o", period="week")["rows"]]
    header = page.select_one('th[data-sort="change"]')
    assert header["aria-sort"] == "descending"
    href = header.a["href"]
    assert "sort=-change" in href and "q=o" in href and "period=week" in href
    name_href = page.select_one('th[data-sort="name"] a')["href"]
    assert "sort=name" in name_href and "q=o" in name_href and "page=" not in name_href
    month_href = page.select_one('a.passport-scoreboard-period[data-period="month"]')["href"]
    assert "sort=change" in month_href and "q=o" in month_href and "period" not in month_href


def test_a_search_shows_only_the_publishers_whose_name_has_the_words(web, board):
    assert _publishers(_page(web, "/passport/scoreboard?q=town")) == [f"org:{board['town']['id']}"]


def test_the_period_changes_the_change_column(web, board):
    def change(period: str) -> str:
        page = _page(web, f"/passport/scoreboard?q=town&period={period}")
        return page.select_one('[data-field="change"]').get_text(strip=True)

    # Town hall: 40 now; 60 twenty days ago (before the week, within the month).
    assert (change("week"), change("month")) == ("-20.0", "—")


def test_the_second_page_has_the_rest_and_ckan_s_pager_links_it(web, board):
    first = _page(web, "/passport/scoreboard?sort=name")
    pager = first.select_one(".pagination")
    assert pager is not None and pager.find("a", href=re.compile(r"page=2")) is not None
    second = _page(web, "/passport/scoreboard?sort=name&page=2")
    everyone = [row["publisher"] for row in _action(sort="name")["rows"]]
    assert _publishers(second) == everyone[PAGE_SIZE:2 * PAGE_SIZE] and _publishers(second)


@pytest.mark.parametrize("query", ["sort=cheapest", "period=year", "page=nine", "page=0",
                                   "page=" + "9" * 20])  # its offset overflowed PostgreSQL's bigint: a 500 (issue 37)
def test_a_bad_parameter_is_the_default_page_with_its_message_and_status_400(web, board, query):
    page = _page(web, f"/passport/scoreboard?{query}", status=400)
    assert page.select_one(".passport-scoreboard-error").get_text(strip=True)
    assert _publishers(page) and "Traceback" not in str(page)


@pytest.mark.parametrize("download", ["scoreboard.csv", "scoreboard.json"])
def test_a_download_with_a_bad_parameter_is_400_with_a_readable_message(web, board, download):
    response = web.get(f"/passport/{download}?sort=cheapest", status=400)
    assert "sort" in response.body and "score, change" in response.body


def test_the_csv_is_every_matching_row_of_the_action(web, board):
    response = web.get("/passport/scoreboard.csv?sort=change&period=week")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    text = response.body
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert tuple(rows[0]) == CSV_COLUMNS
    expected = _action(sort="change", period="week")["rows"]
    assert len(expected) > PAGE_SIZE
    assert [row[0] for row in rows[1:]] == [row["publisher"] for row in expected]
    rosstat = next(row for row in rows if row[0] == ROSSTAT)
    assert rosstat[1:9] == ["Rosstat", "rosstat-registers; rosstat-statistics", "40", "40", "20", "85.0", "25.0",
                            "csv.html_instead_of_csv:3; csv.empty:2"]


def test_harvested_text_that_a_spreadsheet_would_run_is_quoted_in_the_csv(web, board):
    rows = list(csv.reader(io.StringIO(web.get("/passport/scoreboard.csv?q=hyperlink").body[1:])))
    assert rows[1][1] == "'" + FORMULA


def test_the_json_is_the_action_s_answer_with_every_row(web, board):
    response = web.get("/passport/scoreboard.json?q=village&sort=-score")
    assert response.json == _action(q="village", sort="-score")
    assert response.json["count"] == VILLAGES


def test_a_publisher_s_page_lists_its_sources_history_and_findings_with_its_feed(web, board):
    page = _page(web, f"/ru/passport/scoreboard/publisher/{ROSSTAT}")
    sources = {item["data-source"]: item.a["href"] for item in page.select(".passport-scoreboard-sources li")}
    assert sources == {"rosstat-registers": "/ru/harvest/rosstat-registers/conformance",
                       "rosstat-statistics": "/ru/harvest/rosstat-statistics/conformance"}
    jobs = page.select("tr.passport-scoreboard-job")
    assert len(jobs) == 4 and jobs[0]["data-job"] == board["newest"]
    assert jobs[0].a["href"] == f"/ru/harvest/rosstat-statistics/conformance?job_id={board['newest']}"
    assert page.select_one(".passport-chart-history svg polyline") is not None
    codes = {row["data-code"]: row.get_text(" ", strip=True) for row in
             page.select(".passport-scoreboard-publisher-codes tr[data-code]")}
    assert set(codes) == {"csv.empty", "csv.html_instead_of_csv"}
    assert meaning("csv.empty", translator("ru")) in codes["csv.empty"]
    alternate = page.find("link", rel="alternate", type="application/atom+xml")
    assert alternate["href"] == f"/ru/passport/scoreboard/publisher/{ROSSTAT}/feed.atom"


@pytest.mark.parametrize("key", ["0000000000", "org:nobody", SECRET])
def test_an_unknown_or_private_publisher_is_404_for_a_visitor(web, board, key):
    web.get(f"/passport/scoreboard/publisher/{key}", status=404)
    web.get(f"/passport/scoreboard/publisher/{key}/feed.atom", status=404)


def test_a_sysadmin_sees_the_private_source_s_publisher(web, board):
    headers = {"Authorization": board["sysadmin"]["token"]}
    assert SECRET in _publishers(_page(web, "/passport/scoreboard?q=secret", headers=headers))
    _page(web, f"/passport/scoreboard/publisher/{SECRET}", headers=headers)


def test_the_harvest_health_is_a_section_for_sysadmins_only(web, board):
    assert _page(web, "/passport/scoreboard").select_one(".passport-scoreboard-health") is None
    user = factories.UserWithToken()
    assert _page(web, "/passport/scoreboard", headers={"Authorization": user["token"]}).select_one(
        ".passport-scoreboard-health") is None
    page = _page(web, "/cs/passport/scoreboard", headers={"Authorization": board["sysadmin"]["token"]})
    row = page.select_one('.passport-scoreboard-health tr[data-source="daily-never-harvested"]')
    assert row["data-state"] == "overdue" and "harvest.source_overdue" in row.get_text()
    assert row.a["href"] == "/cs/harvest/daily-never-harvested"


def _feed(app, url: str) -> ET.Element:
    response = app.get(url)
    assert response.headers["Content-Type"].startswith("application/atom+xml")
    return ET.fromstring(response.body.encode("utf-8"))


def test_the_feed_has_an_entry_per_job_that_brought_new_codes_newest_first(web, board):
    feed = _feed(web, f"/passport/scoreboard/publisher/{ROSSTAT}/feed.atom")
    for name in ("id", "title", "updated", "author/" + ATOM + "name"):
        assert feed.find(ATOM + name).text
    links = {link.get("rel"): link.get("href") for link in feed.findall(ATOM + "link")}
    assert links["self"].endswith(f"/passport/scoreboard/publisher/{ROSSTAT}/feed.atom")
    assert links["alternate"].endswith(f"/passport/scoreboard/publisher/{ROSSTAT}")
    entries = feed.findall(ATOM + "entry")
    # The statistics source's job of 10 days ago brought csv.empty, yesterday's csv.html_instead_of_csv; the
    # registers source's only job brought nothing.
    assert [entry.find(ATOM + "link").get("href").rsplit("job_id=", 1)[1] for entry in entries][0] == board["newest"]
    assert len(entries) == 2
    assert entries[0].find(ATOM + "id").text == f"urn:uuid:{board['newest']}"
    assert "csv.html_instead_of_csv (3)" in entries[0].find(ATOM + "summary").text
    assert "csv.empty" not in entries[0].find(ATOM + "summary").text
    assert entries[0].find(ATOM + "updated").text.endswith("Z")
    assert feed.find(ATOM + "updated").text == entries[0].find(ATOM + "updated").text


def test_the_feed_speaks_the_language_of_its_locale_prefix(web, board):
    feed = _feed(web, f"/cs/passport/scoreboard/publisher/{ROSSTAT}/feed.xml")
    assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == "cs"
    assert meaning("csv.html_instead_of_csv", translator("cs")) in feed.find(ATOM + "entry/" + ATOM + "summary").text


def test_a_hostile_publisher_name_is_escaped_on_every_page_and_in_the_feed(web, board):
    for url in ("/passport/scoreboard?q=script", "/passport/scoreboard/publisher/1234567890"):
        body = web.get(url).body
        assert "<script>alert(" not in body and "&lt;script&gt;alert(" in body
    feed = _feed(web, "/passport/scoreboard/publisher/1234567890/feed.atom")
    assert feed.find(ATOM + "title").text.startswith(HOSTILE)


def test_the_site_header_links_the_scoreboard(web, board):
    page = _page(web, "/ru/dataset/")
    assert page.select_one('header a[href="/ru/passport/scoreboard"]') is not None


def test_the_opendata_page_links_the_scoreboard(web, board):
    page = _page(web, "/opendata/")
    assert page.select_one('.passport-opendata-scoreboard a[href="/passport/scoreboard"]') is not None



def test_control_characters_in_an_organization_or_source_title_leave_the_feed_well_formed(web, board):
    """XML 1.0 holds no C0 control character but tab, LF and CR: a title carrying one made the feed ill-formed
    (issue 37). The source is private, so that the other tests' rows stay as they are."""
    organization = factories.Organization(title="Control\x01characters\x0b office")
    source = add_source("control-characters", owner_org=organization["id"], private=True,
                        title="Source\x01with\x0bcontrols")
    key = f"org:{organization['id']}"
    add_summary(source, key, 1, 50.0, name="Control\x01characters\x0b office", codes={"csv.empty": 1})
    response = web.get(f"/passport/scoreboard/publisher/{key}/feed.atom",
                       headers={"Authorization": board["sysadmin"]["token"]})
    feed = ET.fromstring(response.body.encode("utf-8"))
    assert feed.find(ATOM + "title").text.startswith("Controlcharacters office")
    assert feed.find(ATOM + "entry/" + ATOM + "title").text.startswith("Sourcewithcontrols")
