"""``/opendata/`` and its registry files: every visible publishable dataset, streamed, in each MR form.

The tests read one catalog, published once for the module (test_registry_growth.py adds datasets to an empty one).
"""
from __future__ import annotations

import csv
import io
import json

import pytest
from lxml import etree
from tests.support.publish_shapes import INN, PUBLISH_CONFIG, publish_shape, publisher

from ckanext.passport.mr.registry import csv_list, csv_opendatalist, list_json, list_xml

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins"), *PUBLISH_CONFIG]

SITE = "http://test.ckan.net"
# In the order of the datasets' names (7712345678-budget, 7712345678-showrooms, bus-stops); bus-stops is published
# as <publisher INN>-busstops.
EXPECTED = [
    ("7712345678-budget", "Budget", f"{SITE}/opendata/7712345678-budget", "xml"),
    ("7712345678-showrooms", "Автосалоны", f"{SITE}/opendata/7712345678-showrooms", "csv"),
    (f"{INN}-busstops", "Bus stops", f"{SITE}/opendata/{INN}-busstops", "csv"),
]


@pytest.fixture
def catalog(built_once) -> None:
    """A dataset of every shape, published by the module's first test that reads the catalog (review scope none,
    a mark, makes them public in the index)."""

    def publish_every_shape() -> None:
        org = publisher()
        for shape in ("harvested", "portal", "structures", "empty"):
            publish_shape(org, shape)

    built_once("catalog", publish_every_shape)


def entries(registry):
    return [(e.identifier, e.title, e.link, e.format) for e in registry.entries]


@pytest.mark.usefixtures("catalog")
def test_list_csv_is_rfc4180_with_the_mr_header_and_one_row_per_dataset(web):
    text = web.get("/opendata/list.csv").data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    assert rows[0] == ["property", "title", "value", "format"]
    assert rows[1] == ["standardversion", "Версия методических рекомендаций",
                       "http://opendata.gosmonitor.ru/standard/3.0", ""]
    assert [tuple(row) for row in rows[2:]] == EXPECTED
    assert entries(csv_list.parse(text.encode("utf-8")).value) == EXPECTED


@pytest.mark.usefixtures("catalog")
def test_list_xml_lists_every_publishable_dataset(web):
    body = web.get("/opendata/list.xml").data
    root = etree.fromstring(body)
    assert root.findtext("standardversion") == "http://opendata.gosmonitor.ru/standard/3.0"
    assert [(i.findtext("identifier"), i.findtext("title"), i.findtext("link"), i.findtext("format"))
            for i in root.iter("item")] == EXPECTED
    assert entries(list_xml.parse(body).value) == EXPECTED


@pytest.mark.usefixtures("catalog")
def test_list_json_lists_every_publishable_dataset(web):
    body = web.get("/opendata/list.json").data
    document = json.loads(body)
    assert document["standardversion"] == "http://opendata.gosmonitor.ru/standard/3.0"
    assert [(m["identifier"], m["title"], m["link"], m["format"]) for m in document["meta"]] == EXPECTED
    assert entries(list_json.parse(body).value) == EXPECTED


@pytest.mark.usefixtures("catalog")
def test_opendatalist_csv_is_the_mr_2_3_registry(web):
    text = web.get("/opendata/opendatalist.csv").data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert [row[:3] for row in rows[1:]] == [[str(n), title, link] for n, (_, title, link, _) in
                                             enumerate(EXPECTED, start=1)]
    assert [(e.title, e.link) for e in csv_opendatalist.parse(text.encode("utf-8")).value.entries] == [
        (title, link) for _, title, link, _ in EXPECTED
    ]


@pytest.mark.usefixtures("catalog")
@pytest.mark.parametrize(
    "form, content_type",
    [("list.csv", "text/csv; charset=utf-8"), ("list.xml", "application/xml; charset=utf-8"),
     ("list.json", "application/json; charset=utf-8"), ("opendatalist.csv", "text/csv; charset=utf-8")],
)
def test_registry_files_are_streamed_with_type_name_and_validators(web, form, content_type):
    response = web.get(f"/opendata/{form}")
    assert response.is_streamed
    assert response.headers["Content-Type"] == content_type
    assert response.headers["Content-Disposition"] == f'inline; filename="{form}"'
    assert response.headers["ETag"] and response.headers["Last-Modified"]
    again = web.get(f"/opendata/{form}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.usefixtures("catalog")
@pytest.mark.parametrize("locale, title", [("en", "Open data"), ("cs", "Otevřená data"), ("ru", "Открытые данные")])
def test_registry_page_is_titled_open_data_in_each_language(web, locale, title):
    prefix = "" if locale == "en" else f"/{locale}"
    page = web.get(f"{prefix}/opendata/").data.decode("utf-8")
    assert f"<h1>{title}</h1>" in page
    assert f"<title>{title}" in page


@pytest.mark.usefixtures("catalog")
def test_registry_page_shows_count_formats_and_files(web):
    page = web.get("/opendata/").data.decode("utf-8")
    assert "Datasets: 3" in page
    assert '<th scope="row">CSV</th><td>2</td>' in page
    assert '<th scope="row">XML</th><td>1</td>' in page
    for form in ("list.csv", "list.xml", "list.json", "opendatalist.csv"):
        assert f'href="{SITE}/opendata/{form}"' in page
    assert f'<link rel="alternate" type="text/csv" href="{SITE}/opendata/list.csv"' in page


@pytest.mark.usefixtures("catalog")
def test_registry_page_search_lists_only_matches(web):
    page = web.get("/opendata/", query_string={"q": "Budget"}).data.decode("utf-8")
    assert f'resource="{SITE}/opendata/7712345678-budget"' in page
    assert "7712345678-showrooms" not in page


@pytest.mark.usefixtures("catalog")
@pytest.mark.ckan_config("ckanext.passport.terms_of_use", "Use freely, cite the source.")
def test_registry_page_shows_configured_terms_of_use_text(web):
    assert "Use freely, cite the source." in web.get("/opendata/").data.decode("utf-8")


@pytest.mark.usefixtures("catalog")
@pytest.mark.ckan_config("ckanext.passport.terms_of_use", "https://example.com/terms")
def test_registry_page_links_configured_terms_of_use(web):
    assert 'href="https://example.com/terms"' in web.get("/opendata/").data.decode("utf-8")


BAD_QUERIES = ["title:(", "OR", "AND OR NOT", "{!lucene}x"]


def _whole(page: str) -> None:
    assert 'class="site-footer' in page and page.rstrip().endswith("</html>"), page[-300:]


@pytest.mark.usefixtures("catalog")
@pytest.mark.parametrize("q", BAD_QUERIES)
def test_a_query_the_index_cannot_parse_gives_the_whole_page_with_a_message(web, q):
    """The search is asked before the page is streamed: the page is never cut at <tbody> (issue 24)."""
    response = web.get("/opendata/", query_string={"q": q})
    page = response.data.decode("utf-8")
    assert response.status_code == 200
    _whole(page)
    assert 'class="alert alert-warning opendata-query-error"' in page
    assert "could not be run" in page
    assert "No open data found." not in page
    assert 'rel="dc:hasPart"' not in page


@pytest.mark.usefixtures("catalog")
@pytest.mark.parametrize("locale, words", [("cs", "nelze provést"), ("ru", "не удалось выполнить")])
def test_the_query_message_is_in_the_readers_language(web, locale, words):
    page = web.get(f"/{locale}/opendata/", query_string={"q": "title:("}).data.decode("utf-8")
    _whole(page)
    assert words in page


@pytest.mark.usefixtures("catalog")
def test_the_message_shows_the_query_escaped(web):
    page = web.get("/opendata/", query_string={"q": 'title:( <script>alert(1)</script>'}).data.decode("utf-8")
    _whole(page)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.usefixtures("catalog")
def test_a_search_failing_mid_page_ends_the_list_with_a_message_and_the_footer(web, monkeypatch):
    from ckan.lib.search import SearchError

    from ckanext.passport.publish import search

    real = search.search

    def failing_listing(fq: str = "", **params):
        if params.get("rows") == search.PAGE_ROWS:
            raise SearchError("the index went away")
        return real(fq, **params)

    monkeypatch.setattr(search, "search", failing_listing)
    page = web.get("/opendata/", query_string={"q": "Budget"}).data.decode("utf-8")
    _whole(page)
    assert "The list could not be read to its end." in page
    assert "No open data found." not in page
