"""MR 3.0 list.xml (streamed) and list.json registries."""
from __future__ import annotations

import io
import json

from ckanext.passport.mr.model import Problem, RegistryEntry
from ckanext.passport.mr.registry import list_json, list_xml

FEDSTAT = "fedstat/list.xml"
FEDSTAT_URL = "https://fedstat.ru/opendata/list.xml"
PREDGOR = "predgor/list.json"
STANDARD = "http://opendata.gosmonitor.ru/standard/3.0"


class CountingReader(io.RawIOBase):
    """A file that remembers how far it has been read."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)
        self.consumed = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        self.consumed += len(chunk)
        return len(chunk)


def list_xml_bytes(items: str, standard: str = STANDARD) -> bytes:
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<list><standardversion>{standard}</standardversion>'
            f"<meta>{items}</meta></list>").encode("utf-8")


def item(identifier: str, title: str = "Залы", link: str = "") -> str:
    link = link or f"http://example.com/opendata/{identifier}/meta.xml"
    return (f"<item><identifier>{identifier}</identifier><title>{title}</title><link>{link}</link>"
            "<format>XML</format></item>")


def test_real_fedstat_registry_has_all_6692_entries(read_real):
    result = list_xml.parse(read_real(FEDSTAT), FEDSTAT_URL)
    assert result.problems == []
    assert (result.form, result.encoding) == ("list.xml", "utf-8")
    assert result.value.standard_version == STANDARD
    assert len(result.value.entries) == 6692
    assert len({e.identifier for e in result.value.entries}) == 6692


def test_real_fedstat_first_entry_has_its_leading_whitespace_stripped(read_real):
    first = list_xml.parse(read_real(FEDSTAT), FEDSTAT_URL).value.entries[0]
    assert first.identifier == "7708234640-threeasixanineaeightafour"
    assert first.title == ("Количество адвокатов, имеющих действующий статус "
                           "(по состоянию на конец отчетного периода)")
    assert first.link == ("https://fedstat.ru/opendata/7708234640-threeasixanineaeightafour/"
                          "data-2016-04-21-structure-2016-04-21.xml")
    assert first.format == "xml"


def test_real_fedstat_last_entry(read_real):
    last = list_xml.parse(read_real(FEDSTAT), FEDSTAT_URL).value.entries[-1]
    assert last.identifier == "7708234640-fiveanineafourasevenatwo"
    assert last.title.startswith("Эффективность мер поддержки промышленного экспорта")


def test_real_fedstat_is_streamed_not_read_whole(read_real):
    data = read_real(FEDSTAT)
    reader = CountingReader(data)
    entries = list_xml.iter_entries(io.BufferedReader(reader, buffer_size=16384), FEDSTAT_URL)
    first = next(entries)
    assert isinstance(first, RegistryEntry)
    assert entries.standard_version == STANDARD
    assert reader.consumed < len(data) // 10
    assert sum(1 for _ in entries) == 6691


def test_titles_and_fields_are_stripped_and_format_lower_cased():
    items = list(list_xml.iter_entries(list_xml_bytes(item("1-a", title="\n   Залы  "))))
    assert items == [RegistryEntry("1-a", "Залы", "http://example.com/opendata/1-a/meta.xml", "xml")]


def test_wrong_case_standard_is_canonical_with_a_warning():
    entries = list_xml.iter_entries(list_xml_bytes(item("1-a"), standard="http://OpenData.gosmonitor.ru/standard/3.0"))
    items = list(entries)
    assert entries.standard_version == STANDARD
    assert [i.code for i in items if isinstance(i, Problem)] == ["registry.standard_version_variant"]


def test_file_broken_midway_keeps_the_entries_before_the_break():
    data = list_xml_bytes(item("1-a") + item("1-b"))[:-10]
    result = list_xml.parse(data)
    assert [e.identifier for e in result.value.entries] == ["1-a", "1-b"]
    assert [p.code for p in result.problems] == ["xml.not_well_formed"]


def test_file_broken_before_any_entry_has_no_value():
    result = list_xml.parse(b"<list><meta><item>")
    assert result.value is None
    assert [p.code for p in result.problems] == ["xml.not_well_formed"]


def test_well_formed_list_without_items_is_an_empty_registry():
    result = list_xml.parse(list_xml_bytes(""))
    assert result.value.entries == []
    assert result.value.standard_version == STANDARD


def test_real_predgor_list_json(read_real):
    result = list_json.parse(read_real(PREDGOR), "http://opendata.predgor-ray.ru/list.json")
    assert result.problems == []
    assert (result.form, result.encoding) == ("list.json", "utf-8")
    assert result.value.standard_version == STANDARD
    assert [(e.identifier, e.link, e.format) for e in result.value.entries] == [
        ("2618017120-politicaldivisions", "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/meta.json",
         "json"),
        ("2618017120-subdivisions", "http://opendata.predgor-ray.ru/2618017120-subdivisions/meta.json", "json"),
    ]
    assert result.value.entries[1].title.startswith("Перечень структурных подразделений")


def test_list_json_keys_are_read_loosely():
    document = {"Standard Version": STANDARD, "meta": [{"Identifier": "1-a", "title": " Залы ", "link": "x"}]}
    result = list_json.parse(json.dumps(document).encode())
    assert result.value.standard_version == STANDARD
    assert result.value.entries == [RegistryEntry("1-a", "Залы", "x", "")]


def test_damaged_list_json_is_salvaged():
    damaged = """{"standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
    "meta": [{"identifier": "1-a", "title": "A", "link": "http://x/1-a/meta.json", "format": "json"
    {"identifier": "1-b", "title": "B", "link": "http://x/1-b/meta.json", "format": "json"}]}"""
    result = list_json.parse(damaged.encode())
    assert [p.code for p in result.problems] == ["registry.json_damaged"]
    assert [e.identifier for e in result.value.entries] == ["1-a", "1-b"]
    assert result.value.standard_version == STANDARD


def test_list_json_without_a_meta_list_is_not_a_registry():
    result = list_json.parse(b'{"meta": "nothing"}')
    assert result.value is None
    assert [p.code for p in result.problems] == ["registry.json_unexpected_shape"]


def test_items_with_namespaces_capitals_entities_or_extras_are_read_by_local_name():
    odd = [
        '<item xmlns:x="urn:x"><x:identifier>7701000001-a</x:identifier><title>A</title>'
        "<link>http://x.ru/a/</link></item>",
        "<item><Identifier>7701000002-b</Identifier><TITLE>B</TITLE><link>http://x.ru/b/</link></item>",
        "<item><identifier>7701000003-c</identifier><title>C <b>bold</b> tail</title>"
        "<link>http://x.ru/c/</link><note>extra</note></item>",
        "<item><identifier>7701000004-d</identifier><identifier>second</identifier>"
        "<link>http://x.ru/d/</link></item>",
    ]

    entries = list_xml.parse(list_xml_bytes("".join(odd))).value.entries

    assert [(e.identifier, e.title) for e in entries] == [
        ("7701000001-a", "A"), ("7701000002-b", "B"), ("7701000003-c", "C bold tail"), ("7701000004-d", ""),
    ]


def test_streamed_registry_reports_a_repeat_before_the_entries_after_it():
    from ckanext.passport.mr.registry import iter_registry

    data = list_xml_bytes(item("7701000001-a") + item("7701000001-a") + item("7701000002-b"))

    read = [(type(x).__name__, getattr(x, "code", getattr(x, "identifier", ""))) for x in iter_registry(data)]

    assert read == [("RegistryEntry", "7701000001-a"), ("Problem", "registry.duplicate_identifier"),
                    ("RegistryEntry", "7701000002-b")]


def test_streamed_registry_without_usable_entries_ends_with_registry_empty():
    from ckanext.passport.mr.registry import iter_registry

    read = list(iter_registry(list_xml_bytes(item("7701000001-a", link=" ").replace("<link> </link>", ""))))

    assert [p.code for p in read if isinstance(p, Problem)][-1] == "registry.empty"
