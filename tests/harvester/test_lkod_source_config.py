"""An ``lkod`` source's config: ckanext-dcat's ``rdf_format`` and the MR source's fetch and deletion options, each
refusal a coded error of the ``config`` field, and who may set what decided as for an MR source."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]

CATALOG = "https://data.example.cz/lkod/catalog"


def create(app, user: dict, owner_org: dict, config: dict):
    return app.post(
        "/api/3/action/harvest_source_create",
        json={"name": "lkod", "url": CATALOG, "source_type": "lkod", "owner_org": owner_org["id"],
              "config": json.dumps(config)},
        headers={"Authorization": user["token"]},
    )


def config_errors(response) -> list[str]:
    assert response.status_code == 409, response.body
    return response.json["error"]["config"]


def test_an_organization_admin_may_choose_the_documents_syntax_and_the_deletion_rules(web, org_admin, own_org):
    config = {"rdf_format": "text/turtle", "on_missing": "withdraw", "max_delete_ratio": 0.2, "timeout": 10}

    response = create(web, org_admin, own_org, config)

    assert response.status_code == 200, response.body
    assert json.loads(response.json["result"]["config"]) == config


def test_an_invalid_config_is_refused_with_a_coded_reason_for_each_fault(web, org_admin, own_org):
    errors = config_errors(create(web, org_admin, own_org, {"rdf_format": "xml", "registry_url": CATALOG}))

    assert len(errors) == 1
    assert "[config.invalid] Invalid configuration: unknown option 'registry_url'" in errors[0]
    assert ("[config.invalid] Invalid configuration: 'rdf_format' must be one of: json-ld, application/ld+json, "
            "turtle, text/turtle") in errors[0]


def test_only_a_sysadmin_may_allow_private_addresses(web, org_admin, own_org):
    errors = config_errors(create(web, org_admin, own_org, {"allow_private_addresses": True}))
    assert len(errors) == 1
    assert "[config.private_addresses_sysadmin_only] Only a sysadmin may allow harvesting private addresses." in errors[0]

    assert create(web, factories.SysadminWithToken(), own_org, {"allow_private_addresses": True}).status_code == 200


def test_a_fetch_limit_above_the_sites_is_refused(web, org_admin, own_org):
    errors = config_errors(create(web, org_admin, own_org, {"max_file_size": 10**12}))

    assert "[config.above_site_limit]" in errors[0]
