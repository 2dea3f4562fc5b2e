"""The IRI rules of the dcat_ap_cz profile (lkod/iris.py), each both ways."""
from __future__ import annotations

import ckan.plugins.toolkit as tk
import pytest

from ckanext.passport.catalog.record import conditions
from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.lkod import iris


def test_every_data_theme_code_and_its_iri_map_both_ways():
    codes = [concept.key for concept in vocab.vocabulary(vocab.DATA_THEMES)]
    assert len(codes) == 14
    for code in codes:
        assert iris.theme_iri(code) == f"http://publications.europa.eu/resource/authority/data-theme/{code}"
        assert iris.theme_code(iris.theme_iri(code)) == code


def test_every_frequency_code_and_its_iri_map_both_ways():
    codes = [concept.key for concept in vocab.vocabulary(vocab.FREQUENCY)]
    assert {"ANNUAL", "MONTHLY", "IRREG", "UNKNOWN", "WEEKLY_3", "UPDATE_CONT"} <= set(codes)
    for code in codes:
        assert iris.frequency_iri(code) == f"http://publications.europa.eu/resource/authority/frequency/{code}"
        assert iris.frequency_code(iris.frequency_iri(code)) == code


def test_an_unknown_theme_or_frequency_has_no_iri_and_no_code():
    assert iris.theme_iri("SPORT") is None
    assert iris.theme_code("http://publications.europa.eu/resource/authority/data-theme/SPORT") is None
    assert iris.frequency_iri("SOMETIMES") is None


def test_the_country_maps_to_ruian_stat_1_and_back():
    assert iris.territory_iri("CZ0") == "https://linked.cuzk.cz/resource/ruian/stat/1"
    assert iris.territory_code("https://linked.cuzk.cz/resource/ruian/stat/1") == "CZ0"


def test_every_region_maps_to_its_vusc_and_back():
    regions = [unit.key for unit in vocab.vocabulary(vocab.SPATIAL_AREA) if unit.kind == "region"]
    assert len(regions) == 14
    for region in regions:
        assert iris.territory_code(iris.territory_iri(region)) == region
    assert iris.territory_iri("CZ010") == iris.RUIAN + "vusc/19"
    assert iris.territory_iri("CZ080") == iris.RUIAN + "vusc/132"


def test_every_district_maps_to_its_region_s_vusc():
    districts = [unit for unit in vocab.vocabulary(vocab.SPATIAL_AREA) if unit.kind == "district"]
    assert districts
    for district in districts:
        assert iris.territory_iri(district.key) == iris.territory_iri(district.parent)


def test_a_ruian_element_below_a_region_has_no_territory_code():
    assert iris.territory_code(iris.RUIAN + "obec/582786") is None
    assert iris.territory_code(iris.RUIAN + "vusc/999") is None
    assert iris.territory_iri("XX0") is None


def test_an_ico_maps_to_its_rpp_iri_and_back():
    iri = iris.publisher_iri("00025593")
    assert iri == "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/00025593"
    assert iris.publisher_ico(iri) == "00025593"
    assert iris.publisher_iri("7708234640") is None


@pytest.mark.parametrize(
    "fmt, code", [("CSV", "CSV"), ("csv", "CSV"), ("GeoJSON", "GEOJSON"), ("ttl", "RDF_TURTLE"), ("JSON-LD", "JSON_LD"),
                  ("xlsx", "XLSX"), ("ZIP", "ZIP"), ("RDF/XML", "RDF_XML")],
)
def test_a_format_maps_to_its_eu_file_type(fmt, code):
    assert iris.format_iri(fmt) == f"http://publications.europa.eu/resource/authority/file-type/{code}"


def test_a_file_type_iri_maps_back_to_the_record_s_format_label():
    assert iris.format_label(iris.format_iri("geojson")) == "GeoJSON"
    assert iris.format_label(str(iris.FILE_TYPE["CSV"])) == "CSV"
    assert iris.format_iri("a nice table") is None


def test_a_mime_type_maps_to_its_iana_iri_and_back():
    assert iris.media_type_iri("text/csv; charset=utf-8") == "http://www.iana.org/assignments/media-types/text/csv"
    assert iris.media_type("http://www.iana.org/assignments/media-types/application/ld+json") == "application/ld+json"
    assert iris.media_type("https://www.iana.org/assignments/media-types/text/csv") == "text/csv"
    assert iris.media_type_iri("not a type") is None


@pytest.mark.parametrize("field", list(iris.CONDITION_VALUES))
def test_each_condition_code_maps_to_its_iri_and_back(field):
    for code, iri in iris.CONDITION_VALUES[field].items():
        assert iris.condition_iri(field, code) == iri
        assert iris.condition_code(field, iri) == code


def test_every_condition_code_the_record_allows_has_an_iri():
    for field, codes in conditions.CHOICES.items():
        assert all(iris.condition_iri(field, code) for code in codes), field


def test_the_portal_s_iris_hang_off_its_site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", "https://portal.example.cz/")
    assert iris.catalog_iri() == "https://portal.example.cz/lkod/catalog"
    assert iris.dataset_iri("abc") == "https://portal.example.cz/lkod/dataset/abc"
    assert iris.distribution_iri("abc", "r1") == "https://portal.example.cz/lkod/dataset/abc/distribution/r1"
    assert iris.service_iri("abc", "r1") == "https://portal.example.cz/lkod/dataset/abc/service/r1"
