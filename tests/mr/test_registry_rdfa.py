"""The HTML+RDFa /opendata/ registry page, MR 3.0 and MR 2.3 styles."""
from __future__ import annotations

from ckanext.passport.mr.model import RegistryEntry
from ckanext.passport.mr.registry import rdfa

STANDARD = "http://opendata.gosmonitor.ru/standard/3.0"

MR30_REGISTRY = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML+RDFa 1.0//EN" "http://www.w3.org/MarkUp/DTD/xhtml-rdfa-1.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:dc="http://purl.org/dc/terms/"
      xmlns:foaf="http://xmlns.com/foaf/0.1/" version="XHTML+RDFa 1.0" xml:lang="ru">
<head><title>Открытые данные</title></head>
<body>
<div about="/opendata" typeof="dc:Collection">
  <div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>
  <table>
    <tr><th>№</th><th>Наименование</th></tr>
    <tr rel="dc:hasPart"><td>1</td><td typeof="foaf:Document" about="/opendata/7712345678-showrooms"
        property="dc:title" content="Список выставочных залов"><a href="/opendata/7712345678-showrooms">Список
        выставочных залов</a></td></tr>
    <tr rel="dc:hasPart"><td>2</td><td typeof="foaf:Document" about="/opendata/7712345678-museums/"
        property="dc:title" content="Список музеев">Список музеев</td></tr>
    <tr rel="dc:hasPart"><td>3</td><td typeof="foaf:Document" about="/opendata/7712345678-theatres"
        property="dc:title" content="Театры">Театры</td></tr>
  </table>
</div>
</body>
</html>"""


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


def test_mr30_example_registry_entries_in_page_order():
    result = rdfa.parse(MR30_REGISTRY.encode("utf-8"), "http://example.com/opendata/")
    assert result.problems == []
    assert (result.form, result.encoding) == ("rdfa", "utf-8")
    assert result.value.standard_version == STANDARD
    assert result.value.entries == [
        RegistryEntry("7712345678-showrooms", "Список выставочных залов",
                      "http://example.com/opendata/7712345678-showrooms", ""),
        RegistryEntry("7712345678-museums", "Список музеев", "http://example.com/opendata/7712345678-museums/", ""),
        RegistryEntry("7712345678-theatres", "Театры", "http://example.com/opendata/7712345678-theatres", ""),
    ]


def test_collection_is_found_whether_the_page_url_has_a_trailing_slash_or_not():
    for url in ("http://example.com/opendata", "http://example.com/opendata/"):
        result = rdfa.parse(MR30_REGISTRY.encode("utf-8"), url)
        assert len(result.value.entries) == 3


def test_the_collection_named_by_the_page_wins():
    page = """<html><body>
    <div about="/news" typeof="dc:Collection"><a rel="dc:hasPart" href="/news/1">1</a>
      <a rel="dc:hasPart" href="/news/2">2</a><a rel="dc:hasPart" href="/news/3">3</a></div>
    <div about="/opendata/" typeof="dc:Collection"><a rel="dc:hasPart" href="/opendata/1-a">Залы</a></div>
    </body></html>"""
    result = rdfa.parse(page.encode(), "http://example.com/opendata")
    assert [e.identifier for e in result.value.entries] == ["1-a"]


MR23_REGISTRY = """<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head>
<body><div about="/opendata/" typeof="dc:Collection">
<table>
<tr><td>1</td><td><a rel="dc:hasPart" href="7703092752-terorg">Перечень территориальных органов</a></td></tr>
<tr><td>2</td><td><a rel="dc:hasPart" href="/opendata/7703092752-stations/">Станции наблюдения</a></td></tr>
</table></div></body></html>"""


def test_mr23_links_take_their_titles_from_the_link_text_and_resolve_relative_hrefs():
    result = rdfa.parse(MR23_REGISTRY.encode("cp1251"), "http://meteorf.ru/opendata/")
    assert result.encoding == "windows-1251"
    assert result.value.standard_version == ""
    assert result.value.entries == [
        RegistryEntry("7703092752-terorg", "Перечень территориальных органов",
                      "http://meteorf.ru/opendata/7703092752-terorg", ""),
        RegistryEntry("7703092752-stations", "Станции наблюдения",
                      "http://meteorf.ru/opendata/7703092752-stations/", ""),
    ]


def test_plain_html_page_is_an_html_error_page():
    page = "<html><body><h1>403 Forbidden</h1><p>Request blocked by WAF</p></body></html>"
    result = rdfa.parse(page.encode(), "http://example.com/opendata/")
    assert result.value is None
    assert codes(result) == ["registry.html_error_page"]


def test_a_passport_page_is_not_a_registry(read_real):
    data = read_real("predgor/2618017120-politicaldivisions/index.php")
    result = rdfa.parse(data, "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/")
    assert result.value is None
    assert codes(result) == ["registry.html_error_page"]
