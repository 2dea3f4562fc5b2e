"""Which records the LKOD lists, and the coded reason each one left out has (one test per reason)."""
from __future__ import annotations

import pytest
from tests.support.catalog_records import ROSSTAT_INN
from tests.support.lkod_records import HVD_CATEGORY, lkod_record

from ckanext.passport.lkod.eligibility import reasons
from ckanext.passport.mr.translation import translator


def codes(record: dict) -> list[tuple[str, dict]]:
    return [(problem.code, dict(problem.params)) for problem in reasons(record)]


def test_a_complete_published_public_record_is_listed():
    assert reasons(lkod_record()) == []


@pytest.mark.parametrize("state", ["draft", "submitted", "returned", "invalidated"])
def test_a_record_not_published_is_left_out(state):
    assert codes(lkod_record(editorial_state=state)) == [("lkod.unpublished", {"state": state})]


def test_a_record_that_never_had_a_state_is_a_draft_and_left_out():
    record = lkod_record()
    del record["editorial_state"]
    assert codes(record) == [("lkod.unpublished", {"state": "draft"})]


def test_a_private_record_is_left_out():
    assert codes(lkod_record(private=True)) == [("lkod.private", {})]


def test_a_record_with_an_inn_publisher_is_left_out():
    record = lkod_record(publisher_id_scheme="inn", publisher_id=ROSSTAT_INN)
    assert codes(record) == [("lkod.no_ico_publisher", {})]


@pytest.mark.parametrize("language", ["ru", "en", "sk"])
def test_a_record_not_in_czech_is_left_out_naming_its_language(language):
    """Its texts carry its language (issue 24); NKOD and its validator take Czech titles and descriptions."""
    assert codes(lkod_record(record_language=language)) == [("lkod.not_czech", {"language": language})]


def test_a_record_naming_no_language_is_czech_and_listed():
    assert reasons(lkod_record(record_language="")) == []


@pytest.mark.parametrize(
    "field, empty",
    [("title", ""), ("notes", " "), ("tags", []), ("data_themes", []), ("accrual_periodicity", ""),
     ("spatial_area", ""), ("resources", [])],
)
def test_a_record_without_a_field_nkod_needs_is_left_out_naming_it(field, empty):
    assert codes(lkod_record(**{field: empty})) == [("lkod.missing_field", {"field": field})]


def test_a_theme_or_frequency_outside_the_eu_tables_counts_as_missing():
    record = lkod_record(data_themes=["SPORT"], accrual_periodicity="SOMETIMES")
    assert [params["field"] for _, params in codes(record)] == ["data_themes", "accrual_periodicity"]


def test_a_record_whose_resources_have_no_url_has_no_distribution():
    record = lkod_record()
    for resource in record["resources"]:
        resource["url"] = ""
    assert codes(record) == [("lkod.missing_field", {"field": "resources"})]


def test_a_distribution_with_undecided_conditions_of_use_is_named():
    record = lkod_record(use_personal_data="")
    assert codes(record) == [
        ("lkod.missing_resource_field", {"field": "use_personal_data", "resource": "Obyvatelstvo obcí 2024"}),
        ("lkod.missing_resource_field", {"field": "use_personal_data", "resource": "SPARQL endpoint obyvatelstva"}),
    ]


def test_personal_data_unspecified_is_not_a_value_the_norm_s_schema_accepts():
    record = lkod_record()
    record["resources"][0]["use_personal_data"] = "unspecified"
    assert codes(record) == [
        ("lkod.missing_resource_field", {"field": "use_personal_data", "resource": "Obyvatelstvo obcí 2024"}),
    ]


def test_a_licence_that_decides_no_condition_leaves_them_to_the_record():
    record = lkod_record(license_id="other-closed", use_database_right="")
    fields = [params["field"] for _, params in codes(record)]
    assert fields.count("use_author_work") == 1  # the service states its own; the file inherits nothing
    assert "use_database_right" in fields


def test_a_file_without_a_format_nkod_knows_is_named():
    record = lkod_record()
    record["resources"][0]["format"] = "proprietary blob"
    assert codes(record) == [
        ("lkod.missing_resource_field", {"field": "format", "resource": "Obyvatelstvo obcí 2024"}),
    ]


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_reason_reads_in_czech_and_russian(lang):
    record = lkod_record(editorial_state="draft", private=True, publisher_id_scheme="inn", title="", use_personal_data="")
    translate = translator(lang)
    for problem in reasons(record):
        assert problem.message(translate) != problem.message(), problem.code
        assert "{" not in problem.message(translate)


def test_an_hvd_record_served_only_by_an_undocumented_service_needs_documentation():
    record = lkod_record(hvd_category=HVD_CATEGORY, documentation_url="")
    record["resources"] = [record["resources"][1]]
    record["resources"][0]["format_docs"] = []
    assert codes(record) == [("lkod.missing_field", {"field": "documentation_url"})]
    record["resources"][0]["format_docs"] = ["https://data.example.cz/sparql/napoveda"]
    assert codes(record) == []


def test_an_hvd_record_with_a_file_distribution_needs_no_documentation():
    assert codes(lkod_record(hvd_category=HVD_CATEGORY, documentation_url="")) == []
