"""Passports published as a plain HTML table of characteristics, without RDFa (form ``html-table``).

The pages are ours, in the style of real ones (tests/fixtures/mr-pages/README.md); a page is read for RDFa
first, and only a page holding neither an RDFa passport nor an RDFa registry is read from its table.
"""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from ckanext.passport.mr import report
from ckanext.passport.mr.characteristics import (
    DATA, IDENTIFIER, MODIFIED, PERIODICITY, PREVIOUS_DATA, PREVIOUS_STRUCTURES, STANDARD_VERSION, STRUCTURE, TITLE,
    VALID, row_by_name,
)
from ckanext.passport.mr.check import check_passport, score
from ckanext.passport.mr.fetch import FetchPolicy
from ckanext.passport.mr.model import STANDARD_2_3, STANDARD_3_0, Registry, RegistryEntry, Severity
from ckanext.passport.mr.passport import FORMS, parse_passport, passport_locations
from ckanext.passport.mr.passport import html_table, rdfa
from ckanext.passport.mr.translation import translator
from ckanext.passport.mr.writers.registry import write_registry

PAGES = Path(__file__).parent.parent / "fixtures" / "mr-pages"
SITE = "https://roskazna.gov.ru"
TREASURY_URL = f"{SITE}/opendata/7710568760-budgetexecution/"
TREASURY_FOLDER = f"{SITE}/opendata/7710568760-budgetexecution"
LOCAL = FetchPolicy(connect_timeout=5, read_timeout=5, total_timeout=20, allow_private_addresses=True)


def page(name: str) -> bytes:
    return (PAGES / name).read_bytes()


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


def table_page(rows: str, head: str = "") -> bytes:
    """A UTF-8 page around one table of the given rows."""
    return (f'<html><head><meta charset="utf-8"></head><body><div class="menu"><a href="/">Главная</a></div>'
            f'<table>{head}{rows}</table></body></html>').encode()


APPENDIX_ROWS = [
    ("Идентификационный номер (код) набора данных", "7710568760-kbk"),
    ("Наименование набора данных", "Коды бюджетной классификации"),
    ("Описание набора данных", "Перечень кодов"),
    ("Владелец набора данных", "Федеральное казначейство"),
    ("Ответственное лицо", "Иванов Иван Иванович"),
    ("Телефон ответственного лица", "+7 495 2147000"),
    ("Адрес электронной почты ответственного лица", "kbk@roskazna.ru"),
    ("Гиперссылка (URL) на набор", '<a href="data-20190201-structure-20150101.csv">файл</a>'),
    ("Формат данных", "CSV"),
    ("Описание структуры набора данных", '<a href="structure-20150101.csv">структура</a>'),
    ("Дата первой публикации набора данных", "15.01.2015"),
    ("Дата последнего внесения изменений", "01.02.2019"),
    ("Содержание последнего изменения", "Обновление набора данных"),
    ("Периодичность актуализации набора данных", "Ежемесячно"),
    ("Ключевые слова, соответствующие содержанию набора данных", "КБК, бюджет"),
    ("Гиперссылки (URL) на версии набора данных", "null"),
    ("Гиперссылки (URL) на версии структуры набора данных", "null"),
]


# --- the Treasury's page ------------------------------------------------------------------------------

def test_a_treasury_page_is_read_from_its_table_with_a_finding_that_rdfa_is_missing():
    result = parse_passport(page("treasury-3col-windows-1251.html"), TREASURY_URL)

    assert (result.form, result.encoding) == ("html-table", "windows-1251")
    assert codes(result) == ["decode.windows_1251", "passport.rdfa_missing"]
    missing = result.problems[1]
    assert missing.severity is Severity.WARNING
    assert missing.message() == "The page has no RDFa passport; it was read from its table"
    assert missing.location.url == TREASURY_URL


def test_the_rdfa_missing_finding_speaks_russian_and_czech():
    missing = [p for p in parse_passport(page("two-column-utf8.html"), TREASURY_URL).problems
               if p.code == "passport.rdfa_missing"][0]

    assert "RDFa" in missing.message(translator("ru")) and "таблиц" in missing.message(translator("ru"))
    assert "RDFa" in missing.message(translator("cs")) and "tabulky" in missing.message(translator("cs"))


def test_a_treasury_page_gives_every_characteristic_of_appendix_1():
    passport = parse_passport(page("treasury-3col-windows-1251.html"), TREASURY_URL).value

    assert passport.standard_version == STANDARD_2_3
    assert passport.identifier == "7710568760-budgetexecution"
    assert passport.title == "Сведения об исполнении федерального бюджета"
    assert passport.description.startswith("Ежемесячные сведения об исполнении федерального бюджета по доходам")
    assert passport.description.endswith("дефицита бюджета, в разрезе кодов бюджетной классификации Российской Федерации")
    assert passport.creator == "Федеральное казначейство"
    assert passport.publisher.name == "Петрова Анна Сергеевна, консультант отдела информационного обеспечения"
    assert passport.publisher.phone == "+7 (495) 214-70-00, доб. 12345"
    assert passport.publisher.mbox == "opendata@roskazna.ru"
    assert passport.format == "csv"
    assert (passport.created.text, passport.created.value) == ("15.01.2015", dt.date(2015, 1, 15))
    assert (passport.modified.text, passport.modified.value) == ("01.02.2019", dt.date(2019, 2, 1))
    assert passport.provenance == "Обновление набора данных"
    assert passport.periodicity == "Ежемесячно"
    assert passport.subject == ["исполнение бюджета", "федеральный бюджет", "доходы", "расходы"]


def test_a_treasury_page_gives_its_versions_from_the_links_in_its_cells_newest_first():
    passport = parse_passport(page("treasury-3col-windows-1251.html"), TREASURY_URL).value

    assert [(v.source.removeprefix(TREASURY_URL), v.version, v.structure_version) for v in passport.data_versions] == [
        ("data-20190201T0000-structure-20150101T0000.csv", "20190201T0000", "20150101T0000"),
        ("data-20190109T0000-structure-20150101T0000.csv", "20190109T0000", "20150101T0000"),
        ("data-20181203T0000-structure-20150101T0000.csv", "20181203T0000", "20150101T0000"),
        ("data-20181101T0000-structure-20150101T0000.csv", "20181101T0000", "20150101T0000"),
    ]
    current = passport.data_versions[0]
    # As the MR 2.3 validator reads row 8: the current file takes the passport's last change.
    assert (current.created.text, current.provenance, current.format) == ("01.02.2019", "Обновление набора данных",
                                                                         "csv")
    assert [(s.source.removeprefix(TREASURY_URL), s.version) for s in passport.structure_versions] == [
        ("structure-20150101T0000.csv", "20150101T0000")]


def test_check_passport_on_a_treasury_page_judges_it_by_mr_2_3_and_finds_nothing_wrong():
    result = parse_passport(page("treasury-3col-windows-1251.html"), TREASURY_URL)

    checked = check_passport(result.value, url=TREASURY_URL, form=result.form)

    assert checked.standard == "2.3"
    assert checked.problems == []
    # What the site check and the harvest count: the reading's findings too, RDFa missing a warning among them.
    assert score(result.problems + checked.problems) == 90


# --- other layouts --------------------------------------------------------------------------------------

def test_a_two_column_utf8_page_with_mr_3_0_rows():
    result = parse_passport(page("two-column-utf8.html"), "https://culture.example.ru/opendata/3664012345-institutions/")
    passport = result.value

    assert (result.form, result.encoding, codes(result)) == ("html-table", "utf-8", ["passport.rdfa_missing"])
    assert passport.standard_version == STANDARD_3_0
    assert passport.identifier == "3664012345-institutions"
    assert passport.title == "Перечень подведомственных учреждений"
    assert passport.description == "Учреждения культуры, подведомственные министерству: наименование, адрес, " \
                                   "телефон, сайт"
    assert passport.creator == "Министерство культуры Энской области"
    assert (passport.publisher.phone, passport.publisher.mbox) == ("+74732123456", "opendata@culture.example.ru")
    assert passport.modified.value == dt.date(2023, 3, 15)
    assert passport.valid.value == dt.date(2023, 6, 30)
    assert passport.periodicity == "Ежеквартально"
    assert passport.subject == ["культура", "учреждения", "музеи", "библиотеки"]
    assert [v.version for v in passport.data_versions] == ["20230315", "20221201"]
    assert passport.data_versions[0].source == \
        "https://culture.example.ru/opendata/3664012345-institutions/data-20230315-structure-20210101.csv"
    assert [s.version for s in passport.structure_versions] == ["20210101"]


def test_check_passport_holds_a_table_that_names_mr_3_0_to_mr_3_0():
    result = parse_passport(page("two-column-utf8.html"), "https://culture.example.ru/opendata/3664012345-institutions/")

    checked = check_passport(result.value, url="https://culture.example.ru/opendata/3664012345-institutions/",
                             form=result.form)

    assert checked.standard == "3.0"
    assert "check.missing_field" not in checked.codes
    # MR 3.0 wants ISO dates; the page writes 15.03.2023.
    assert {p.params["field"] for p in checked.problems if p.code == "check.date_form"} >= {"created", "modified",
                                                                                           "valid"}


def test_several_data_versions_in_one_cell_rows_of_their_own_and_links_named_by_their_text():
    url = "https://trade.example.ru/opendata/5902290635-licenses/"
    passport = parse_passport(page("several-versions-in-one-cell.html"), url).value

    assert [(v.source.removeprefix("https://trade.example.ru"), v.version) for v in passport.data_versions] == [
        # Row 8: three files, newest first whatever the cell's order; CMS upload names take the version their
        # link's text names; "#!" links name their file only by their text.
        ("/upload/iblock/9c2/reestr_2019_02.csv", "20190212"),
        ("/upload/iblock/4f1/reestr_2019_01.csv", "20190110"),
        ("/opendata/5902290635-licenses/data-20181205-structure-20170301.csv", "20181205"),
        # Row 16: a name cell spanning three rows, one link each; the one naming no version is dated by its text.
        ("/opendata/5902290635-licenses/data-20170301-structure-20170301.csv", "20170301"),
        ("/upload/iblock/77a/reestr_2016.csv", ""),
        ("/opendata/5902290635-licenses/data-20150601-structure-20150601.csv", "20150601"),
    ]
    assert passport.data_versions[4].created.value == dt.date(2016, 12, 1)
    assert [s.version for s in passport.structure_versions] == ["20170301", "20150601"]


def test_a_table_missing_required_rows_is_read_with_what_is_missing_said():
    url = "https://raion.example.ru/opendata/institutions/"
    result = parse_passport(page("missing-rows.html"), url)
    passport = result.value

    assert result.form == "html-table"
    assert (passport.title, passport.format, passport.periodicity) == (
        "Перечень муниципальных учреждений", "xlsx", "По мере изменений")
    assert passport.identifier == ""
    assert passport.data_versions == [] and passport.structure_versions == []
    assert "passport.csv_missing_identifier" in codes(result)
    assert "passport.csv_no_data_versions" in codes(result)
    assert {p.params["name"] for p in result.problems if p.code == "passport.csv_missing_property"} == {
        "publishername", "publisherphone", "publishermbox", "structure", "provenance", "previous data versions",
        "previous structure versions"}
    assert [p.params["name"] for p in result.problems if p.code == "passport.csv_unknown_property"] == [
        "Количество записей в наборе"]


def test_check_passport_on_a_table_missing_rows_names_each_missing_field():
    url = "https://raion.example.ru/opendata/institutions/"
    result = parse_passport(page("missing-rows.html"), url)

    checked = check_passport(result.value, url=url, form=result.form)

    assert {p.params["field"] for p in checked.problems if p.code == "check.missing_field"} == {
        "identifier", "provenance", "publishername", "publisherphone", "publishermbox", "data", "structure"}
    # Each code costs once: the reading's errors and warnings (20 + 5 × 4) and the check's (20 + 5).
    assert (checked.score, score(result.problems + checked.problems)) == (75, 35)


def test_a_table_of_mr_3_0_property_names_and_version_rows():
    result = parse_passport(page("property-names-utf8.html"), "https://edu.example.ru/opendata/7825000000-schools/")
    passport = result.value

    assert codes(result) == ["passport.rdfa_missing"]
    assert (passport.standard_version, passport.identifier, passport.publisher.name) == (
        STANDARD_3_0, "7825000000-schools", "Орлова Ирина Викторовна")
    assert passport.valid.value == dt.date(2024, 12, 31)
    assert [(v.version, v.structure_version) for v in passport.data_versions] == [
        ("20240110T1200", "20160301T0000"), ("20230105T1200", "20160301T0000")]
    assert [s.version for s in passport.structure_versions] == ["20160301T0000"]


# --- tolerance ------------------------------------------------------------------------------------------

def _rows(template: str, rows=APPENDIX_ROWS) -> str:
    return "".join(template.format(number=number, name=name, value=value)
                   for number, (name, value) in enumerate(rows, start=1))


@pytest.mark.parametrize("rows, head", [
    pytest.param(_rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>"), "", id="3 columns, 1"),
    pytest.param(_rows("<tr><td>{number}.</td><td>{name}</td><td>{value}</td></tr>"),
                 "<tr><th>№ п/п</th><th>Наименование характеристики</th><th>Значение характеристики</th></tr>",
                 id="3 columns, 1., th header"),
    pytest.param(_rows("<tr><th>{name}:</th><td>{value}</td></tr>"), "", id="2 columns, th names, colons"),
    pytest.param(_rows("<tr>\n  <td>\n {name} \n</td>\n  <td>\n\t{value}\n </td>\n</tr>\n"),
                 "<thead><tr><td>Характеристика</td><td>Значение</td></tr></thead>", id="whitespace, thead"),
    pytest.param(_rows("<tr><td><p><b>{number}</b></p></td><td><span class='n'><strong>{name}</strong></span>"
                       "</td><td><div><span>{value}</span></div></td></tr>"), "", id="nested tags"),
    pytest.param(_rows("<TR><TD>{number}</TD><TD>{name}</TD><TD>{value}</TD></TR>",
                       [(name.upper(), value) for name, value in APPENDIX_ROWS]), "", id="upper case"),
    pytest.param(_rows("<tr><td>{number}&nbsp;</td><td>{name}</td><td>&nbsp;{value}&nbsp;</td></tr>",
                       [(name.replace(" ", "&nbsp;"), value) for name, value in APPENDIX_ROWS]), "", id="nbsp"),
])
def test_tables_are_read_whatever_their_markup(rows, head):
    result = parse_passport(table_page(rows, head), f"{SITE}/opendata/7710568760-kbk/")
    passport = result.value

    assert result.form == "html-table"
    assert passport.identifier.casefold() == "7710568760-kbk"
    assert passport.title.casefold() == "коды бюджетной классификации"
    assert passport.modified.value == dt.date(2019, 2, 1)
    assert [v.source for v in passport.data_versions] == [
        f"{SITE}/opendata/7710568760-kbk/data-20190201-structure-20150101.csv"]
    assert [s.version for s in passport.structure_versions] == ["20150101"]
    assert not [p for p in result.problems if p.code.startswith("passport.csv_")]


def test_a_value_on_several_lines_keeps_its_words_apart():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "Перечень кодов", "Перечень<br>кодов")

    assert parse_passport(table_page(rows), SITE + "/x/").value.description == "Перечень кодов"


def test_unnamed_rows_of_an_appendix_1_numbered_table_are_read_by_their_number():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "Периодичность актуализации набора данных", "Обновляется")

    result = parse_passport(table_page(rows), SITE + "/x/")

    assert result.value.periodicity == "Ежемесячно"
    assert "passport.csv_unknown_property" not in codes(result)


# --- what is not a passport table --------------------------------------------------------------------

def test_a_registry_page_of_plain_tables_is_no_passport():
    result = parse_passport(page("registry-table.html"), f"{SITE}/opendata/")

    assert result.value is None
    assert codes(result) == ["rdfa.not_found"]


def test_an_rdfa_registry_page_is_never_read_as_a_passport_whatever_its_tables_say():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>")
    registry = ('<html><body><div about="/opendata" typeof="dc:Collection">'
                '<div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>'
                '<table><tr rel="dc:hasPart"><td typeof="foaf:Document" about="/opendata/7710568760-kbk" '
                'property="dc:title" content="Коды">Коды</td></tr></table></div>'
                f'<table>{rows}</table></body></html>')

    result = parse_passport(registry.encode(), f"{SITE}/opendata/")

    assert result.value is None
    assert codes(result) == ["rdfa.not_found"]


def test_a_page_without_any_table_keeps_the_rdfa_readers_answer():
    result = parse_passport("<html><body><h1>Страница не найдена</h1></body></html>".encode(), SITE + "/x/meta.json")

    assert result.value is None
    assert codes(result) == ["rdfa.not_found"]


def test_the_table_reader_alone_says_when_a_page_holds_no_passport_table():
    result = html_table.parse(page("registry-table.html"), f"{SITE}/opendata/")

    assert (result.value, result.form, codes(result)) == (None, "html-table", ["passport.table_not_found"])


def test_html_table_is_a_passport_form_of_its_own_that_can_be_asked_for():
    assert FORMS["html-table"] is html_table
    asked = parse_passport(page("two-column-utf8.html"), SITE + "/x/", form="html-table")

    assert (asked.form, codes(asked)) == ("html-table", ["passport.rdfa_missing"])


def test_a_table_asked_for_on_a_page_with_an_rdfa_passport_is_read_without_the_finding(read_real):
    asked = parse_passport(read_real("predgor/2618017120-politicaldivisions/index.php"),
                           "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/", form="html-table")

    assert (asked.form, asked.value.identifier, asked.value.periodicity) == (
        "html-table", "2618017120-politicaldivisions", "По мере изменений")
    assert "passport.rdfa_missing" not in codes(asked)


# --- RDFa pages keep their RDFa; their periodicity is read from the page --------------------------------

def test_a_page_with_an_rdfa_passport_is_still_read_as_rdfa(read_real):
    result = parse_passport(read_real("predgor/2618017120-politicaldivisions/index.php"),
                            "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/")

    assert result.form == "rdfa"
    assert "passport.rdfa_missing" not in codes(result)


def test_rdfa_passports_yield_the_periodicity_their_dc_valid_cell_shows(read_real):
    # MR's page puts dc:valid (a date, in content="…") on row 14's cell, whose text is the periodicity.
    passport = rdfa.parse(read_real("predgor/2618017120-politicaldivisions/index.php"),
                          "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/").value

    assert passport.periodicity == "По мере изменений"
    assert passport.valid.value == dt.date(2016, 6, 16)


def test_rdfa_periodicity_from_a_dc_valid_element_outside_any_table():
    page_text = ('<html><body><div about="/opendata/7710568760-kbk" typeof="foaf:Document">'
                 '<div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>'
                 '<h1 property="dc:title">Коды</h1><ul><li>Периодичность актуализации набора данных</li>'
                 '<li property="dc:valid" content="2019-12-31"> Ежегодно </li></ul></div></body></html>')

    passport = rdfa.parse(page_text.encode(), f"{SITE}/opendata/7710568760-kbk").value

    assert (passport.periodicity, passport.valid.value) == ("Ежегодно", dt.date(2019, 12, 31))


def test_rdfa_periodicity_stated_as_dc_accrual_periodicity():
    page_text = ('<html><body><div about="/opendata/7710568760-kbk" typeof="foaf:Document">'
                 '<div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>'
                 '<h1 property="dc:title">Коды</h1><p property="dc:accrualPeriodicity">Ежемесячно</p>'
                 '</div></body></html>')

    assert rdfa.parse(page_text.encode(), f"{SITE}/opendata/7710568760-kbk").value.periodicity == "Ежемесячно"


# --- the site check and the harvest find the table through the passport link ---------------------------

def test_the_passport_link_of_a_registry_entry_is_tried_as_a_page():
    assert ("rdfa", TREASURY_FOLDER) in passport_locations(TREASURY_FOLDER)
    assert ("rdfa", TREASURY_URL) in passport_locations(TREASURY_URL)


def test_a_site_check_reads_a_table_passport_behind_the_registry_link(tmp_path, serve_site):
    from tests.support.http_site import Fault

    folder = tmp_path / "opendata" / "7710568760-budgetexecution"
    folder.mkdir(parents=True)
    shutil.copy(PAGES / "treasury-3col-windows-1251.html", folder / "index.html")
    entry = RegistryEntry("7710568760-budgetexecution", "Сведения об исполнении федерального бюджета",
                          "/opendata/7710568760-budgetexecution/", "csv")
    (tmp_path / "opendata" / "list.csv").write_bytes(write_registry(Registry(STANDARD_3_0, [entry]), "list.csv"))
    # Like many CMSs, the site answers a missing meta.json with its 404 page and status 200.
    soft_404 = Fault(body="<html><body><table><tr><td>Страница не найдена</td></tr></table></body></html>".encode(),
                     content_type="text/html; charset=utf-8")
    served = serve_site(tmp_path, {"/opendata/7710568760-budgetexecution/meta.json": soft_404})

    checked = report.check_site(f"{served.url}/", LOCAL, check_data=False)

    [passport] = checked.passports
    assert (passport.identifier, passport.form, passport.url) == (
        "7710568760-budgetexecution", "html-table", f"{served.url}/opendata/7710568760-budgetexecution/")
    assert "passport.rdfa_missing" in [p.code for p in passport.problems]
    assert passport.score == 90


# --- the one table of characteristic names --------------------------------------------------------------

@pytest.mark.parametrize("name, row", [
    ("Идентификационный номер (код) актуального набора данных", IDENTIFIER),
    ("1. Наименование набора данных:", TITLE),
    ("Гиперссылка (URL) на набор *", DATA),
    ("Дата последнего внесения изменений", MODIFIED),
    ("Периодичность актуализации набора данных", PERIODICITY),
    ("Гиперссылки (URL) на предыдущие версии набора данных", PREVIOUS_DATA),
    ("Гиперссылки (URL) на предыдущие версии структуры набора данных", PREVIOUS_STRUCTURES),
    ("Гиперссылка на актуальную версию набора данных", DATA),
    ("Ссылка на последнюю версию структуры", STRUCTURE),
    # MR 3.0's additions: not an earlier version, not the date of the last change.
    ("Версия методических рекомендаций", STANDARD_VERSION),
    ("Дата актуальности набора данных", VALID),
    ("standardversion", STANDARD_VERSION),
    ("valid", VALID),
    ("Наименование характеристики", TITLE),  # a header's words: tables recognise their header rows first
    ("Количество записей в наборе", None),
])
def test_characteristic_names(name, row):
    assert row_by_name(name) == row


def test_versions_laid_out_as_a_small_table_inside_their_cell():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "<td>null</td>",
        '<td><table class="versions"><tr><td>01.12.2018</td>'
        '<td><a href="data-20181201-structure-20150101.csv">CSV</a></td></tr></table></td>', 1)

    passport = parse_passport(table_page(rows), f"{SITE}/opendata/7710568760-kbk/").value

    assert [v.version for v in passport.data_versions] == ["20190201", "20181201"]


def test_a_header_naming_the_columns_finds_the_value_beside_a_column_of_notes():
    head = "<tr><th>№</th><th>Наименование характеристики</th><th>Значение характеристики</th><th>Примечание</th></tr>"
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td><td>см. МР 2.3</td></tr>")

    passport = parse_passport(table_page(rows, head), f"{SITE}/opendata/7710568760-kbk/").value

    assert (passport.identifier, passport.periodicity) == ("7710568760-kbk", "Ежемесячно")


def test_files_named_only_in_the_text_live_in_the_folder_the_page_address_names():
    # As rkn.gov.ru and others write it: the file name as the cell's text, the page at <site>/opendata/<id>.
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        '<a href="data-20190201-structure-20150101.csv">файл</a>', "data-20190201-structure-20150101.csv").replace(
        '<a href="structure-20150101.csv">структура</a>', "https://roskazna.gov.ru/opendata/7710568760-kbk/"
                                                           "structure-20150101.csv")

    passport = parse_passport(table_page(rows), f"{SITE}/opendata/7710568760-kbk").value

    assert [v.source for v in passport.data_versions] == [
        f"{SITE}/opendata/7710568760-kbk/data-20190201-structure-20150101.csv"]
    assert [s.source for s in passport.structure_versions] == [
        f"{SITE}/opendata/7710568760-kbk/structure-20150101.csv"]


def test_parse_file_reads_a_saved_table_page_as_a_passport_and_a_registry_table_as_nothing(tmp_path):
    saved = tmp_path / "index.html"
    shutil.copy(PAGES / "treasury-3col-windows-1251.html", saved)
    kind, result = report.parse_file(saved)
    assert (kind, result.form, result.value.identifier) == ("passport", "html-table", "7710568760-budgetexecution")

    kind, result = report.parse_file(PAGES / "registry-table.html")
    assert (kind, result.value) == ("passport", None)
    assert "html-table" in report.PARSE_FORMS


def test_a_header_repeated_down_the_table_and_a_numbered_row_without_its_value_cell():
    header = "<tr><th>№</th><th>Характеристика</th><th>Значение</th></tr>"
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "<tr><td>11</td>", header + "<tr><td>11</td>").replace(
        "<tr><td>17</td><td>Гиперссылки (URL) на версии структуры набора данных</td><td>null</td></tr>",
        "<tr><td>17</td><td>Гиперссылки (URL) на версии структуры набора данных</td></tr>")

    result = parse_passport(table_page(rows, header), f"{SITE}/opendata/7710568760-kbk/")

    assert result.value.title == "Коды бюджетной классификации"
    assert codes(result) == ["passport.rdfa_missing"]


def test_a_second_row_of_data_links_adds_its_files_after_the_first():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "<tr><td>9</td>", '<tr><td>8</td><td>Гиперссылка (URL) на набор</td><td>'
        '<a href="data-20190201-structure-20150101.xml">XML</a></td></tr><tr><td>9</td>')

    result = parse_passport(table_page(rows), f"{SITE}/opendata/7710568760-kbk/")

    assert [v.source.rsplit("/", 1)[1] for v in result.value.data_versions] == [
        "data-20190201-structure-20150101.csv", "data-20190201-structure-20150101.xml"]
    assert [p.params["name"] for p in result.problems if p.code == "passport.csv_duplicate_property"] == ["data"]


def test_an_rdfa_passport_linking_no_data_file_is_completed_from_its_table():
    # The simple fields marked up in RDFa, the files only as plain links in the table.
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "<td>Коды бюджетной классификации</td>", '<td property="dc:title">Коды бюджетной классификации (RDFa)</td>')
    marked = (f'<html><body><div about="{SITE}/opendata/7710568760-kbk" typeof="foaf:Document">'
              '<div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>'
              f'<table>{rows}</table></div></body></html>')

    result = parse_passport(marked.encode(), f"{SITE}/opendata/7710568760-kbk")

    assert result.form == "rdfa"
    assert codes(result) == ["passport.rdfa_incomplete"]
    assert "таблицы" in result.problems[0].message(translator("ru"))
    passport = result.value
    # RDFa wins where it speaks; the table fills the rest.
    assert (passport.title, passport.standard_version) == ("Коды бюджетной классификации (RDFa)", STANDARD_3_0)
    assert (passport.identifier, passport.periodicity, passport.publisher.mbox) == (
        "7710568760-kbk", "Ежемесячно", "kbk@roskazna.ru")
    assert [v.version for v in passport.data_versions] == ["20190201"]
    assert [s.version for s in passport.structure_versions] == ["20150101"]


def test_a_page_of_several_passport_tables_naming_different_datasets_is_a_list_not_a_passport():
    first = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>")
    second = first.replace("7710568760-kbk", "7710568760-budget")
    listing = f'<html><body><table>{first}</table><table>{second}</table></body></html>'.encode()

    assert parse_passport(listing, f"{SITE}/opendata/").value is None


@pytest.mark.parametrize("written, standard", [
    ('<a href="http://opendata.gosmonitor.ru/standard/3.0">3.0</a>', STANDARD_3_0),
    ("http://opendata.gosmonitor.ru/standard/3.0", STANDARD_3_0),
    ("3.0", STANDARD_3_0),
    ("Методические рекомендации, версия 2.3", STANDARD_2_3),
])
def test_the_recommendations_version_row_names_the_standard(written, standard):
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>",
                 APPENDIX_ROWS + [("Версия методических рекомендаций", written)])

    result = parse_passport(table_page(rows), f"{SITE}/opendata/7710568760-kbk/")

    assert result.value.standard_version == standard
    variant = [p.params["text"] for p in result.problems if p.code == "passport.standard_version_variant"]
    assert variant == ([] if written.startswith(("<a", "http")) else [written])


def test_soft_hyphens_and_zero_width_spaces_inside_names_are_not_seen():
    rows = _rows("<tr><td>{number}</td><td>{name}</td><td>{value}</td></tr>").replace(
        "Идентификационный", "Иденти&shy;фикацион\u200bный").replace("Наименование набора", "Наимено&shy;вание набора")

    passport = parse_passport(table_page(rows), f"{SITE}/opendata/7710568760-kbk/").value

    assert (passport.identifier, passport.title) == ("7710568760-kbk", "Коды бюджетной классификации")


def test_a_site_check_of_the_passport_page_address_alone(tmp_path, serve_site):
    folder = tmp_path / "opendata" / "7710568760-budgetexecution"
    folder.mkdir(parents=True)
    shutil.copy(PAGES / "treasury-3col-windows-1251.html", folder / "index.html")
    served = serve_site(tmp_path)

    single = report.check_site(f"{served.url}/opendata/7710568760-budgetexecution/", LOCAL, check_data=False)

    assert [(p.identifier, p.form, p.score) for p in single.passports] == [
        ("7710568760-budgetexecution", "html-table", 90)]


def test_rdfa_periodicity_is_the_first_line_of_its_cell_when_the_valid_date_follows():
    # As this portal's own page writes row 14 in Russian: the text, then "Актуально до" with the dc:valid date.
    rows = _rows("<tr><td>{number}</td><th>{name}</th><td>{value}</td></tr>").replace(
        "<td>Ежемесячно</td>", '<td>\n  Ежемесячно\n  <br>Актуально до: <span property="dc:valid" '
                               'content="20191231">2019-12-31</span>\n</td>')
    marked = (f'<html><body><div about="{SITE}/opendata/7710568760-kbk" typeof="foaf:Document">'
              '<div rel="dc:conformsTo" resource="http://opendata.gosmonitor.ru/standard/3.0"></div>'
              f'<span property="dc:title">Коды</span><table>{rows}</table></div></body></html>')

    passport = rdfa.parse(marked.encode(), f"{SITE}/opendata/7710568760-kbk").value

    assert (passport.periodicity, passport.valid.text) == ("Ежемесячно", "20191231")


# --- markup after </html> ----------------------------------------------------------------------------

PREDGOR_PAGE = "predgor/2618017120-politicaldivisions/index.php"
PREDGOR_URL = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/"


@pytest.mark.parametrize("form", ["html-table", "rdfa"])
def test_a_real_page_with_its_tail_pasted_again_after_its_closing_html_tag_is_read_as_the_page(read_real, form):
    """A browser puts what follows </html> inside the page; the parser once raised on a second root element
    (found by test_properties on this very page)."""
    whole = read_real(PREDGOR_PAGE)
    damaged = whole + whole[whole.index(b"<aside"):] * 2

    read, damaged_read = (parse_passport(data, PREDGOR_URL, form=form) for data in (whole, damaged))

    assert damaged_read.value == read.value and damaged_read.form == form
