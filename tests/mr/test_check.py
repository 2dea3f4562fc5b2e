"""Conformance checks: one MR requirement per test, on a conforming passport with one thing broken,
then the real publications as their parsers read them."""
from __future__ import annotations

import dataclasses
from typing import Optional

import pytest

from ckanext.passport.mr.check import check_passport, is_phone, score
from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.model import (
    STANDARD_2_3, STANDARD_3_0, DataVersion, Passport, Publisher, RegistryEntry, StructureVersion,
)
from ckanext.passport.mr.passport import meta_csv, meta_json, mr23_csv, rdfa
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.translation import translator

RUSSIAN = translator("ru")

SITE = "http://example.com/opendata/7708234640-showrooms"
PASSPORT_URL = f"{SITE}/meta.csv"


def data_version(version: str, structure: str = "20130401T0000", created: Optional[str] = None) -> DataVersion:
    """A data version on the permanent link template, created when its name says unless told otherwise."""
    return DataVersion(
        source=f"{SITE}/data-{version}-structure-{structure}.csv",
        version=version,
        structure_version=structure,
        created=parse_date(version if created is None else created),
        provenance="Обновление набора данных",
        valid=parse_date("20130701"),
        format="csv",
    )


def conforming() -> Passport:
    """The MR 3.0 Appendix 8 example, with a real INN so that the identifier is right."""
    return Passport(
        standard_version=STANDARD_3_0,
        identifier="7708234640-showrooms",
        title="Список выставочных залов",
        description="Список выставочных залов с указанием контактных данных по округам и районам.",
        creator="Министерство культуры",
        publisher=Publisher(name="Иванов Иван Иванович", phone="+74951234567", mbox="ivanov@example.com"),
        created=parse_date("20130401"),
        modified=parse_date("20130601"),
        valid=parse_date("20130701"),
        subject=["Выставка", "зал"],
        format="csv",
        provenance="Исправлены незначительные ошибки",
        data_versions=[data_version("20130601T0000"), data_version("20130501T0000"), data_version("20130401T0000")],
        structure_versions=[
            StructureVersion(source=f"{SITE}/structure-20130401T0000.csv", version="20130401T0000",
                             created=parse_date("20130401T0000"), format="csv")
        ],
    )


def codes(passport: Passport, **kwargs) -> list[str]:
    return [p.code for p in check_passport(passport, url=PASSPORT_URL, **kwargs).problems]


def identifier_codes(identifier: str) -> list[str]:
    """Findings about the identifier itself (its links and folder then naturally disagree with it too)."""
    report = check_passport(dataclasses.replace(conforming(), identifier=identifier))
    return [p.code for p in report.problems if p.code not in ("check.data_link_template",
                                                                 "check.structure_link_template")]


def test_conforming_passport_has_no_findings_and_full_score():
    report = check_passport(conforming(), url=PASSPORT_URL)

    assert report.problems == []
    assert report.score == 100
    assert report.standard == "3.0"
    assert report.identifier == "7708234640-showrooms"


@pytest.mark.parametrize(
    "field, change",
    [
        ("standardversion", {"standard_version": ""}),
        ("title", {"title": "  "}),
        ("description", {"description": ""}),
        ("creator", {"creator": ""}),
        ("created", {"created": None}),
        ("modified", {"modified": None}),
        ("subject", {"subject": []}),
        ("format", {"format": ""}),
        ("publishername", {"publisher": Publisher(phone="+74951234567", mbox="ivanov@example.com")}),
        ("data", {"data_versions": []}),
        ("structure", {"structure_versions": []}),
    ],
)
def test_missing_mr30_field_is_reported_by_name(field, change):
    report = check_passport(dataclasses.replace(conforming(), **change), url=PASSPORT_URL)

    missing = [p for p in report.problems if p.code == "check.missing_field"]
    assert [p.location.element for p in missing] == [field]
    assert missing[0].location.url == PASSPORT_URL


def test_provenance_and_valid_may_live_in_the_newest_data_version():
    # meta.xml and meta.json carry them per version, not at passport level.
    assert "check.missing_field" not in codes(dataclasses.replace(conforming(), provenance="", valid=None))


def test_provenance_missing_everywhere_is_reported():
    passport = dataclasses.replace(conforming(), provenance="")
    for version in passport.data_versions:
        version.provenance = ""

    assert [p.location.element for p in check_passport(passport).problems] == ["provenance"]


def test_mr23_passport_needs_periodicity_but_no_standard_version():
    passport = dataclasses.replace(conforming(), standard_version="", valid=None, periodicity="")

    report = check_passport(passport, form="mr23.csv")

    assert report.standard == "2.3"
    assert [p.location.element for p in report.problems] == ["periodicity"]


@pytest.mark.parametrize("identifier", ["showrooms", "7708234640showrooms", "ИНН-showrooms", "-showrooms"])
def test_identifier_not_of_the_inn_dash_name_form(identifier):
    assert identifier_codes(identifier) == ["check.identifier_form"]


@pytest.mark.parametrize("identifier", ["7708234641-showrooms", "770823464-showrooms", "0000000000-showrooms"])
def test_identifier_with_an_invalid_inn(identifier):
    assert identifier_codes(identifier) == ["check.identifier_inn"]


def test_identifier_with_a_twelve_digit_individual_inn_is_fine():
    assert identifier_codes("500100732259-shop") == []


@pytest.mark.parametrize("name", ["выставки", "show rooms", "show_rooms", "show-rooms", "showrooms!"])
def test_identifier_name_must_be_one_latin_word(name):
    assert identifier_codes(f"7708234640-{name}") == ["check.identifier_name"]


@pytest.mark.parametrize("text", ["20130401", "20130401T0000", "2013-04-01", "2013-04-01T10:00:00"])
def test_iso_8601_dates_are_accepted_in_mr30(text):
    assert codes(dataclasses.replace(conforming(), created=parse_date(text))) == []


@pytest.mark.parametrize("text", ["01.04.2013", "28 мая 2013 00:00", "28.11.2012 15:51:00"])
def test_non_iso_dates_are_a_form_warning_in_mr30(text):
    assert codes(dataclasses.replace(conforming(), created=parse_date(text))) == ["check.date_form"]


def test_dotted_dates_are_mr23s_own_form():
    passport = dataclasses.replace(conforming(), standard_version=STANDARD_2_3, periodicity="ежемесячно",
                                   created=parse_date("01.04.2013"), modified=parse_date("01.06.2013"))

    assert check_passport(passport).problems == []


@pytest.mark.parametrize("text", ["201307010", "2013-04", "31.02.2013", "скоро"])
def test_unreadable_or_imprecise_dates_are_invalid(text):
    report = check_passport(dataclasses.replace(conforming(), valid=parse_date(text)))

    assert [(p.code, p.location.element) for p in report.problems] == [("check.date_invalid", "valid")]


def test_invalid_date_of_a_data_version_names_the_version():
    passport = conforming()
    passport.data_versions[1].valid = parse_date("201307010")

    assert [p.location.element for p in check_passport(passport).problems] == ["data[1].valid"]


def test_modified_before_created_is_a_warning():
    passport = dataclasses.replace(conforming(), modified=parse_date("20120101"))

    assert codes(passport) == ["check.modified_before_created"]


def test_upper_case_format_is_a_warning_in_mr30_only():
    assert codes(dataclasses.replace(conforming(), format="CSV")) == ["check.format_case"]
    mr23 = dataclasses.replace(conforming(), format="CSV", standard_version=STANDARD_2_3, periodicity="ежегодно")
    assert codes(mr23) == []


def test_data_versions_must_be_sorted_newest_first():
    passport = conforming()
    passport.data_versions.reverse()

    assert codes(passport) == ["check.versions_order"]


def test_numbered_versions_are_ordered_by_number():
    passport = conforming()
    passport.data_versions = [data_version("2", "1", created=""), data_version("10", "1", created="")]
    passport.structure_versions = [StructureVersion(source=f"{SITE}/structure-1.csv", version="1")]

    report = check_passport(passport, url=PASSPORT_URL)

    assert [(p.code, p.location.element) for p in report.problems] == [("check.versions_order", "data")]


def test_data_version_whose_structure_is_not_published():
    passport = conforming()
    passport.data_versions[0] = data_version("20130601T0000", structure="20130501T0000")

    report = check_passport(passport, url=PASSPORT_URL)

    assert [p.code for p in report.problems] == ["check.structure_missing"]
    assert "20130501T0000" in report.problems[0].message()


@pytest.mark.parametrize(
    "source",
    [
        "http://example.com/files/data-20130601T0000-structure-20130401T0000.csv",
        "http://example.com/opendata/7708234640-other/data-20130601T0000-structure-20130401T0000.csv",
        "http://example.com/opendata/7708234640-showrooms/data-20130601T0000.csv",
        "http://example.com/opendata/7708234640-showrooms/data-20130601T0000-structure-20130401T0000",
        "http://example.com/opendata/7708234640-showrooms/data-20130501T0000-structure-20130401T0000.csv",
    ],
)
def test_data_link_off_the_permanent_template(source):
    passport = conforming()
    passport.data_versions[0].source = source

    assert codes(passport) == ["check.data_link_template"]


@pytest.mark.parametrize(
    "source",
    [
        "http://example.com/opendata/7708234640-showrooms/data-20130601T0000-structure-20130401T0000.csv",
        "http://opendata.example.com/7708234640-showrooms/data-20130601T0000-structure-20130401T0000.csv",
        "https://example.com/city/OpenData/7708234640-showrooms/data-20130601T0000-structure-20130401T0000.CSV",
    ],
)
def test_data_link_on_the_template_including_the_opendata_host_form(source):
    passport = conforming()
    passport.data_versions[0].source = source

    assert codes(passport) == []


def test_structure_link_off_the_template():
    passport = conforming()
    passport.structure_versions[0].source = "http://example.com/opendata/7708234640-showrooms/schema.csv"

    assert codes(passport) == ["check.structure_link_template"]


def test_mr23_structure_link_may_carry_the_structure_date():
    passport = dataclasses.replace(conforming(), standard_version=STANDARD_2_3, periodicity="ежегодно")
    passport.data_versions = [data_version("1", "1", created="15.07.2013")]
    passport.structure_versions = [
        StructureVersion(source=f"{SITE}/structure-1-2013-07-15.csv", version="1", created=parse_date("2013-07-15"))
    ]

    assert codes(passport) == []


@pytest.mark.parametrize("mbox", ["name@yandex,ru", "name.yandex.ru", "name@yandex", "a b@example.com", "@example.com"])
def test_malformed_email_is_an_error(mbox):
    passport = dataclasses.replace(conforming(), publisher=Publisher("Иванов", "+74951234567", mbox))

    assert codes(passport) == ["check.email_form"]


@pytest.mark.parametrize("mbox", ["okumsa@mcc.mecom.ru", "it-apmr@yandex.ru", "info@минкультуры.рф"])
def test_real_email_forms_are_accepted(mbox):
    passport = dataclasses.replace(conforming(), publisher=Publisher("Иванов", "+74951234567", mbox))

    assert codes(passport) == []


@pytest.mark.parametrize(
    "phone",
    ["+7 (495) 647-15-80, 50704", "8(499)795-22-81", "+78796150664", "+7 (495) 568-00-42 доб. 99732",
     "+7 4 9512 34 5 67", "+7 87961 5-06-64"],
)
def test_real_phone_forms_are_phones(phone):
    assert is_phone(phone)


@pytest.mark.parametrize("phone", ["нет", "+7 495 ABC-12-34", "тел. отсутствует", "12-34", "+7 (495) 647-15-80 Иванов"])
def test_text_with_letters_or_too_few_digits_is_no_phone(phone):
    passport = dataclasses.replace(conforming(), publisher=Publisher("Иванов", phone, "ivanov@example.com"))

    assert codes(passport) == ["check.phone_form"]


@pytest.mark.parametrize(
    "text",
    [STANDARD_3_0, "http://OpenData.gosmonitor.ru/standard/3.0", "https://opendata.gosmonitor.ru/standard/3.0/"],
)
def test_known_standard_version_urls_with_any_host_case(text):
    assert codes(dataclasses.replace(conforming(), standard_version=text)) == []


def test_unknown_standard_version_url():
    passport = dataclasses.replace(conforming(), standard_version="http://opendata.gosmonitor.ru/standard/4.0")

    assert codes(passport) == ["check.standard_version_unknown"]


def test_registry_entry_agreeing_with_the_passport():
    entry = RegistryEntry(identifier="7708234640-showrooms", title=" Список  выставочных залов",
                          link=PASSPORT_URL, format="csv")

    assert codes(conforming(), entry=entry) == []


def test_registry_entry_with_another_identifier_and_title():
    entry = RegistryEntry(identifier="7708234640-halls", title="Выставочные залы", link=PASSPORT_URL)

    assert codes(conforming(), entry=entry) == ["check.registry_identifier_mismatch", "check.registry_title_mismatch"]


def test_passport_folder_naming_another_identifier():
    url = "http://example.com/opendata/7708234640-halls/meta.csv"

    assert [p.code for p in check_passport(conforming(), url=url).problems] == ["check.identifier_folder_mismatch"]


def test_score_charges_each_code_once_errors_more_than_warnings():
    error = problem("check.email_form", text="x")
    warning = problem("check.format_case", format="CSV")

    assert score([]) == 100
    assert score([warning, warning, warning]) == 95
    assert score([error]) == 80
    assert score([error, warning]) == 75
    assert score([problem("check.missing_field", field=str(n)) for n in range(9)]
                 + [problem("check.identifier_inn", inn="1")] * 5 + [error, warning] * 5
                 + [problem("check.date_invalid", field="x", text="y")]
                 + [problem("check.structure_missing", version="1", structure="2")]) == 0


# The real publications, as their own parsers read them.

def test_rosstat_meta_csv_with_42_versions_conforms_as_read(read_real):
    url = "https://rosstat.gov.ru/opendata/7708234640-okvedva/meta.csv"
    parsed = meta_csv.parse(read_real("rosstat-okved2/meta.csv"), url)

    report = check_passport(parsed.value, url=url, form=parsed.form)

    # Its "CSV" format reaches us lower-cased by the meta.csv reader, and its phone has "доб." (an extension).
    assert len(parsed.value.data_versions) == 42
    assert parsed.value.publisher.phone == "+7 (495) 568-00-42 доб. 99732"
    assert report.standard == "3.0"
    assert report.problems == []
    assert report.score == 100


def test_meteorf_mr23_passport_conforms_to_mr23(read_real):
    url = "https://zhabinda.github.io/github_page_example/opendata/7703092752-terorg/meta.csv"
    parsed = mr23_csv.parse(read_real("meteorf-terorg/meta.csv"), url)

    report = check_passport(parsed.value, url=url, form=parsed.form)

    assert report.standard == "2.3"
    assert report.problems == []


def test_predgor_meta_json_identifier_disagrees_with_its_registry_entry_and_folder(read_real):
    url = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/meta.json"
    passport = meta_json.parse(read_real("predgor/2618017120-politicaldivisions/meta.json"), url).value
    entry = RegistryEntry(
        identifier="2618017120-politicaldivisions",
        title="Административно-территориальное деление Предгорного муниципального района Ставропольского края",
        link=url,
        format="json",
    )

    report = check_passport(passport, entry=entry, url=url)

    assert passport.identifier == "2618017120-subdivisions"
    assert report.codes == {
        "check.registry_identifier_mismatch",
        "check.registry_title_mismatch",
        "check.identifier_folder_mismatch",
        "check.data_link_template",
        "check.structure_link_template",
    }
    mismatch = next(p for p in report.problems if p.code == "check.registry_identifier_mismatch")
    russian = mismatch.message(RUSSIAN)
    assert "2618017120-politicaldivisions" in russian and "2618017120-subdivisions" in russian
    assert report.score == 100 - 20 - 5 - 5 - 5 - 5


def test_predgor_rdfa_passport_page_agrees_with_its_registry_entry(read_real):
    url = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/"
    passport = rdfa.parse(read_real("predgor/2618017120-politicaldivisions/index.php"), url).value
    entry = RegistryEntry(identifier="2618017120-politicaldivisions", title=passport.title, link=url)

    report = check_passport(passport, entry=entry, url=url)

    assert report.problems == []
    assert report.score == 100
