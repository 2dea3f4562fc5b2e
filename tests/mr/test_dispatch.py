"""The dispatchers: content decides the form, entries leave checked, passports are found beside links."""
from __future__ import annotations

import io
import json

import pytest

from ckanext.passport.mr.fields import identifier_from_link, structure_name, version_names
from ckanext.passport.mr.model import Problem, RegistryEntry
from ckanext.passport.mr.passport import (
    detect_passport_form,
    looks_like_data_file,
    parse_passport,
    passport_from_entry,
    passport_locations,
)
from ckanext.passport.mr.registry import detect_registry_form, iter_registry, parse_registry

STANDARD = "http://opendata.gosmonitor.ru/standard/3.0"
FEDSTAT_URL = "https://fedstat.ru/opendata/list.xml"
LIST_CSV = ("property,title,value,format\r\n"
            "standardversion,Версия методических рекомендаций,http://opendata.gosmonitor.ru/standard/3.0,\r\n"
            "7712345678-showrooms,Список выставочных залов,http://example.com/opendata/7712345678-showrooms/,csv\r\n")
OPENDATALIST_CSV = "1;Список выставочных залов;http://example.com/opendata/7712345678-showrooms\r\n"
WAF_PAGE = b"<!DOCTYPE html><html><body><h1>Access denied</h1></body></html>"


def list_json(*entries: dict) -> bytes:
    return json.dumps({"standardversion": STANDARD, "meta": list(entries)}, ensure_ascii=False).encode()


def codes(problems) -> list[str]:
    return [p.code for p in problems]


# --- registry form detection -----------------------------------------------------------------------


def test_registry_forms_of_the_real_files(read_real):
    assert detect_registry_form(read_real("fedstat/list.xml"), FEDSTAT_URL) == "list.xml"
    assert detect_registry_form(read_real("predgor/list.json")) == "list.json"


@pytest.mark.parametrize(
    ("data", "url", "form"),
    [
        (LIST_CSV.encode(), "", "list.csv"),
        (OPENDATALIST_CSV.encode(), "", "opendatalist.csv"),
        (OPENDATALIST_CSV.encode(), "http://x/opendata/list.csv", "list.csv"),
        ("1;Залы;http://x/".encode("cp1251"), "http://x/открытыеданные/реестроткрытыхданных.csv", "opendatalist.csv"),
        (b"\xef\xbb\xbf<?xml version='1.0'?><list><meta/></list>", "", "list.xml"),
        (WAF_PAGE, "http://x/opendata/list.xml", "rdfa"),
        (b"  \n", "http://x/opendata/list.xml", None),
        (b"<?xml version='1.0'?><rdf:RDF xmlns:rdf='urn:x'/>", "", None),
    ],
)
def test_registry_form_is_sniffed_from_content_then_name(data, url, form):
    assert detect_registry_form(data, url) == form


def test_html_served_as_list_xml_is_an_html_error_page():
    result = parse_registry(WAF_PAGE, "http://x/opendata/list.xml")
    assert (result.value, result.form) == (None, "rdfa")
    assert codes(result.problems) == ["registry.html_error_page"]


# --- registry parsing through the dispatcher ----------------------------------------------------------


def test_real_fedstat_through_the_dispatcher(read_real):
    result = parse_registry(read_real("fedstat/list.xml"), FEDSTAT_URL)
    assert result.form == "list.xml"
    assert result.problems == []
    assert len(result.value.entries) == 6692


def test_csv_forms_are_dispatched_to_their_readers():
    for data, form in ((LIST_CSV, "list.csv"), (OPENDATALIST_CSV, "opendatalist.csv")):
        result = parse_registry(data.encode(), "http://example.com/opendata/" + form)
        assert result.form == form
        assert [e.identifier for e in result.value.entries] == ["7712345678-showrooms"]


def test_entries_are_checked_links_resolved_identifiers_derived_duplicates_dropped():
    data = list_json(
        {"identifier": "1-a", "title": "A", "link": "/opendata/1-a/meta.json"},
        {"identifier": "", "title": "B", "link": "http://example.com/opendata/1-b/"},
        {"identifier": "1-a", "title": "A again", "link": "/opendata/1-a-copy/"},
        {"identifier": "1-c", "title": "C", "link": ""},
    )
    result = parse_registry(data, "http://example.com/opendata/list.json")
    assert result.value.entries == [
        RegistryEntry("1-a", "A", "http://example.com/opendata/1-a/meta.json", ""),
        RegistryEntry("1-b", "B", "http://example.com/opendata/1-b/", ""),
    ]
    assert codes(result.problems) == [
        "registry.entry_missing_identifier", "registry.duplicate_identifier", "registry.entry_missing_link",
    ]


def test_a_registry_without_entries_is_empty():
    result = parse_registry(list_json(), "http://example.com/opendata/list.json")
    assert result.value.entries == []
    assert codes(result.problems) == ["registry.empty"]


def test_empty_bytes_are_an_empty_registry():
    result = parse_registry(b"", "http://example.com/opendata/list.xml")
    assert result.value is None
    assert codes(result.problems) == ["registry.empty"]


def test_iter_registry_streams_a_seekable_list_xml_file(read_real):
    stream = iter_registry(io.BytesIO(read_real("fedstat/list.xml")), FEDSTAT_URL)
    first = next(stream)
    assert stream.form == "list.xml"
    assert stream.standard_version == STANDARD
    assert first.identifier == "7708234640-threeasixanineaeightafour"
    assert sum(1 for item in stream if isinstance(item, RegistryEntry)) == 6691


def test_iter_registry_reads_small_forms_whole_with_the_same_checks():
    data = list_json({"identifier": "1-a", "title": "A", "link": "/opendata/1-a/"},
                     {"identifier": "1-a", "title": "A", "link": "/opendata/1-a/"})
    stream = iter_registry(data, "http://example.com/opendata/list.json")
    items = list(stream)
    assert stream.standard_version == STANDARD
    assert [type(i) for i in items] == [Problem, RegistryEntry]
    assert items[0].code == "registry.duplicate_identifier"
    assert items[1].link == "http://example.com/opendata/1-a/"


# --- passport form detection and parsing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("predgor/2618017120-politicaldivisions/meta.json", "meta.json"),
        ("predgor/2618017120-politicaldivisions/index.php", "rdfa"),
        ("rosstat-okved2/meta.csv", "meta.csv"),
        ("meteorf-terorg/meta.csv", "mr23.csv"),
    ],
)
def test_passport_forms_of_the_real_files(read_real, path, form):
    assert detect_passport_form(read_real(path), "http://x/" + path) == form


@pytest.mark.parametrize(
    ("data", "url", "form"),
    [
        (b'<?xml version="1.0"?>\n<meta><identifier>1-a</identifier></meta>', "", "meta.xml"),
        (b"<meta charset='utf-8'><title>page</title>", "", "rdfa"),
        (b"<meta>\n<standardversion>x</standardversion></meta>", "", "meta.xml"),
        (b'"property","value"\n"standardversion","x"', "", "meta.csv"),
        (b"identifier,1-a\n", "", "meta.csv"),
        ("№,Характеристика,Значение\n".encode("cp1251"), "http://x/meta.csv", "mr23.csv"),
        (b"Access denied", "http://x/opendata/1-a/meta.json", "meta.json"),
        (b"Access denied", "http://x/opendata/1-a/meta.csv", "meta.csv"),
        (b"Access denied", "http://x/opendata/1-a/", "meta.csv"),
        (b"", "http://x/opendata/1-a/meta.json", None),
        (b"<?xml version='1.0'?><list/>", "", None),
    ],
)
def test_passport_form_is_sniffed_from_content_then_name(data, url, form):
    assert detect_passport_form(data, url) == form


def test_text_served_as_html_is_read_as_an_rdfa_page():
    assert detect_passport_form(b"Access denied", "http://x/1-a/meta.csv", "text/html; charset=utf-8") == "rdfa"


def test_parse_passport_dispatches_by_content(read_real):
    result = parse_passport(read_real("predgor/2618017120-politicaldivisions/index.php"),
                            "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/")
    assert result.form == "rdfa"
    assert result.value.identifier == "2618017120-politicaldivisions"


def test_parse_passport_of_nothing_is_empty():
    result = parse_passport(b"\n", "http://x/1-a/meta.json")
    assert result.value is None
    assert codes(result.problems) == ["passport.empty"]


def test_parse_passport_of_an_unknown_form_says_so():
    result = parse_passport(b"<?xml version='1.0'?><list/>")
    assert result.value is None
    assert codes(result.problems) == ["passport.unknown_form"]


# --- where passports are -------------------------------------------------------------------------------

FOLDER = "http://example.com/opendata/7712345678-showrooms/"


def test_locations_beside_an_mr30_passport_file_link():
    assert passport_locations(FOLDER + "meta.xml") == [
        ("meta.xml", FOLDER + "meta.xml"),
        ("meta.json", FOLDER + "meta.json"),
        ("meta.csv", FOLDER + "meta.csv"),
        ("rdfa", FOLDER),
    ]


def test_locations_of_an_mr30_folder_link():
    assert passport_locations(FOLDER) == [
        ("meta.json", FOLDER + "meta.json"),
        ("meta.xml", FOLDER + "meta.xml"),
        ("meta.csv", FOLDER + "meta.csv"),
        ("rdfa", FOLDER),
    ]


def test_locations_of_an_mr23_page_link():
    page = FOLDER.rstrip("/")
    assert passport_locations(page) == [
        ("rdfa", page),
        ("meta.json", FOLDER + "meta.json"),
        ("meta.xml", FOLDER + "meta.xml"),
        ("meta.csv", FOLDER + "meta.csv"),
        ("mr23.csv", page + ".csv"),
    ]


def test_locations_of_an_mr23_file_passport_link():
    page = FOLDER.rstrip("/")
    assert passport_locations(page + ".csv") == [("mr23.csv", page + ".csv"), ("rdfa", page)]


def test_a_data_file_link_has_no_passport_locations():
    assert passport_locations(FOLDER + "data-20130601T0000-structure-20130401T0000.xml") == []


@pytest.mark.parametrize(
    ("link", "format", "expected"),
    [
        ("https://fedstat.ru/opendata/7708234640-x/data-2016-04-21-structure-2016-04-21.xml", "xml", True),
        ("http://x/opendata/1-a/data_20140930_structure_1_20140930.csv.CSV", "", True),
        ("http://x/opendata/1-a/dataset.zip", "", True),
        ("http://x/opendata/1-a/table.xlsx", "xlsx", True),
        ("http://x/opendata/1-a/meta.csv", "csv", False),
        ("http://x/opendata/1-a/", "csv", False),
        ("http://x/opendata/1-a.csv", "csv", False),
    ],
)
def test_looks_like_data_file(link, format, expected):
    assert looks_like_data_file(link, format) is expected


def test_passport_from_a_fedstat_entry_is_minimal_and_says_why(read_real):
    entry = parse_registry(read_real("fedstat/list.xml"), FEDSTAT_URL).value.entries[0]
    result = passport_from_entry(entry, FEDSTAT_URL)
    passport = result.value
    assert passport.identifier == "7708234640-threeasixanineaeightafour"
    assert passport.title.startswith("Количество адвокатов")
    assert passport.format == "xml"
    assert len(passport.data_versions) == 1
    version = passport.data_versions[0]
    assert (version.source, version.version, version.structure_version, version.format) == (
        entry.link, "2016-04-21", "2016-04-21", "xml")
    assert codes(result.problems) == ["passport.link_is_data_file"]
    assert result.form == "registry-entry"


# --- names read from file links ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "names"),
    [
        ("http://x/1-a/data-20130601T0000-structure-20130401T0000.xml", ("20130601T0000", "20130401T0000")),
        ("http://x/1-a/data-2016-04-21-structure-2016-04-21.xml", ("2016-04-21", "2016-04-21")),
        ("http://x/1-a/data-1-structure-1.csv", ("1", "1")),
        ("http://x/1-a/data_20140930_structure_1_20140930.csv.CSV", ("20140930", "1")),
        ("http://x/1-a/data-1-strucrure-1.csv", ("1", "1")),
        ("http://x/1-a/data-10122025-structure-10062025.json", ("10122025", "10062025")),
        ("http://x/1-a/meta.json", ("", "")),
    ],
)
def test_version_names_from_data_file_links(link, names):
    assert version_names(link) == names


def test_structure_names_and_identifiers_from_links():
    # MR 2.3's structure-<number>-<date>: the version is the number, which its data files cite.
    assert structure_name("http://x/1-a/structure-1-2013-07-15.csv") == "1"
    assert identifier_from_link("http://x/opendata/1-a/structure-1.csv") == "1-a"
    assert identifier_from_link("http://x/opendata/7710349494-mfclist.csv") == "7710349494-mfclist"
    assert identifier_from_link("/opendata/7712345678-showrooms/") == "7712345678-showrooms"
