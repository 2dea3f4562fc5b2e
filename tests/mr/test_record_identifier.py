"""Which identifier a harvested record keys on: the registry's when it is a well-formed MR identifier, else the
passport's well-formed one, with the check's mismatch finding either way.

Glavgosexpertiza's list.xml numbers its entries: ``<identifier>1</identifier>`` for the passport of
``7707082071-fsnb2020``. Predgorny's passport names its sibling while the registry's entry is right.
"""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ckanext.passport.mr.check import check_passport, is_mr_identifier, record_identifier
from ckanext.passport.mr.model import Passport, RegistryEntry

FSNB = "7707082071-fsnb2020"


def test_a_registry_that_numbers_its_entries_gives_way_to_the_passports_identifier():
    assert record_identifier("1", FSNB) == FSNB


def test_a_well_formed_registry_identifier_wins_over_the_passports_own():
    assert record_identifier("2618017120-politicaldivisions", "2618017120-subdivisions") == (
        "2618017120-politicaldivisions"
    )


def test_a_registry_identifier_with_wrong_inn_check_digits_gives_way_to_a_well_formed_passport_identifier():
    assert record_identifier("7707082072-fsnb2020", FSNB) == FSNB


def test_when_neither_is_well_formed_the_registrys_identifier_stays():
    assert record_identifier("1", "fsnb2020") == "1"


def test_without_a_registry_identifier_the_passports_is_taken_as_it_is():
    assert record_identifier("  ", "fsnb2020") == "fsnb2020"


def test_well_formed_means_a_valid_inn_and_one_latin_word():
    assert is_mr_identifier(FSNB)
    assert not is_mr_identifier("1")
    assert not is_mr_identifier("7707082071-фснб")
    assert not is_mr_identifier("7707082071-fsnb 2020")
    assert not is_mr_identifier("")


def test_the_passport_named_by_a_numbering_registry_keeps_the_mismatch_finding():
    entry = RegistryEntry(identifier="1", title="ФСНБ-2020", link="https://example.ru/opendata/1/meta.xml")
    report = check_passport(Passport(identifier=FSNB, title="ФСНБ-2020"), entry)
    assert "check.registry_identifier_mismatch" in report.codes


@given(st.text(max_size=30), st.text(max_size=30))
def test_the_record_identifier_is_always_one_of_the_two_and_a_well_formed_registrys_wins(registry, passport):
    chosen = record_identifier(registry, passport)
    assert chosen in (registry.strip(), passport.strip())
    if is_mr_identifier(registry):
        assert chosen == registry.strip()
