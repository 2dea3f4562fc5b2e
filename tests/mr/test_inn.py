"""INN check digits: real publishers' numbers pass, any one-digit change fails."""
from __future__ import annotations

import pytest

from ckanext.passport.mr.inn import inn_kind, is_valid_inn

REAL_LEGAL_ENTITIES = ["7708234640", "7703092752", "2618017120"]  # Rosstat, Roshydromet, Predgorny district


@pytest.mark.parametrize("inn", REAL_LEGAL_ENTITIES)
def test_real_publishers_inns_are_valid_legal_entity_numbers(inn):
    assert is_valid_inn(inn)
    assert inn_kind(inn) == "legal_entity"


def test_twelve_digit_individual_inn_with_both_check_digits_right_is_valid():
    assert inn_kind("500100732259") == "individual"


@pytest.mark.parametrize("inn", ["500100732250", "500100732209"])
def test_twelve_digit_inn_with_a_wrong_check_digit_is_invalid(inn):
    assert not is_valid_inn(inn)


@pytest.mark.parametrize("inn", ["7708234641", "7708234649", "7703092750", "2618017121"])
def test_wrong_check_digit_is_invalid(inn):
    assert not is_valid_inn(inn)
    assert inn_kind(inn) is None


@pytest.mark.parametrize(
    "text", ["", "770823464", "77082346400", "7708-234640", " 7708234640", "770823464O", "７７０８２３４６４０"]
)
def test_wrong_length_or_non_ascii_digits_are_invalid(text):
    assert not is_valid_inn(text)


@pytest.mark.parametrize("inn", ["0000000000", "000000000000"])
def test_all_zero_numbers_pass_the_checksum_but_are_not_inns(inn):
    assert not is_valid_inn(inn)


@pytest.mark.parametrize("inn", REAL_LEGAL_ENTITIES)
def test_every_other_check_digit_is_rejected(inn):
    others = [inn[:9] + str(digit) for digit in range(10) if str(digit) != inn[9]]

    assert [is_valid_inn(other) for other in others] == [False] * 9


def test_non_string_input_is_not_an_inn():
    assert not is_valid_inn(7708234640)  # type: ignore[arg-type]
