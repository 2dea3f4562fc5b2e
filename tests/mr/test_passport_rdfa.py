"""RDFa passport pages: dc:/foaf: on the dataset page, subjects matched with or without a trailing slash."""
from __future__ import annotations

import datetime as dt

from rdflib import URIRef

from ckanext.passport.mr.passport import rdfa
from ckanext.passport.mr.rdfagraph import passport_subject, read_page
from ckanext.passport.mr.translation import translator

RUSSIAN = translator("ru")

PREDGOR = "predgor/2618017120-politicaldivisions/index.php"
PREDGOR_URL = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/"
PREDGOR_DIR = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/"


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


def test_real_predgor_page_passport_fields(read_real):
    result = rdfa.parse(read_real(PREDGOR), PREDGOR_URL)
    passport = result.value
    assert (result.form, result.encoding) == ("rdfa", "utf-8")
    assert passport.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    assert passport.identifier == "2618017120-politicaldivisions"
    assert passport.title == "Административно-территориальное деление Предгорного района"
    assert passport.description == "Административно-территориальное деление Предгорного муниципального района " \
                                   "Ставропольского края"
    assert passport.creator == "Администрация Предгорного муниципального района Ставропольского края"
    assert passport.created.value == dt.date(2016, 2, 29)
    assert passport.modified.value == dt.date(2016, 6, 16)
    assert passport.valid.value == dt.date(2016, 6, 16)
    assert passport.subject == ["муниципальное образование", "сельсовет", "населённый пункт"]
    assert passport.format == "json"


def test_real_predgor_publisher_is_a_foaf_person_with_mailto_stripped(read_real):
    publisher = rdfa.parse(read_real(PREDGOR), PREDGOR_URL).value.publisher
    assert publisher.name == "Усс Дмитрий Васильевич"
    assert publisher.phone == "+7 87961 5-06-64"
    assert publisher.mbox == "it-apmr@yandex.ru"


def test_real_predgor_versions_newest_first_through_the_source_collection(read_real):
    passport = rdfa.parse(read_real(PREDGOR), PREDGOR_URL).value
    assert [(v.version, v.structure_version) for v in passport.data_versions] == [
        ("20160616T1514", "20160616T1515"),
        ("20160229T0000", "20160229T0000"),
    ]
    newest = passport.data_versions[0]
    assert newest.source == PREDGOR_DIR + "data-20160616T1514-structure-20160616T1515.json"
    assert newest.created.value == dt.date(2016, 6, 16)
    assert newest.provenance == "Обновление набора"
    assert newest.format == "json"
    assert passport.data_versions[1].provenance == "Первичная публикация"
    assert [(s.version, s.created.value) for s in passport.structure_versions] == [
        ("20160616T1515", dt.date(2016, 6, 16)),
        ("20160229T0000", dt.date(2016, 2, 29)),
    ]


def test_real_predgor_dangling_structure_reference_falls_back_to_the_file_name(read_real):
    result = rdfa.parse(read_real(PREDGOR), PREDGOR_URL)
    assert codes(result) == ["rdfa.structure_not_found"]
    assert result.problems[0].location.element == PREDGOR_DIR + "#structure-20160101T0000"


def test_subject_without_trailing_slash_matches_the_page_served_with_one(read_real):
    page = read_page(read_real(PREDGOR), PREDGOR_URL)
    subject = passport_subject(page.graph, PREDGOR_URL)
    assert subject == URIRef("http://opendata.predgor-ray.ru/2618017120-politicaldivisions")


MR23_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Список МФЦ</title></head>
<body>
<div about="/opendata/7710474375-mfclist/" typeof="foaf:Document">
  <h1 property="dc:title">Список МФЦ</h1>
  <p property="dc:description">Список многофункциональных центров</p>
  <p property="dc:creator">Минэкономразвития России</p>
  <div rel="dc:publisher"><div typeof="foaf:Person">
    <span property="foaf:name">Иванов Иван Иванович</span>
    <a rel="foaf:phone" href="tel:+74951234567">+7 495 123-45-67</a>
    <a rel="foaf:mbox" href="mailto:ivanov@example.com">ivanov@example.com</a>
  </div></div>
  <span property="dc:created" content="2012-12-01">01.12.2012</span>
  <span property="dc:modified">01.04.2013</span>
  <span property="dc:subject">МФЦ, адрес</span>
  <span property="dc:format">XML</span>
  <div rel="dc:hasPart">
    <div about="data-24-structure-2">
      <a property="dc:source" href="/opendata/7710474375-mfclist/data-24-structure-2.xml">data-24</a>
      <span property="dc:created">01.03.2013</span>
      <span property="dc:provenance">Обновление набора данных</span>
      <div rel="dc:conformsTo" resource="structure-2"></div>
    </div>
  </div>
  <div rel="dc:hasPart">
    <div about="data-25-structure-2">
      <span property="dc:source" content="/opendata/7710474375-mfclist/data-25-structure-2.xml"></span>
      <span property="dc:created">01.04.2013</span>
      <span property="dc:provenance">Изменение структуры данных</span>
      <div rel="dc:conformsTo" resource="structure-2"></div>
    </div>
  </div>
  <div about="structure-2">
    <span property="dc:source">/opendata/7710474375-mfclist/structure-2-data-11.xsd</span>
    <span property="dc:created">01.01.2013</span>
  </div>
</div>
</body></html>"""


def test_relative_subject_with_trailing_slash_and_direct_has_part():
    result = rdfa.parse(MR23_PAGE.encode("utf-8"), "http://example.gov.ru/opendata/7710474375-mfclist")
    passport = result.value
    assert passport.identifier == "7710474375-mfclist"
    assert passport.title == "Список МФЦ"
    assert passport.format == "xml"
    assert passport.modified.value == dt.date(2013, 4, 1)
    assert passport.publisher.phone == "+74951234567"
    assert passport.publisher.mbox == "ivanov@example.com"
    assert [v.version for v in passport.data_versions] == ["25", "24"]
    assert passport.data_versions[1].source == "http://example.gov.ru/opendata/7710474375-mfclist/" \
                                               "data-24-structure-2.xml"
    assert passport.data_versions[0].source == "http://example.gov.ru/opendata/7710474375-mfclist/" \
                                               "data-25-structure-2.xml"
    # structure-2-data-11.xsd is MR 2.3's structure 2, as its data file names say ("data-25-structure-2").
    assert passport.data_versions[0].structure_version == "2"
    assert passport.data_versions[0].created.value == dt.date(2013, 4, 1)
    assert result.problems == []


def test_the_resource_named_by_the_page_wins_over_other_titled_resources():
    page = """<html><body>
    <div about="/opendata/1-other" property="dc:title" content="Другой"><span rel="dc:conformsTo"
      resource="http://opendata.gosmonitor.ru/standard/3.0"></span></div>
    <div about="/opendata/1-this"><span property="dc:title">Этот</span>
      <span rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></span></div>
    </body></html>"""
    result = rdfa.parse(page.encode(), "http://example.com/opendata/1-this/")
    assert result.value.title == "Этот"
    assert result.value.identifier == "1-this"


def test_windows_1251_page_is_decoded_before_rdfa():
    page = '<html><body><div about="/opendata/1-a"><p property="dc:title">Реестр залов</p>' \
           '<p property="dc:identifier">1-a</p></div></body></html>'
    result = rdfa.parse(page.encode("cp1251"), "http://example.com/opendata/1-a")
    assert result.value.title == "Реестр залов"
    assert result.encoding == "windows-1251"


def test_page_without_rdfa_is_rdfa_not_found():
    result = rdfa.parse("<html><body><h1>Доступ запрещён</h1></body></html>".encode(), "http://example.com/x/")
    assert result.value is None
    assert codes(result) == ["rdfa.not_found"]
    assert "формат RDFa не обнаружен" in result.problems[0].message(RUSSIAN)


def test_titled_row_of_a_registry_is_not_a_passport():
    page = '<html><body><div about="/opendata" typeof="dc:Collection"><div rel="dc:hasPart">' \
           '<span about="/opendata/1-a" property="dc:title">Залы</span></div></div></body></html>'
    result = rdfa.parse(page.encode(), "http://example.com/opendata/")
    assert result.value is None
    assert codes(result) == ["rdfa.not_found"]
