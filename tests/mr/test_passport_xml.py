"""MR 3.0 meta.xml: read everything the file says; schema breaks are problems, not rejections."""
from __future__ import annotations

import datetime as dt
from importlib import resources

from lxml import etree

from ckanext.passport.mr.passport import meta_xml

URL = "http://example.com/opendata/7712345678-showrooms/meta.xml"
BASE = "http://example.com/opendata/7712345678-showrooms"


def dataversion(version: str, provenance: str = "Обновление", valid: str = "20130701",
                structure: str = "20130401T0000") -> str:
    parts = [f"<source>{BASE}/data-{version}-structure-20130401T0000.xml</source>", f"<created>{version}</created>"]
    if provenance is not None:
        parts.append(f"<provenance>{provenance}</provenance>")
    parts.append(f"<valid>{valid}</valid>")
    if structure is not None:
        parts.append(f"<structure>{structure}</structure>")
    return "<dataversion>" + "".join(parts) + "</dataversion>"


def meta_xml_bytes(versions: str = "", standard: str = "http://opendata.gosmonitor.ru/standard/3.0") -> bytes:
    """The MR 3.0 Appendix 8 example, cleaned of the copy's extraction damage."""
    versions = versions or "".join(
        dataversion(v, p) for v, p in [
            ("20130601T0000", "Исправлены незначительные ошибки, добавлены новые выставочные залы"),
            ("20130501T0000", "Добавлены новые выставочные залы"),
            ("20130406T0000", "Исправление критической ошибки"),
            ("20130401T0000", "Первичная публикация"),
        ]
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<meta>
<standardversion>{standard}</standardversion>
<identifier>7712345678-showrooms</identifier>
<title>Список выставочных залов</title>
<description>Список выставочных залов с указанием контактных данных по округам и районам.</description>
<creator>Министерство культуры</creator>
<created>20130401</created>
<modified>20130601T0000</modified>
<subject>Выставка,зал,выставочный зал,культура</subject>
<format>xml</format>
<data>{versions}</data>
<structure><structureversion>
<source>{BASE}/structure-20130401T0000.xsd</source><created>20130401T0000</created>
</structureversion></structure>
<publisher><name>Иванов Иван Иванович</name><phone>+74951234567</phone><mbox>ivanov@example.com</mbox></publisher>
</meta>""".encode("utf-8")


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


def test_schema_is_the_appendix_8_xsd():
    text = resources.files("ckanext.passport.mr").joinpath("schemas/meta-schema.xsd").read_bytes()
    tree = etree.fromstring(text)
    ns = {"xs": "http://www.w3.org/2001/XMLSchema"}
    meta = tree.find("xs:complexType[@name='Meta']/xs:sequence", ns)
    assert [e.get("name") for e in meta] == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "data", "structure", "publisher",
    ]
    version = tree.find("xs:complexType[@name='DataVersion']/xs:sequence", ns)
    assert [e.get("name") for e in version] == ["source", "created", "provenance", "valid", "structure"]


def test_appendix_example_is_valid_and_fully_read():
    result = meta_xml.parse(meta_xml_bytes(), URL)
    passport = result.value
    assert result.problems == []
    assert result.form == "meta.xml"
    assert result.encoding == "utf-8"
    assert passport.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    assert passport.identifier == "7712345678-showrooms"
    assert passport.title == "Список выставочных залов"
    assert passport.creator == "Министерство культуры"
    assert passport.created.value == dt.date(2013, 4, 1)
    assert passport.modified.value == dt.datetime(2013, 6, 1, 0, 0)
    assert passport.subject == ["Выставка", "зал", "выставочный зал", "культура"]
    assert passport.format == "xml"
    assert (passport.publisher.name, passport.publisher.phone, passport.publisher.mbox) == (
        "Иванов Иван Иванович", "+74951234567", "ivanov@example.com")
    assert [v.version for v in passport.data_versions] == [
        "20130601T0000", "20130501T0000", "20130406T0000", "20130401T0000"]
    newest = passport.data_versions[0]
    assert newest.source == f"{BASE}/data-20130601T0000-structure-20130401T0000.xml"
    assert newest.structure_version == "20130401T0000"
    assert newest.provenance == "Исправлены незначительные ошибки, добавлены новые выставочные залы"
    assert newest.valid.value == dt.date(2013, 7, 1)
    assert newest.format == "xml"
    structure = passport.structure_versions[0]
    assert (structure.version, structure.format, structure.created.text) == ("20130401T0000", "xsd", "20130401T0000")


def test_data_versions_are_sorted_newest_first():
    versions = "".join(dataversion(v) for v in ("20130401T0000", "20130601T0000", "20130501T0000"))
    result = meta_xml.parse(meta_xml_bytes(versions))
    assert [v.version for v in result.value.data_versions] == ["20130601T0000", "20130501T0000", "20130401T0000"]


def test_structure_version_comes_from_the_file_name_when_not_given():
    result = meta_xml.parse(meta_xml_bytes(dataversion("20130601T0000", structure=None)))
    assert result.value.data_versions[0].structure_version == "20130401T0000"
    assert "schema.xsd_violation" in codes(result)


def test_empty_dataversion_is_a_schema_problem_and_the_rest_is_read():
    result = meta_xml.parse(meta_xml_bytes("<dataversion/>" + dataversion("20130601T0000")), URL)
    assert [v.version for v in result.value.data_versions] == ["20130601T0000"]
    assert "schema.xsd_violation" in codes(result)
    assert "passport.version_without_source" in codes(result)
    assert result.value.title == "Список выставочных залов"


def test_missing_provenance_is_a_schema_problem_naming_the_element():
    result = meta_xml.parse(meta_xml_bytes(dataversion("20130601T0000", provenance=None)), URL)
    violations = [p for p in result.problems if p.code == "schema.xsd_violation"]
    assert len(violations) == 1
    assert "provenance" in violations[0].message()
    assert violations[0].location.line is not None
    assert result.value.data_versions[0].provenance == ""
    assert result.value.data_versions[0].created.value == dt.datetime(2013, 6, 1)


def test_missing_passport_element_is_a_schema_problem_and_left_empty():
    data = meta_xml_bytes().replace("<subject>Выставка,зал,выставочный зал,культура</subject>".encode(), b"")
    result = meta_xml.parse(data)
    assert result.value.subject == []
    assert "schema.xsd_violation" in codes(result)


def test_wrong_case_standard_url_is_read_as_the_standard_with_a_warning():
    result = meta_xml.parse(meta_xml_bytes(standard="http://OpenData.gosmonitor.ru/standard/3.0"))
    assert result.value.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    variant = [p for p in result.problems if p.code == "passport.standard_version_variant"]
    assert "OpenData.gosmonitor.ru" in variant[0].message()


def test_windows_1251_declared_encoding_is_honoured():
    data = meta_xml_bytes().decode("utf-8").replace('encoding="utf-8"', 'encoding="windows-1251"')
    result = meta_xml.parse(data.encode("cp1251"))
    assert result.value.title == "Список выставочных залов"
    assert result.encoding == "windows-1251"


def test_namespaced_meta_is_read_by_local_names():
    data = meta_xml_bytes().replace(b"<meta>", b'<meta xmlns="http://example.com/ns">')
    assert meta_xml.parse(data).value.identifier == "7712345678-showrooms"


def test_other_root_element_is_not_a_passport():
    result = meta_xml.parse(b"<list><meta/></list>")
    assert result.value is None
    assert codes(result) == ["passport.unexpected_root"]


def test_not_xml_gives_no_value_and_a_problem():
    result = meta_xml.parse(b"<meta><title>broken</meta>")
    assert result.value is None
    assert codes(result) == ["xml.not_well_formed"]


def test_external_entity_in_a_field_is_neither_expanded_nor_fatal_to_schema_validation():
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE meta [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        b"<meta><standardversion>http://opendata.gosmonitor.ru/standard/3.0</standardversion>"
        b"<identifier>7701234560-x</identifier><title>&xxe;</title></meta>"
    )
    result = meta_xml.parse(xxe, "http://example.ru/meta.xml")
    assert result.value.identifier == "7701234560-x"
    assert "root:" not in result.value.title
    assert {"xml.entity_declared", "schema.xsd_violation"} <= {p.code for p in result.problems}
