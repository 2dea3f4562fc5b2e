"""Datasets of every shape the publisher meets, and the config the publish tests run with.

The test schema carries the MR fields; review scope ``none`` makes every record public, so that tests
of the exports do not depend on the editorial workflow (tests/publish/test_visibility.py covers it).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

# CKAN's default dataset schema plus the MR fields of mapping.py (see the file's header).
CATALOG_SCHEMA = (Path(__file__).parent / "mr_dataset_schema.yaml").as_uri()

PUBLISH_CONFIG = (
    pytest.mark.ckan_config("scheming.dataset_schemas", CATALOG_SCHEMA),
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
)

INN = "7712345678"


def harvested_shape(org: dict[str, Any]) -> dict[str, Any]:
    """A dataset harvested from an MR 3.0 site: its own identifier, dates, two data versions, one structure."""
    return {
        "owner_org": org["id"],
        "name": "7712345678-showrooms",
        "title": "Автосалоны",
        "notes": "Перечень автосалонов, с адресами; и \"кавычками\".",
        "mr_identifier": "7712345678-showrooms",
        "publisher_id": INN,
        "publisher_id_scheme": "inn",
        "publisher_name": "Департамент транспорта",
        "maintainer": "Иванов Иван Иванович",
        "maintainer_email": "ivanov@example.com",
        "mr_publisher_phone": "+7 (495) 123-45-67",
        "mr_created": "2013-04-01T00:00:00",
        "mr_modified": "2013-06-01T00:00:00",
        "mr_valid": "2014-01-01",
        "mr_format": "csv",
        "mr_provenance": "Обновление набора данных",
        "mr_periodicity": "ежемесячно",
        "tags": [{"name": "автосалон"}, {"name": "транспорт"}],
        "resources": [
            {
                "url": "http://files.example.com/showrooms/2.csv",
                "format": "CSV",
                "resource_type": "data",
                "mr_version": "20130601T0000",
                "mr_structure_version": "20130401T0000",
                "mr_created": "2013-06-01T00:00:00",
                "mr_provenance": "Обновление набора данных",
                "mr_valid": "2014-01-01",
            },
            {
                "url": "http://files.example.com/showrooms/1.csv",
                "format": "CSV",
                "resource_type": "data",
                "mr_version": "20130401T0000",
                "mr_structure_version": "20130401T0000",
                "mr_created": "2013-04-01T00:00:00",
                "mr_provenance": "Первичная публикация",
            },
            {
                "url": "http://files.example.com/showrooms/structure.csv",
                "format": "CSV",
                "resource_type": "structure",
                "mr_version": "20130401T0000",
                "mr_created": "2013-04-01T00:00:00",
            },
        ],
    }


def portal_shape(org: dict[str, Any]) -> dict[str, Any]:
    """A dataset made in the portal: no MR identifier or versions, CKAN's own dates; a file and its structure."""
    return {
        "owner_org": org["id"],
        "name": "bus-stops",
        "title": "Bus stops",
        "notes": "Stops of the city buses.",
        "publisher_id": INN,
        "publisher_id_scheme": "inn",
        "maintainer": "Jane Roe",
        "maintainer_email": "jane@example.com",
        "tags": [{"name": "transport"}],
        "resources": [
            {"url": "http://files.example.com/stops.csv", "format": "CSV"},
            {"url": "http://files.example.com/stops-fields.csv", "format": "CSV", "resource_type": "structure"},
        ],
    }


def structures_shape(org: dict[str, Any]) -> dict[str, Any]:
    """XML data whose structure changed: three versions over two structure versions."""
    return {
        "owner_org": org["id"],
        "name": "7712345678-budget",
        "title": "Budget",
        "notes": "Budget lines.",
        "mr_identifier": "7712345678-budget",
        "publisher_name": "Finance department",
        "maintainer": "John Smith",
        "maintainer_email": "smith@example.com",
        "mr_publisher_phone": "+7 495 000-00-00",
        "mr_created": "2015-01-01",
        "mr_modified": "2016-03-01T12:30:00",
        "mr_format": "xml",
        "mr_provenance": "Изменение структуры данных",
        "mr_periodicity": "ежегодно",
        "tags": [{"name": "budget"}],
        "resources": [
            {"url": "http://files.example.com/budget/2016.xml", "format": "XML", "resource_type": "data",
             "mr_version": "3", "mr_structure_version": "2", "mr_created": "2016-03-01T12:30:00",
             "mr_provenance": "Изменение структуры данных"},
            {"url": "http://files.example.com/budget/2015b.xml", "format": "XML", "resource_type": "data",
             "mr_version": "2", "mr_structure_version": "1", "mr_created": "2015-06-01"},
            {"url": "http://files.example.com/budget/2015.xml", "format": "XML", "resource_type": "data",
             "mr_version": "1", "mr_structure_version": "1", "mr_created": "2015-01-01"},
            {"url": "http://files.example.com/budget/s2.xsd", "format": "XSD", "resource_type": "structure",
             "mr_version": "2", "mr_created": "2016-03-01"},
            {"url": "http://files.example.com/budget/s1.xsd", "format": "XSD", "resource_type": "structure",
             "mr_version": "1", "mr_created": "2015-01-01"},
        ],
    }


def empty_shape(org: dict[str, Any]) -> dict[str, Any]:
    """A bare record: no resources, no keywords, no contacts; not publishable under MR."""
    return {"owner_org": org["id"], "name": "7712345678-plans", "title": "Plans", "mr_identifier": "7712345678-plans"}


SHAPES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "harvested": harvested_shape,
    "portal": portal_shape,
    "structures": structures_shape,
    "empty": empty_shape,
}
