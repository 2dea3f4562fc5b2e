"""The documents /lkod/ serves for records made through CKAN (the record schema, its validators, package_show)
validate against the SHACL shapes as test_documents_shacl.py's do: no violation but shacl_support.KNOWN's.

One organization with an IČO and its records, made once for the module: a dataset in Czech and English over two
regions, an HVD dataset, a series and its member. Each is read as NKOD reads it (JSON-LD, no Accept header), in
both norms; the Turtle of the same graphs is test_documents_shacl.py's.
"""
from __future__ import annotations

import pytest
from tests.support.catalog_records import complete_resource
from ckan.tests import factories
from tests.support.lkod_records import HVD_CATEGORY
from tests.support.shacl import shape_sets_for, unexpected, violations
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, create

from ckanext.passport.lkod.context import parse_jsonld
from ckanext.passport.lkod.norms import NORMS

pytestmark = [*LKOD_CONFIG_READ_ONLY, pytest.mark.ckan_config("ckan.site_url", "https://data.example.cz")]

RECORDS = ("dataset (cs, en)", "HVD dataset", "series", "series member")
API = complete_resource(
    name="API jízdních řádů", url="https://data.example.cz/api/jizdni-rady", source_type="api", format="",
    format_label="", mimetype="", mimetype_inner="", schema_urls=[],
    format_docs=["https://data.example.cz/api/jizdni-rady/dokumentace"],
    use_author_work="no-copyright-work", use_database_work="not-copyright-database",
)


def _build() -> dict:
    org, sysadmin = factories.Organization(ico="00025593"), factories.Sysadmin()
    return {
        "org": org,
        "dataset (cs, en)": create(
            org, sysadmin, "obyvatelstvo", title_en="Population of municipalities",
            notes_en="The population of every municipality.", keywords_en=["population", "municipalities"],
            spatial_area=["CZ064", "CZ052"],
        ),
        # DCAT-AP HVD wants an HVD dataset served by a data service (the regulation's API), besides its files.
        "HVD dataset": create(
            org, sysadmin, "jizdni-rady", hvd_category=HVD_CATEGORY, resources=[complete_resource(), API],
        ),
        "series": create(org, sysadmin, "rozpocty", record_kind="series", resources=[]),
        "series member": create(org, sysadmin, "rozpocet-2019", in_series="rozpocty"),
    }


@pytest.fixture
def made(built_once) -> dict:
    return built_once("records", _build)


def _unexpected(app, path: str, shape_sets: tuple[str, ...]) -> list[str]:
    response = app.get(path)
    assert response.status_code == 200, path
    graph = parse_jsonld(response.data)
    return [f"{shape_set}: {violation}" for shape_set in shape_sets for violation in unexpected(violations(graph, shape_set))]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("record", RECORDS)
def test_a_served_record_document_has_no_violation_but_the_known_ones(web, made, record, norm):
    path = f"/lkod/dataset/{made[record]['id']}?norm={norm}"

    assert _unexpected(web, path, shape_sets_for(norm, hvd=record.startswith("HVD"))) == []


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("catalog", ["/lkod/catalog", "/lkod/organization/{org}/catalog"])
def test_a_served_catalog_has_no_violation_but_the_known_ones(web, made, catalog, norm):
    path = catalog.format(org=made["org"]["name"]) + f"?norm={norm}"

    assert _unexpected(web, path, shape_sets_for(norm, hvd=False, catalog=True)) == []
