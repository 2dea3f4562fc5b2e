"""The Czech IČO (identifikační číslo osoby): the one rule, used by the record's validators and the LKOD's IRIs.

Pure, so both the CKAN validators and the DCAT-AP-CZ mapping read it without a request.
"""
from __future__ import annotations

import re

# ASCII digits only: an IČO is written in them, and fullmatch so a trailing newline is not an IČO either.
_EIGHT_DIGITS = re.compile(r"[0-9]{8}")


def is_ico(value: object, *, check_digit: bool = True) -> bool:
    """Whether ``value`` is an IČO: 8 digits, the last a mod-11 check digit over the first seven (weights 8..2).

    ``check_digit=False`` asks only for the written form: the LKOD's IRIs (lkod.iris) map an IČO to and from
    its RPP IRI by form, so that a harvested record with a wrong check digit still reaches the record's
    validator and is refused there with that reason, not as a record without a publisher.
    """
    if not isinstance(value, str) or not _EIGHT_DIGITS.fullmatch(value):
        return False
    if not check_digit:
        return True
    remainder = sum(int(digit) * weight for digit, weight in zip(value[:7], range(8, 1, -1))) % 11
    return int(value[7]) == {0: 1, 1: 0}.get(remainder, 11 - remainder)
