"""A complete Czech catalog record: every field the catalog schema (catalog/schemas/dataset.yaml) requires.

For any test that creates datasets through the real schema: the catalog's schema, validator, vocabulary,
openness and workflow tests, the publish tests, the stack tests.
"""
from __future__ import annotations

from typing import Any

# Real, checksum-valid identifiers: Český statistický úřad (IČO) and Rosstat (INN).
CZSO_ICO = "00025593"
ROSSTAT_INN = "7708234640"
EUROVOC_ECONOMICS = "http://eurovoc.europa.eu/100146"  # domain 16 ECONOMICS
EUROVOC_DEMOGRAPHY = "http://eurovoc.europa.eu/100210"  # microthesaurus 2816 demography and population
ALL_CONDITIONS_MET = {
    "complete": "yes",
    "accessible": "yes",
    "machine_readable": "yes",
    "open_format": "yes",
    "open_terms": "yes",
    "free": "no",
}


def complete_resource(**overrides: Any) -> dict[str, Any]:
    resource = {
        "name": "Obyvatelstvo obcí 2024",
        "description": "Počet obyvatel obcí k 1. lednu 2024",
        "url": "https://data.example.cz/obyvatelstvo-2024.csv.gz",
        "source_type": "file",
        "language": "cs",
        "format_label": "hodnoty oddělené čárkou",
        "format": "CSV",
        "format_docs": ["https://www.rfc-editor.org/rfc/rfc4180"],
        "schema_urls": ["https://data.example.cz/obyvatelstvo.schema.json", "https://data.example.cz/obce.csvw.json"],
        "mimetype": "application/gzip",
        "mimetype_inner": "text/csv",
        "size": 123456,
        "last_modified": "2024-02-01T00:00:00",
    }
    resource.update(overrides)
    return resource


def complete_record(**overrides: Any) -> dict[str, Any]:
    record = {
        "name": "obyvatelstvo-obci",
        "title": "Obyvatelstvo obcí",
        "notes": "Počet obyvatel všech obcí České republiky.",
        "record_language": "cs",
        "record_validity": "valid",
        "publisher_id_scheme": "ico",
        "publisher_id": CZSO_ICO,
        "publisher_name": "Český statistický úřad",
        "publisher_url": "https://www.czso.cz",
        "publisher_email": "infoservis@czso.cz",
        "openness_conditions": dict(ALL_CONDITIONS_MET),
        "license_id": "cc-by",
        "license_url": "https://creativecommons.org/licenses/by/4.0/",
        "isvs_name": "Veřejná databáze ČSÚ",
        "isvs_ref": "ISVS-0042",
        "isdp_elements": [
            {"name": "Kód obce", "ref": "ISDP-OBEC-KOD"},
            {"name": "Počet obyvatel", "ref": "ISDP-POCET-OBYV"},
        ],
        "related_records": [
            {"title": "Obyvatelstvo obcí 2023", "relation": "replaces", "url": "https://data.example.cz/zaznam/2023"},
        ],
        "eurovoc": [
            {"uri": EUROVOC_DEMOGRAPHY, "label": "demografie a obyvatelstvo"},
            {"uri": EUROVOC_ECONOMICS},
        ],
        "cz_nace": ["84", "O"],
        "tag_string": "obyvatelstvo,obce",
        "spatial_area": ["CZ0642"],
        "resources": [complete_resource()],
    }
    record.update(overrides)
    return record


def owned_record(**overrides: Any) -> dict[str, Any]:
    """``complete_record`` in an organization made for it: every record has one where, as in the test configuration
    and a portal's, ``ckan.auth.create_unowned_dataset`` is off (CKAN refuses a record of no organization, even a
    sysadmin's). For tests about the record, not about who curates it."""
    from ckan.tests import factories

    return complete_record(owner_org=factories.Organization()["id"], **overrides)
