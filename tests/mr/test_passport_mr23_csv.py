"""MR 2.x three-column CSV passport: the real Roshydromet file, then generated variants."""
from __future__ import annotations

import datetime as dt

import pytest
from tests.support.publisher_bytes import write_csv

from ckanext.passport.mr.model import STANDARD_2_3
from ckanext.passport.mr.passport.mr23_csv import parse, row_by_name

METEO = "https://zhabinda.github.io/github_page_example/opendata/7703092752-terorg/"


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


# --- the real Roshydromet passport ------------------------------------------------------------------------

@pytest.fixture
def meteorf(read_real):
    return parse(read_real("meteorf-terorg/meta.csv"))


def test_meteorf_reads_all_seventeen_rows_without_complaint(meteorf):
    assert meteorf.form == "mr23.csv"
    assert meteorf.encoding == "windows-1251"
    assert codes(meteorf) == ["decode.windows_1251"]


def test_meteorf_fields(meteorf):
    passport = meteorf.value

    assert passport.standard_version == STANDARD_2_3
    assert passport.identifier == "7703092752-terorg"
    assert passport.title == "Перечень территориальных органов Росгидромета"
    assert passport.description == "Сведения о территориальных органах Росгидромета"
    assert passport.creator == "Росгидромет"
    assert passport.publisher.name == "Петрова Ольга Васильевна, заместитель начальника отдела"
    assert passport.publisher.phone == "8(499)795-22-81"
    assert passport.publisher.mbox == "okumsa@mcc.mecom.ru"
    assert passport.format == "csv"
    assert passport.provenance == "Первоначальное размещение"
    assert passport.periodicity == "по мере изменений"
    assert passport.subject == ["перечень", "территориальные органы"]


def test_meteorf_dates_are_dd_mm_yyyy(meteorf):
    assert meteorf.value.created.text == "15.07.2013"
    assert meteorf.value.created.value == dt.date(2013, 7, 15)
    assert meteorf.value.modified.value == dt.date(2013, 7, 15)


def test_meteorf_null_means_no_previous_versions(meteorf):
    [data] = meteorf.value.data_versions
    [structure] = meteorf.value.structure_versions

    assert (data.source, data.version, data.structure_version) == (METEO + "data-1-structure-1.csv", "1", "1")
    assert (data.format, data.created.value, data.provenance) == ("csv", dt.date(2013, 7, 15),
                                                                  "Первоначальное размещение")
    assert (structure.source, structure.version) == (METEO + "structure-1-2013-07-15.csv", "1")
    assert structure.created.value == dt.date(2013, 7, 15)


# --- generated variants ------------------------------------------------------------------------------------

SITE = "http://www.example.ru/opendata/7710349494-mfclist/"

APPENDIX_1 = [
    ("Идентификационный номер (код) актуального набора данных", "7710349494-mfclist"),
    ("Наименование набора данных", "Список МФЦ"),
    ("Описание набора данных", "Список многофункциональных центров предоставления госуслуг"),
    ("Владелец набора данных", "Минэкономразвития России"),
    ("Ответственное лицо", "Иванов Иван Иванович, заместитель руководителя департамента"),
    ("Телефон ответственного лица", "+7 (495) 647-15-80, 50704"),
    ("Адрес электронной почты ответственного лица", "ivanov@example.ru"),
    ("Гиперсылка (URL) на набор", SITE + "data-25-structure-2.xml"),
    ("Формат данных", "XML"),
    ("Описание структуры набора данных", SITE + "structure-2-data-11.xsd"),
    ("Дата первой публикации набора данных", "01.12.2012"),
    ("Дата последнего внесения изменений", "01.04.2013"),
    ("Содержание последнего изменения", "Изменение структуры данных"),
    ("Периодичность актуализации набора данных", "Ежедневно"),
    ("Ключевые слова, соответствующие содержанию набора данных", "многофункциональный центр; адрес, распорядок"),
    ("Гиперссылка (URL) на версии набора данных.",
     f"{SITE}data-9-structure-1.xml {SITE}data-24-structure-2.xml,\n{SITE}data-23-structure-2.xml"),
    ("Гиперссылка (URL) на версии структуры набора данных.", SITE + "structure-1-data10.xsd"),
]


def passport_rows(rows=APPENDIX_1, numbers=None) -> list[tuple[str, ...]]:
    numbers = numbers or range(1, len(rows) + 1)
    return [("№", "Характеристика", "Значение")] + [(str(n), name, value) for n, (name, value) in zip(numbers, rows)]


def assert_mfclist(passport) -> None:
    assert passport.identifier == "7710349494-mfclist"
    assert passport.title == "Список МФЦ"
    assert passport.publisher.phone == "+7 (495) 647-15-80, 50704"
    assert passport.periodicity == "Ежедневно"
    assert passport.subject == ["многофункциональный центр", "адрес", "распорядок"]
    assert [v.version for v in passport.data_versions] == ["25", "24", "23", "9"]
    assert [s.version for s in passport.structure_versions] == ["2", "1"]


QUIRKS = {
    "semicolon": {"delimiter": ";"},
    "comma": {"delimiter": ","},
    "windows-1251": {"delimiter": ";", "encoding": "cp1251"},
    "all quoted, padded, numbered": {"delimiter": ";", "quote_all": True, "trailing": 4, "number_row": True,
                                     "blank_lines": True},
}


@pytest.mark.parametrize("quirks", QUIRKS.values(), ids=QUIRKS.keys())
def test_appendix_1_example_reads_in_every_dialect(quirks):
    result = parse(write_csv(passport_rows(), **quirks), url=SITE)

    assert_mfclist(result.value)
    assert [c for c in codes(result) if not c.startswith("decode.")] == []


def test_current_version_takes_format_and_last_change_by_the_validator_rule():
    current = parse(write_csv(passport_rows(), delimiter=";")).value.data_versions[0]

    assert current.source == SITE + "data-25-structure-2.xml"
    assert current.structure_version == "2"
    assert current.format == "xml"
    assert current.created.value == dt.date(2013, 4, 1)
    assert current.provenance == "Изменение структуры данных"


def test_previous_versions_carry_only_what_their_names_say():
    previous = parse(write_csv(passport_rows(), delimiter=";")).value.data_versions[1]

    assert (previous.source, previous.version, previous.structure_version) == (
        SITE + "data-24-structure-2.xml", "24", "2")
    assert (previous.format, previous.created, previous.provenance) == ("xml", None, "")


def test_reordered_rows_are_read_by_characteristic_name():
    reordered = list(reversed(APPENDIX_1))
    result = parse(write_csv(passport_rows(reordered, numbers=range(1, 18)), delimiter=";"))

    assert_mfclist(result.value)
    assert set(codes(result)) == {"passport.csv_row_number_mismatch"}


def test_rows_without_a_number_column_are_read_by_name():
    rows = [("Характеристика", "Значение")] + APPENDIX_1

    assert_mfclist(parse(write_csv(rows, delimiter=";")).value)


def test_unnamed_rows_fall_back_to_their_number():
    rows = passport_rows()
    rows[1] = ("1", "", "7710349494-mfclist")
    rows[2] = ("2", "???", "Список МФЦ")

    assert_mfclist(parse(write_csv(rows, delimiter=";")).value)


def test_value_split_by_an_unquoted_semicolon_is_rejoined():
    data = write_csv(passport_rows()[:15], delimiter=";") + "15;Ключевые слова;центр; адрес\n".encode()

    assert parse(data).value.subject == ["центр", "адрес"]


def test_version_links_broken_over_unquoted_lines_are_joined():
    rows = passport_rows()
    data = write_csv(rows[:16], delimiter=";") + (
        f"16;Гиперссылки (URL) на версии набора данных.;{SITE}data-24-structure-2.xml\n"
        f"{SITE}data-23-structure-2.xml\n{SITE}data-9-structure-1.xml\n"
        f"17;Гиперссылки (URL) на версии структуры набора данных.;{SITE}structure-1-data10.xsd\n"
    ).encode()
    result = parse(data)

    assert_mfclist(result.value)
    assert codes(result) == []


@pytest.mark.parametrize("text", ["null", "NULL", " null ", ""])
def test_null_or_empty_means_no_previous_versions(text):
    rows = passport_rows()
    rows[16] = ("16", APPENDIX_1[15][0], text)

    assert [v.version for v in parse(write_csv(rows, delimiter=";")).value.data_versions] == ["25"]


def test_text_that_is_not_a_link_in_the_version_rows_is_reported():
    rows = passport_rows()
    rows[17] = ("17", APPENDIX_1[16][0], "нет")
    result = parse(write_csv(rows, delimiter=";"))

    assert [s.version for s in result.value.structure_versions] == ["2"]
    # Row 16's quoted value spans lines 17 and 18, so row 17 starts on line 19.
    assert [(p.code, p.location.line) for p in result.problems] == [("passport.csv_unreadable_link", 19)]


def test_missing_rows_are_reported():
    rows = [row for row in passport_rows() if row[0] not in ("1", "6", "16")]
    result = parse(write_csv(rows, delimiter=";"))

    assert [(p.code, p.location.element) for p in result.problems] == [
        ("passport.csv_missing_identifier", "identifier"),
        ("passport.csv_missing_property", "publisherphone"),
        ("passport.csv_missing_property", "previous data versions"),
    ]


def test_unreadable_date_is_reported():
    rows = passport_rows()
    rows[11] = ("11", APPENDIX_1[10][0], "декабрь")
    result = parse(write_csv(rows, delimiter=";"))

    assert result.value.created.text == "декабрь"
    assert [(p.code, p.location.line) for p in result.problems] == [("passport.csv_unreadable_date", 12)]


def test_html_page_instead_of_the_passport():
    result = parse("<html><head><title>Ошибка 404</title></head></html>".encode())

    assert result.value is None
    assert codes(result) == ["csv.html_instead_of_csv"]


@pytest.mark.parametrize("name, number", [(name, n) for n, (name, _) in enumerate(APPENDIX_1, start=1)] + [
    ("Номер (код) набора", 1),
    ("Телефон", 6),
    ("E-mail ответственного лица", 7),
    ("Ссылка на набор данных", 8),
    ("Гиперссылки (URL) на версии структуры", 17),
    ("Версии набора данных", 16),
    ("Дата создания", None),
    ("publishername", 5),
])
def test_characteristic_names_are_matched_loosely(name, number):
    assert row_by_name(name) == number
