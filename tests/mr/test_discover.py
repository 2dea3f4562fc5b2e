"""Registry discovery: the given address read first as a registry of any form, candidate order from a site or
folder address (none from a file address), then real local sites serving registries, HTML error pages with
status 200, and nothing at all."""
from __future__ import annotations

from werkzeug import Response

import json
import shutil
from pathlib import Path

import pytest

from ckanext.passport.mr.discover import discover_registry, given_address, names_file, registry_candidates
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult
from ckanext.passport.mr.problems import from_dict
from ckanext.passport.mr.translation import translator

LOCAL = FetchPolicy(allow_private_addresses=True, retries=0, total_timeout=5)

CYRILLIC_LIST = (
    "/%D0%BE%D1%82%D0%BA%D1%80%D1%8B%D1%82%D1%8B%D0%B5%D0%B4%D0%B0%D0%BD%D0%BD%D1%8B%D0%B5/"
    "%D1%80%D0%B5%D0%B5%D1%81%D1%82%D1%80%D0%BE%D1%82%D0%BA%D1%80%D1%8B%D1%82%D1%8B%D1%85"
    "%D0%B4%D0%B0%D0%BD%D0%BD%D1%8B%D1%85.csv"
)
CYRILLIC_FOLDER = "/%D0%BE%D1%82%D0%BA%D1%80%D1%8B%D1%82%D1%8B%D0%B5%D0%B4%D0%B0%D0%BD%D0%BD%D1%8B%D0%B5/"

LIST_CSV = (
    "property,title,value,format\r\n"
    "standardversion,Версия методических рекомендаций,http://opendata.gosmonitor.ru/standard/3.0,\r\n"
    "7712345678-showrooms,Список выставочных залов,http://example.com/opendata/7712345678-showrooms/meta.csv,csv\r\n"
).encode("utf-8")

LIST_XML = (
    '<?xml version="1.0" encoding="utf-8"?>\n<list><standardversion>http://opendata.gosmonitor.ru/standard/3.0'
    "</standardversion><meta><item><identifier>7712345678-showrooms</identifier><title>Залы</title>"
    "<link>http://example.com/opendata/7712345678-showrooms/meta.xml</link><format>xml</format></item></meta></list>"
).encode("utf-8")

DEMO_SITE = Path(__file__).resolve().parents[2] / "dev" / "demo-site"
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"

NOT_FOUND_PAGE = (
    "<!DOCTYPE html>\n<html><head><title>Страница не найдена</title></head>"
    "<body><h1>404</h1><p>a,b,c;d;e</p></body></html>"
).encode("utf-8")


def test_bare_host_gives_every_mr_location_in_order():
    assert registry_candidates("example.ru") == [
        ("http://example.ru/opendata/list.csv", "list.csv"),
        ("http://opendata.example.ru/list.csv", "list.csv"),
        ("http://example.ru/opendata/opendatalist.csv", "opendatalist.csv"),
        ("http://example.ru/opendata/list.xml", "list.xml"),
        ("http://example.ru/opendata/list.json", "list.json"),
        ("http://example.ru/opendata/", "rdfa"),
        ("http://example.ru" + CYRILLIC_LIST, "opendatalist.csv"),
        ("http://example.ru" + CYRILLIC_FOLDER, "rdfa"),
        ("http://opendata.example.ru/list.xml", "list.xml"),
        ("http://opendata.example.ru/list.json", "list.json"),
    ]


def test_www_is_dropped_for_the_opendata_subdomain_and_the_scheme_kept():
    candidates = registry_candidates("https://www.example.ru/")

    assert candidates[0] == ("https://www.example.ru/opendata/list.csv", "list.csv")
    assert candidates[1] == ("https://opendata.example.ru/list.csv", "list.csv")


def test_site_already_on_the_opendata_subdomain_is_not_prefixed_twice():
    candidates = registry_candidates("http://opendata.predgor-ray.ru")

    assert ("http://opendata.predgor-ray.ru/list.json", "list.json") in candidates
    assert not any("opendata.opendata" in url for url, _ in candidates)


@pytest.mark.parametrize("address", [
    "http://opendata.predgor-ray.ru/list.json", "http://host/index.html", "http://host/opendata/index.php",
    "http://host/exports/reestr-2024.csv", "http://host/index.html?lang=ru",
])
def test_a_file_address_gives_no_candidates_so_nothing_is_appended_to_it(address):
    assert names_file(address)
    assert registry_candidates(address) == []


@pytest.mark.parametrize("address", [
    "example.ru", "http://host/", "http://host/opendata", "http://host/opendata/", "http://host/portal",
    "http://host/v1.0/", "http://host/?page=opendata",
])
def test_a_site_or_folder_address_is_not_a_file(address):
    assert not names_file(address)
    assert registry_candidates(address)


def test_the_registry_folder_stands_for_its_site_and_is_not_a_candidate_of_its_own():
    candidates = registry_candidates("http://example.ru/opendata/")

    assert candidates[0] == ("http://example.ru/opendata/list.csv", "list.csv")
    assert "http://example.ru/opendata/" not in [url for url, _ in candidates]


def test_the_given_address_is_made_a_plain_uri_with_its_query_kept():
    assert given_address("example.ru") == "http://example.ru/"
    assert given_address("http://минкультуры.рф/opendata") == "http://xn--h1aedbgungc5fh.xn--p1ai/opendata"
    assert given_address("https://host/export?format=csv&type=list") == "https://host/export?format=csv&type=list"
    assert given_address("http://") == ""


def test_cyrillic_registry_file_given_decoded_or_encoded_is_one_address():
    for given in ("http://example.ru/открытыеданные/реестроткрытыхданных.csv", "http://example.ru" + CYRILLIC_LIST):
        assert given_address(given) == "http://example.ru" + CYRILLIC_LIST


def test_cyrillic_host_is_idna_encoded():
    candidates = registry_candidates("http://минкультуры.рф")

    assert candidates[0] == ("http://xn--h1aedbgungc5fh.xn--p1ai/opendata/list.csv", "list.csv")
    assert candidates[1] == ("http://opendata.xn--h1aedbgungc5fh.xn--p1ai/list.csv", "list.csv")


def test_site_below_a_path_keeps_its_path():
    candidates = registry_candidates("https://zhabinda.github.io/github_page_example/")

    assert candidates[0] == ("https://zhabinda.github.io/github_page_example/opendata/list.csv", "list.csv")


def test_ip_literal_and_single_label_hosts_get_no_opendata_subdomain():
    for site in ("http://127.0.0.1:8080/", "http://localhost:5000"):
        assert not any("//opendata." in url for url, _ in registry_candidates(site))


def test_unusable_site_address_gives_no_candidates():
    assert registry_candidates("") == []
    assert registry_candidates("http://") == []
    assert registry_candidates("http://host:99999/") == []


def test_site_with_only_list_xml_is_discovered_after_the_missing_files(httpserver):
    httpserver.expect_request("/opendata/list.xml").respond_with_data(LIST_XML, content_type="application/xml")
    httpserver.no_handler_status_code = 404

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert discovery.ok
    assert discovery.url == httpserver.url_for("/opendata/list.xml")
    assert discovery.form == "list.xml"
    assert [e.identifier for e in discovery.registry.entries] == ["7712345678-showrooms"]
    assert [(r.form, [p.code for p in r.problems]) for r in discovery.rejected] == [
        ("", ["fetch.not_found"]),
        ("list.csv", ["fetch.not_found"]),
        ("opendatalist.csv", ["fetch.not_found"]),
    ]
    assert discovery.fetched.content == LIST_XML


def test_html_page_served_with_200_where_csv_is_expected_does_not_count(httpserver):
    httpserver.expect_request("/").respond_with_data(NOT_FOUND_PAGE, content_type="text/html")
    httpserver.expect_request("/opendata/list.csv").respond_with_data(NOT_FOUND_PAGE, content_type="text/html")
    httpserver.expect_request("/opendata/opendatalist.csv").respond_with_data(NOT_FOUND_PAGE, content_type="text/csv")
    httpserver.expect_request("/opendata/list.xml").respond_with_data(LIST_XML)

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert discovery.form == "list.xml"
    assert [(r.form, [p.code for p in r.problems]) for r in discovery.rejected] == [
        ("rdfa", ["registry.candidate_not_registry"]),
        ("list.csv", ["registry.candidate_not_registry"]),
        ("opendatalist.csv", ["registry.candidate_not_registry"]),
    ]
    assert "HTML" in discovery.rejected[1].problems[0].message()


def test_why_a_candidate_is_no_registry_is_told_in_the_reader_s_language(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_data(NOT_FOUND_PAGE, content_type="text/html")

    discovery = discover_registry(httpserver.url_for("/opendata/list.csv"), LOCAL)

    (rejected,) = [found for found in discovery.problems if found.code == "registry.candidate_not_registry"]
    assert rejected.message(translator("cs")) == (
        "na této adrese není registr ve formě rdfa: "
        "Byla přijata stránka HTML bez registru otevřených dat ve formátu RDFa (dc:Collection s dc:hasPart)"
    )
    stored = json.loads(json.dumps(rejected.as_dict()))
    assert from_dict(stored).message(translator("ru")) == (
        "по адресу нет реестра в форме rdfa: "
        "Получена HTML-страница без реестра открытых данных в формате RDFa (dc:Collection с dc:hasPart)"
    )


def test_list_csv_is_preferred_over_later_forms(httpserver):
    httpserver.no_handler_status_code = 404
    httpserver.expect_request("/opendata/list.csv").respond_with_data(LIST_CSV, content_type="text/csv")
    httpserver.expect_request("/opendata/list.xml").respond_with_data(LIST_XML)

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert (discovery.form, [r.url for r in discovery.rejected]) == ("list.csv", [httpserver.url_for("/")])
    assert discovery.registry.entries[0].title == "Список выставочных залов"
    assert len(httpserver.log) == 2


def test_given_registry_url_is_used_directly(httpserver, read_real):
    real_list = read_real("predgor/list.json")
    httpserver.expect_request("/list.json").respond_with_data(real_list, content_type="application/json")

    discovery = discover_registry(httpserver.url_for("/list.json"), LOCAL)

    assert discovery.form == "list.json"
    assert [e.identifier for e in discovery.registry.entries] == [
        "2618017120-politicaldivisions", "2618017120-subdivisions",
    ]
    assert len(httpserver.log) == 1


def test_redirected_registry_reports_its_final_url(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_response(
        Response(status=301, headers={"Location": "/od/list.csv"})
    )
    httpserver.expect_request("/od/list.csv").respond_with_data(LIST_CSV)

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert discovery.url == httpserver.url_for("/od/list.csv")
    assert discovery.form == "list.csv"


def test_site_without_any_registry_is_not_discovered_and_says_why(httpserver):
    httpserver.expect_request("/opendata/").respond_with_data(NOT_FOUND_PAGE, content_type="text/html")
    httpserver.no_handler_status_code = 404

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert not discovery.ok
    assert discovery.registry is None
    assert discovery.problems[0].code == "registry.not_discovered"
    assert discovery.problems[0].location.url == httpserver.url_for("/")
    assert len(discovery.rejected) == 1 + len(registry_candidates(httpserver.url_for("/")))
    page = next(r for r in discovery.rejected if r.url.endswith("/opendata/"))
    assert [p.code for p in page.problems] == ["registry.candidate_not_registry"]
    assert {p.code for p in discovery.problems[1:]} == {"fetch.not_found", "registry.candidate_not_registry"}


def test_default_policy_refuses_a_loopback_site_without_contacting_it(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_data(LIST_CSV)

    discovery = discover_registry(httpserver.url_for("/"))

    assert not discovery.ok
    assert {p.code for r in discovery.rejected for p in r.problems} == {"fetch.refused_address"}
    assert httpserver.log == []


def test_any_fetcher_with_the_fetch_signature_can_be_used():
    asked: list[str] = []

    def offline(url: str, policy: FetchPolicy) -> FetchResult:
        asked.append(url)
        if url.endswith("/opendata/list.csv"):
            return FetchResult(ok=True, url=url, status=200, content=LIST_CSV)
        return FetchResult(ok=False, url=url, status=404)

    discovery = discover_registry("example.ru", fetcher=offline)

    assert asked == ["http://example.ru/", "http://example.ru/opendata/list.csv"]
    assert discovery.registry.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"


# --- the given address read as what it is, on a real local site (tests/support/http_site.py) -------------------------

@pytest.fixture
def demo_copy(tmp_path) -> Path:
    """The bundled demo site (real RDFa registry page at /opendata/index.html, every list file) to rearrange."""
    root = tmp_path / "site"
    shutil.copytree(DEMO_SITE, root)
    return root


def test_a_registry_page_at_index_html_is_read_where_it_is(demo_copy, serve_site):
    shutil.copy(demo_copy / "opendata" / "index.html", demo_copy / "index.html")
    site = serve_site(demo_copy)

    discovery = discover_registry(f"{site.url}/index.html", LOCAL)

    assert (discovery.url, discovery.form) == (f"{site.url}/index.html", "rdfa")
    assert len(discovery.registry.entries) == 6
    assert discovery.registry.entries[0].link == f"{site.url}/opendata/7708234640-okvedva/"
    assert site.hits == ["/index.html"]


def test_a_registry_page_at_the_site_root_is_read_without_probing(demo_copy, serve_site):
    shutil.copy(demo_copy / "opendata" / "index.html", demo_copy / "index.html")
    site = serve_site(demo_copy)

    discovery = discover_registry(site.url, LOCAL)

    assert (discovery.url, discovery.form, len(discovery.registry.entries)) == (f"{site.url}/", "rdfa", 6)
    assert site.hits == ["/"]


def test_a_registry_file_at_an_odd_path_is_read_by_its_content(tmp_path, serve_site):
    (tmp_path / "exports").mkdir()
    shutil.copy(DEMO_SITE / "opendata" / "list.csv", tmp_path / "exports" / "reestr-2024.csv")
    shutil.copy(REAL / "predgor" / "list.json", tmp_path / "exports" / "registry.txt")
    site = serve_site(tmp_path)

    as_csv = discover_registry(f"{site.url}/exports/reestr-2024.csv", LOCAL)
    as_json = discover_registry(f"{site.url}/exports/registry.txt", LOCAL)

    assert (as_csv.form, len(as_csv.registry.entries)) == ("list.csv", 6)
    assert (as_json.form, [e.identifier for e in as_json.registry.entries]) == (
        "list.json", ["2618017120-politicaldivisions", "2618017120-subdivisions"])
    assert site.hits == ["/exports/reestr-2024.csv", "/exports/registry.txt"]


def test_a_file_address_that_is_no_registry_is_not_probed_further(demo_copy, serve_site):
    site = serve_site(demo_copy)
    page = f"{site.url}/opendata/2618017120-politicaldivisions/index.html"

    discovery = discover_registry(page, LOCAL)
    missing = discover_registry(f"{site.url}/index.html", LOCAL)

    assert not discovery.ok and not missing.ok
    assert [p.code for p in discovery.problems] == ["registry.address_not_registry", "registry.candidate_not_registry"]
    assert [p.code for p in missing.problems] == ["registry.address_not_registry", "fetch.not_found"]
    assert site.hits == ["/opendata/2618017120-politicaldivisions/index.html", "/index.html"]


def test_a_site_root_without_a_registry_is_probed_at_the_mr_locations(demo_copy, serve_site):
    (demo_copy / "index.html").write_text("<!DOCTYPE html><html><body><h1>Město</h1></body></html>", "utf-8")
    site = serve_site(demo_copy)

    discovery = discover_registry(f"{site.url}/", LOCAL)

    assert (discovery.url, discovery.form) == (f"{site.url}/opendata/list.csv", "list.csv")
    assert site.hits == ["/", "/opendata/list.csv"]


def test_a_registry_folder_is_read_as_the_page_it_serves_first(demo_copy, serve_site):
    site = serve_site(demo_copy)

    discovery = discover_registry(f"{site.url}/opendata/", LOCAL)

    assert (discovery.url, discovery.form, len(discovery.registry.entries)) == (f"{site.url}/opendata/", "rdfa", 6)
    assert site.hits == ["/opendata/"]
