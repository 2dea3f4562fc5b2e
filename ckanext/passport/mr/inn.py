"""Russian taxpayer numbers (ИНН): the check-digit algorithms of the Federal Tax Service.

A legal entity has 10 digits (one check digit), an individual 12 digits (two check digits). MR dataset
identifiers start with the publisher's INN, and the catalog validators reuse this module, so it stays pure.
"""
from __future__ import annotations

from typing import Literal, Optional, Sequence

InnKind = Literal["legal_entity", "individual"]

_WEIGHTS_10 = (2, 4, 10, 3, 5, 9, 4, 6, 8)
_WEIGHTS_11 = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_WEIGHTS_12 = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)


def inn_kind(value: str) -> Optional[InnKind]:
    """``legal_entity`` or ``individual`` for a valid INN, ``None`` for anything else."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    # Region codes run 01..99: "00" is never issued, and it would let "0000000000" pass the checksum.
    if value.startswith("00"):
        return None
    digits = [int(ch) for ch in value]
    if len(digits) == 10 and _check_digit(digits, _WEIGHTS_10) == digits[9]:
        return "legal_entity"
    if (
        len(digits) == 12
        and _check_digit(digits, _WEIGHTS_11) == digits[10]
        and _check_digit(digits, _WEIGHTS_12) == digits[11]
    ):
        return "individual"
    return None


def is_valid_inn(value: str) -> bool:
    """True when ``value`` is a 10- or 12-digit INN whose check digits are right."""
    return inn_kind(value) is not None


def _check_digit(digits: Sequence[int], weights: Sequence[int]) -> int:
    return sum(d * w for d, w in zip(digits, weights)) % 11 % 10
