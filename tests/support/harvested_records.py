"""A harvested catalog record, as the harvester stores it: a real MR passport mapped in, the curator's part missing.

The record is Rosstat's OKVED2 passport (fixtures/real/rosstat-okved2/meta.csv) through ``mapping``, created with
the harvest's context flag, so it carries the MR identity (``mr_*``, resource types and versions) and lacks what a
passport cannot carry (EUROVOC, openness conditions, provider e-mail). For the tests of the edit paths (catalog,
browser walks); ``factories.HarvestedRecord`` stores it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ckanext.passport.catalog.record import mapping
from ckanext.passport.mr.passport import parse_passport

PASSPORT = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "rosstat-okved2" / "meta.csv"
IDENTIFIER = "7708234640-okvedva"
STRUCTURE_VERSION = "20180402T1704"
LATEST_DATA_VERSION = "20251101T1411"


def harvested_dataset() -> dict[str, Any]:
    """The dataset dict the harvester makes of the passport (before it is stored)."""
    passport = parse_passport(PASSPORT.read_bytes(), f"https://rosstat.gov.ru/opendata/{IDENTIFIER}/meta.csv").value
    assert passport is not None
    return mapping.passport_to_dataset(passport, conformance=80, registry_identifier=IDENTIFIER)


def resource_of(dataset: dict[str, Any], resource_type: str, version: str) -> dict[str, Any]:
    """The resource of one MR version (``data`` or ``structure``)."""
    return next(
        r for r in dataset["resources"] if r.get("resource_type") == resource_type and r.get("mr_version") == version
    )
