"""``/lkod/``: the page for people: what to register, how many records are in, which are left out and why.

The tests read one set of records, made once for the module.
"""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from tests.support.lkod_view_records import CATALOG_URL, LEFT_OUT, LKOD_CONFIG_READ_ONLY, every_kind, token

from ckanext.passport.lkod import eligibility

pytestmark = list(LKOD_CONFIG_READ_ONLY)

# Left out, yet public: what an anonymous visitor may count.
PUBLIC_LEFT_OUT = ("inn-publisher", "no-themes")


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


@pytest.fixture
def records(built_once) -> dict[str, dict]:
    """One record of every kind, made by the module's first test that reads them; no test here changes them."""
    return built_once("records", every_kind)


def page(app, url: str, headers: dict | None = None) -> BeautifulSoup:
    response = app.get(url, headers=headers or {})
    assert response.status_code == 200
    return BeautifulSoup(response.body, "html.parser")


def left_out_rows(soup: BeautifulSoup) -> dict[str, list[tuple[str, str]]]:
    """Record id -> its reasons as (code, message) on the page."""
    return {
        row["data-id"]: [(item["data-code"], item.select_one(".lkod-reason-text").get_text(strip=True))
                         for item in row.select(".lkod-reason")]
        for row in soup.select(".lkod-left-out-record")
    }


def test_the_page_names_the_catalog_url_to_register_and_how_many_records_it_lists(web, records):
    soup = page(web, "/lkod/")

    assert soup.select_one(".lkod-catalog-url").get_text(strip=True) == CATALOG_URL
    assert "1" in soup.select_one(".lkod-listed").get_text()


def test_a_signed_in_reader_sees_each_record_left_out_with_its_reasons_coded(web, records, sysadmin):
    soup = page(web, "/cs/lkod/", token(sysadmin))

    rows = left_out_rows(soup)
    assert sorted(rows) == sorted(records[name]["id"] for name in LEFT_OUT)
    for name in LEFT_OUT:
        expected = [found.code for found in eligibility.reasons(records[name])]
        assert [code for code, _ in rows[records[name]["id"]]] == expected, name
        assert all(said for _, said in rows[records[name]["id"]]), name
    assert soup.select_one("h1").get_text(strip=True) == "Lokální katalog otevřených dat"


@pytest.mark.parametrize("name, code", [("draft", "lkod.unpublished"), ("private", "lkod.private"),
                                        ("inn-publisher", "lkod.no_ico_publisher"),
                                        ("no-themes", "lkod.missing_field")])
def test_each_record_is_left_out_for_its_own_reason(web, records, sysadmin, name, code):
    rows = left_out_rows(page(web, "/lkod/", token(sysadmin)))

    assert code in [found_code for found_code, _ in rows[records[name]["id"]]]


def test_the_anonymous_visitor_sees_counts_and_no_record_left_out(web, records):
    soup = page(web, "/lkod/")

    assert left_out_rows(soup) == {}
    assert str(len(PUBLIC_LEFT_OUT)) in soup.select_one(".lkod-public-left-out").get_text()
    text = soup.get_text()
    assert all(records[name]["title"] not in text for name in LEFT_OUT)


def test_a_reader_sees_only_the_records_left_out_that_they_may_see(web, records):
    stranger = factories.User()

    rows = left_out_rows(page(web, "/lkod/", token(stranger)))

    assert sorted(rows) == sorted(records[name]["id"] for name in PUBLIC_LEFT_OUT)


def test_the_editors_of_a_record_left_out_get_a_link_to_preview_its_document(web, records, sysadmin):
    soup = page(web, "/lkod/", token(sysadmin))

    row = soup.select_one(f'.lkod-left-out-record[data-id="{records["draft"]["id"]}"]')
    assert row.select_one(".lkod-preview")["href"].endswith(f"/lkod/dataset/{records['draft']['id']}")


@pytest.mark.ckan_config("ckanext.passport.lkod.title", "")
def test_the_page_says_which_settings_are_missing(web):
    soup = page(web, "/lkod/")

    assert "ckanext.passport.lkod.title" in soup.select_one(".lkod-missing-settings").get_text()
