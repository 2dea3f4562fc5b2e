"""A Czech record as ``package_show`` returns it, complete for the LKOD: files, a data service, HVD optional.

Built on ``catalog_records`` (the catalog schema's complete record) with the LKOD fields and the ids and tag
dicts CKAN adds; for the pure profile, document and eligibility tests (no database).
"""
from __future__ import annotations

from typing import Any

from tests.support.catalog_records import complete_record, complete_resource

from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.record.conditions import effective_conditions
from ckanext.passport.lkod import graph_out, iris

SITE_URL = "https://data.example.cz"
DATASET_ID = "4f1c3a0e-6b1d-4b8a-9a43-0c9e8d7f6a51"
FILE_ID = "9b2d7e10-1c3f-4e5a-8b6c-7d8e9f0a1b2c"
SERVICE_ID = "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f"
HVD_CATEGORY = "http://data.europa.eu/bna/c_1e787364"  # the HVD category of the norm's example
SERIES_ID = "0b9e2f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"  # a series record's id, for documents made without CKAN
# The catalog's settings (ckanext.passport.lkod.*) the documents are written with.
CATALOG = {
    "title": "Katalog otevřených dat portálu",
    "description": "Lokální katalog otevřených dat.",
    "publisher_ico": "00025593",
    "contact_email": "opendata@example.cz",
    "homepage": "https://data.example.cz/",
}


def lkod_record(**overrides: Any) -> dict[str, Any]:
    record = complete_record(
        id=DATASET_ID,
        editorial_state="published",
        private=False,
        tags=[{"name": "obyvatelstvo"}, {"name": "obce"}],
        data_themes=["SOCI", "GOVE"],
        accrual_periodicity="ANNUAL",
        temporal_start="2024-01-01",
        temporal_end="2024-12-31",
        documentation_url="https://data.example.cz/obyvatelstvo/dokumentace",
        hvd_category="",
        use_database_right="not-protected",
        use_personal_data="no-personal-data",
        resources=[
            complete_resource(id=FILE_ID),
            complete_resource(
                id=SERVICE_ID,
                name="SPARQL endpoint obyvatelstva",
                url="https://data.example.cz/sparql",
                source_type="sparql_endpoint",
                format="",
                format_label="",
                mimetype="",
                mimetype_inner="",
                schema_urls=[],
                format_docs=["https://data.example.cz/sparql/napoveda"],
                use_author_work="no-copyright-work",
                use_database_work="not-copyright-database",
            ),
        ],
    )
    record.pop("tag_string")
    record.update(overrides)
    return record


def lkod_fields(record: dict) -> dict:
    """The fields the LKOD mapping carries, as the record states them (conditions as they hold per resource)."""
    resources = []
    for resource in record["resources"]:
        service = resource["source_type"] in graph_out.SERVICE_SOURCE_TYPES
        resources.append({
            "lkod_iri": iris.distribution_iri(record["id"], resource["id"]),
            "url": resource["url"],
            "name": resource["name"],
            "source_type": resource["source_type"],
            "format": resource.get("format") or "",
            "mimetype": resource.get("mimetype") or "",
            "mimetype_inner": resource.get("mimetype_inner") or "",
            # A file distribution carries one schema (the norm's "schéma"); a service its documentation.
            "schema_urls": (resource.get("schema_urls") or [])[:1],
            "format_docs": (resource.get("format_docs") or []) if service else [],
            **effective_conditions(record, resource),
        })
    return {
        "lkod_iri": iris.dataset_iri(record["id"]),
        # The norm's texts are Czech, and so is a record read from them.
        "record_language": "cs",
        "title": record["title"],
        "notes": record["notes"],
        "tags": [{"name": tag["name"]} for tag in record["tags"]],
        "title_en": record.get("title_en") or "",
        "notes_en": record.get("notes_en") or "",
        "keywords_en": list(record.get("keywords_en") or []),
        "publisher_id_scheme": record["publisher_id_scheme"],
        "publisher_id": record["publisher_id"],
        "publisher_name": record["publisher_name"],
        "publisher_email": record["publisher_email"],
        "data_themes": record["data_themes"],
        "accrual_periodicity": record["accrual_periodicity"],
        # A district (CZ0642) is written as its region (no reliable RÚIAN okres code): it comes back as CZ064.
        "spatial_area": list(dict.fromkeys(
            iris.territory_code(iris.territory_iri(code)) for code in vocab.as_list(record["spatial_area"])
        )),
        "eurovoc": [{"uri": item["uri"]} for item in record["eurovoc"]],
        "temporal_start": record["temporal_start"],
        "temporal_end": record["temporal_end"],
        "documentation_url": record["documentation_url"],
        "hvd_category": record.get("hvd_category") or "",
        "resources": resources,
        # A member's series is read back by its LKOD IRI (the validator finds its record: catalog.record.series).
        "record_kind": record.get("record_kind") or "dataset",
        "in_series": iris.dataset_iri(record["in_series"]) if record.get("in_series") else "",
    }
