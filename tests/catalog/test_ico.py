"""The one IČO rule (catalog.record.ico), used by the record's validators and the LKOD's publisher IRIs."""
from __future__ import annotations

import pytest

from ckanext.passport.catalog.record.ico import is_ico
from ckanext.passport.lkod import iris


@pytest.mark.parametrize("value", ["00025593", "00006947", "25596641", "66003008"])
def test_an_ico_with_its_check_digit_is_an_ico(value: str) -> None:
    assert is_ico(value)


def test_a_wrong_check_digit_fails_the_rule_but_not_the_form() -> None:
    assert not is_ico("00025594")
    assert is_ico("00025594", check_digit=False)


@pytest.mark.parametrize("value", ["1234567", "123456789", "0002559a", "00025593\n", "٠٠٠٢٥٥٩٣", "", None, 25593])
def test_anything_but_eight_ascii_digits_is_no_ico(value: object) -> None:
    assert not is_ico(value, check_digit=False)


def test_the_lkod_maps_an_ico_to_its_rpp_iri_by_form_leaving_the_check_digit_to_the_record_validator() -> None:
    assert iris.publisher_ico(iris.publisher_iri("00025594")) == "00025594"
