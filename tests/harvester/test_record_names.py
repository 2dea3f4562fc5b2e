"""A harvested record's new name: ckanext-harvest's rule (harvest.names), answered by the package name's index.

ckanext-harvest's own version lists the names like the ideal one with an ILIKE, which reads the whole package table
for every record a harvest creates: its cost grew with the portal (bench/bench_portal_scale.py, issue 42).
"""
from __future__ import annotations

import re

import pytest
from ckan import model
from ckanext.harvest.harvesters.base import HarvesterBase

from ckanext.passport.harvest.mr_harvester import PassportHarvester
from ckanext.passport.harvest.names import unique_name
from ckanext.passport.lkod.harvester import LkodHarvester
from tests.support.query_plans import reads_whole, statements_sent

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]


def _names(*names: str) -> None:
    for name in names:
        model.Session.add(model.Package(name=name, state="active"))
    model.Session.commit()


def test_a_free_ideal_name_is_given_as_it_is():
    _names("other-dataset")
    assert unique_name("air-quality") == "air-quality"


def test_a_taken_name_gets_the_first_free_number():
    _names("air-quality", "air-quality1", "air-quality3")
    assert unique_name("air-quality") == "air-quality2"


def test_a_records_own_name_that_extends_the_ideal_one_is_kept():
    _names("air-quality", "air-quality7")
    assert unique_name("air-quality", existing_name="air-quality7") == "air-quality7"


def test_a_records_own_ideal_name_is_not_counted_as_taken():
    _names("air-quality")
    assert unique_name("air-quality", existing_name="air-quality") == "air-quality"


def test_random_hex_appends_five_hex_digits_to_a_taken_name():
    _names("air-quality")
    assert re.fullmatch(r"air-quality[0-9a-f]{5}", unique_name("air-quality", append_type="random-hex"))


def test_a_name_too_long_is_cut_to_leave_room_for_its_number():
    ideal = "a" * 100
    _names(ideal)
    assert unique_name(ideal) == "a" * 99 + "1"


def test_every_statement_of_the_rule_is_answered_by_an_index_of_package():
    _names("air-quality", "air-quality1")
    sent = statements_sent(unique_name, "air-quality")
    assert sent and not [statement for statement, parameters in sent if reads_whole("package", statement, parameters)]


def test_ckanext_harvests_own_rule_reads_the_whole_package_table():
    # What the rule above replaces, and why: the check of the test above tells it apart.
    _names("air-quality")
    sent = statements_sent(HarvesterBase._ensure_name_is_unique, "air-quality")
    assert any(reads_whole("package", statement, parameters) for statement, parameters in sent)


@pytest.mark.parametrize("harvester", [PassportHarvester, LkodHarvester])
def test_both_source_types_name_new_records_by_the_rule_through_the_index(harvester):
    _names("air-quality")
    sent = statements_sent(harvester._gen_new_name, "Air quality")
    assert harvester._gen_new_name("Air quality") == "air-quality1"
    assert sent and not [statement for statement, parameters in sent if reads_whole("package", statement, parameters)]
