"""The conditions of use that hold: a resource's own, else the dataset's, else the licence's, else undecided."""
from __future__ import annotations

from ckanext.passport.catalog.record.conditions import FIELDS, effective_conditions, licence_defaults

UNDECIDED = dict.fromkeys(FIELDS, "")
STATED = {
    "use_author_work": "no-copyright-work",
    "use_database_work": "not-copyright-database",
    "use_database_right": "not-protected",
    "use_personal_data": "no-personal-data",
}


def test_a_dataset_without_conditions_or_a_deciding_licence_is_undecided():
    assert effective_conditions({"license_id": "odc-odbl", "publisher_name": "ČSÚ"}) == UNDECIDED


def test_the_datasets_stated_conditions_hold_for_it_and_for_its_resources():
    dataset = {"license_id": "cc-by", **STATED}
    expected = {**UNDECIDED, **STATED}
    assert effective_conditions(dataset) == expected
    assert effective_conditions(dataset, {"name": "data.csv"}) == expected


def test_a_resources_own_condition_overrides_the_datasets():
    resource = {"use_personal_data": "contains-personal-data", "use_database_right": " "}
    held = effective_conditions(STATED, resource)
    assert held["use_personal_data"] == "contains-personal-data"
    assert held["use_database_right"] == "not-protected"  # a blank override is no override


def test_cc_by_licenses_the_work_and_the_database_with_the_provider_as_their_author():
    held = effective_conditions({"license_id": "cc-by", "publisher_name": "Český statistický úřad"})
    assert held == {
        **UNDECIDED,
        "use_author_work": "cc-by-4.0", "use_author": "Český statistický úřad",
        "use_database_work": "cc-by-4.0", "use_database_author": "Český statistický úřad",
    }


def test_a_stated_author_is_kept_and_a_resource_licensing_its_work_gets_the_provider():
    dataset = {"license_id": "cc-by", "publisher_name": "ČSÚ", "use_author": "Odbor demografie",
               "use_database_work": "not-copyright-database"}
    assert effective_conditions(dataset)["use_author"] == "Odbor demografie"
    assert effective_conditions(dataset)["use_database_author"] == ""
    resource = {"use_database_work": "cc-by-4.0"}
    assert effective_conditions(dataset, resource)["use_database_author"] == "ČSÚ"


def test_cc0_waives_the_database_makers_right_and_decides_nothing_else():
    assert effective_conditions({"license_id": "cc-zero", "publisher_name": "ČSÚ"}) == {
        **UNDECIDED, "use_database_right": "cc0",
    }


def test_a_stated_condition_wins_over_the_licence():
    held = effective_conditions({"license_id": "cc-zero", "use_database_right": "not-protected"})
    assert held["use_database_right"] == "not-protected"


def test_licence_defaults_name_only_what_the_licence_decides():
    assert licence_defaults("cc-by") == {"use_author_work": "cc-by-4.0", "use_database_work": "cc-by-4.0"}
    assert licence_defaults("CC-BY-4.0") == licence_defaults("cc-by")
    assert licence_defaults("cc-zero") == {"use_database_right": "cc0"} == licence_defaults("CC0-1.0")
    assert licence_defaults("cc-by-sa") == licence_defaults("") == licence_defaults(None) == {}


def test_the_czech_no_conditions_licence_says_no_work_no_protected_database_and_leaves_personal_data_open():
    assert effective_conditions({"license_id": "cz-no-conditions"}) == {
        **UNDECIDED,
        "use_author_work": "no-copyright-work",
        "use_database_work": "not-copyright-database",
        "use_database_right": "not-protected",
    }
