"""Registry discovery: candidate order from a bare site address, then real local sites serving registries,
HTML error pages with status 200, and nothing at all."""
from __future__ import annotations

from werkzeug import Response

from ckanext.passport.mr.discover import discover_registry, registry_candidates
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult

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


def test_url_naming_a_registry_file_is_tried_first_with_its_form():
    candidates = registry_candidates("http://opendata.predgor-ray.ru/list.json")

    assert candidates[0] == ("http://opendata.predgor-ray.ru/list.json", "list.json")
    assert candidates[1] == ("http://opendata.predgor-ray.ru/opendata/list.csv", "list.csv")
    assert len(candidates) == len(set(candidates))


def test_url_naming_the_registry_page_is_tried_first_as_rdfa_and_not_repeated():
    candidates = registry_candidates("http://example.ru/opendata/")

    assert candidates[0] == ("http://example.ru/opendata/", "rdfa")
    assert [url for url, _ in candidates].count("http://example.ru/opendata/") == 1
    assert ("http://example.ru/opendata/list.csv", "list.csv") in candidates


def test_cyrillic_registry_file_given_decoded_or_encoded_is_recognised():
    for given in ("http://example.ru/открытыеданные/реестроткрытыхданных.csv", "http://example.ru" + CYRILLIC_LIST):
        assert registry_candidates(given)[0] == ("http://example.ru" + CYRILLIC_LIST, "opendatalist.csv")


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
        ("list.csv", ["fetch.not_found"]),
        ("opendatalist.csv", ["fetch.not_found"]),
    ]
    assert discovery.fetched.content == LIST_XML


def test_html_page_served_with_200_where_csv_is_expected_does_not_count(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_data(NOT_FOUND_PAGE, content_type="text/html")
    httpserver.expect_request("/opendata/opendatalist.csv").respond_with_data(NOT_FOUND_PAGE, content_type="text/csv")
    httpserver.expect_request("/opendata/list.xml").respond_with_data(LIST_XML)

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert discovery.form == "list.xml"
    assert [(r.form, [p.code for p in r.problems]) for r in discovery.rejected] == [
        ("list.csv", ["registry.candidate_not_registry"]),
        ("opendatalist.csv", ["registry.candidate_not_registry"]),
    ]
    assert "HTML" in discovery.rejected[0].problems[0].message_en


def test_list_csv_is_preferred_over_later_forms(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_data(LIST_CSV, content_type="text/csv")
    httpserver.expect_request("/opendata/list.xml").respond_with_data(LIST_XML)

    discovery = discover_registry(httpserver.url_for("/"), LOCAL)

    assert (discovery.form, discovery.rejected) == ("list.csv", [])
    assert discovery.registry.entries[0].title == "Список выставочных залов"
    assert len(httpserver.log) == 1


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
    assert len(discovery.rejected) == len(registry_candidates(httpserver.url_for("/")))
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

    assert asked == ["http://example.ru/opendata/list.csv"]
    assert discovery.registry.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
