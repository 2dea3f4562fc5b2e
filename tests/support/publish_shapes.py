"""Datasets of every shape the publisher meets, and the config the publish tests run with.

Every shape is a record of the portal's catalog schema (catalog/schemas/dataset.yaml, as test.ini configures
it): it carries the Czech record's required fields (:func:`catalog_fields`) next to the MR fields of its shape.
Review scope ``none`` makes every record public, so that tests of the exports do not depend on the editorial
workflow (tests/publish/test_visibility.py covers it).
"""
from __future__ import annotations

from typing import Any, Callable

import pytest
from tests.support.catalog_records import ALL_CONDITIONS_MET, EUROVOC_ECONOMICS, ROSSTAT_INN
from ckan.tests import factories

PUBLISH_CONFIG = (pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),)

# The publisher's INN (the catalog checks its check digits). A portal record without an MR identifier is
# published as ``<INN>-<latin name>``; the harvested shapes keep their own ``7712345678-…`` identifiers.
INN = ROSSTAT_INN


def catalog_fields(**overrides: Any) -> dict[str, Any]:
    """The fields the catalog schema requires besides title, name and notes: record, provider, conditions, class."""
    fields = {
        "record_language": "ru",
        "record_validity": "valid",
        "publisher_id_scheme": "inn",
        "publisher_id": INN,
        "publisher_name": "Департамент транспорта",
        "publisher_email": "opendata@example.ru",
        "openness_conditions": dict(ALL_CONDITIONS_MET),
        "eurovoc": [{"uri": EUROVOC_ECONOMICS}],
    }
    fields.update(overrides)
    return fields


def harvested_shape(org: dict[str, Any]) -> dict[str, Any]:
    """A dataset harvested from an MR 3.0 site: its own identifier, dates, two data versions, one structure."""
    return {
        **catalog_fields(),
        "owner_org": org["id"],
        "name": "7712345678-showrooms",
        "title": "Автосалоны",
        "notes": "Перечень автосалонов, с адресами; и \"кавычками\".",
        "mr_identifier": "7712345678-showrooms",
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
        **catalog_fields(),
        "owner_org": org["id"],
        "name": "bus-stops",
        "title": "Bus stops",
        "notes": "Stops of the city buses.",
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
        **catalog_fields(publisher_name="Finance department"),
        "owner_org": org["id"],
        "name": "7712345678-budget",
        "title": "Budget",
        "notes": "Budget lines.",
        "mr_identifier": "7712345678-budget",
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
    """A bare record: only what the catalog requires; no resources, keywords or responsible person; not
    publishable under MR."""
    return {
        **catalog_fields(),
        "owner_org": org["id"],
        "name": "7712345678-plans",
        "title": "Plans",
        "notes": "Plans of the department.",
        "mr_identifier": "7712345678-plans",
    }


SHAPES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "harvested": harvested_shape,
    "portal": portal_shape,
    "structures": structures_shape,
    "empty": empty_shape,
}


def publisher() -> dict[str, Any]:
    """The organization the publish tests' datasets belong to."""
    return factories.Organization(title="Департамент транспорта")


def publish_shape(org: dict[str, Any], shape: str, **changes: Any) -> dict[str, Any]:
    """A dataset of that shape (with ``changes``) created in ``org``, as stored."""
    return factories.Dataset(**{**SHAPES[shape](org), **changes})
