"""Who may say what in a source's config: an organization admin creates and edits sources, but records land
only where they may create datasets, and the harvest user, new organizations, internal hosts, skipping review
and limits above the site's are not theirs to set. Each refusal is an error of the ``config`` field."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db")]

SITE = "https://opendata.example.ru/opendata/"


def create(app, user: dict, owner_org: dict, config: dict, name: str = "mr"):
    return app.post(
        "/api/3/action/harvest_source_create",
        json={"name": name, "url": SITE, "source_type": "passport", "owner_org": owner_org["id"],
              "config": json.dumps(config)},
        headers={"Authorization": user["token"]},
    )


def config_errors(response) -> list[str]:
    """The ``config`` field's errors of a refused action (409, a validation error)."""
    assert response.status_code == 409, response.body
    error = response.json["error"]
    assert error["__type"] == "Validation Error"
    assert set(error) == {"__type", "config"}
    return error["config"]


def test_organization_admin_may_harvest_into_their_own_organization(web, org_admin, own_org):
    response = create(web, org_admin, own_org, {"organization": own_org["name"]})

    assert response.status_code == 200, response.body
    assert json.loads(response.json["result"]["config"]) == {"organization": own_org["name"]}


def test_organization_admin_may_harvest_into_an_organization_where_they_are_an_editor(web, org_admin, own_org):
    other = factories.Organization(users=[{"name": org_admin["name"], "capacity": "editor"}])

    assert create(web, org_admin, own_org, {"organization": other["id"]}).status_code == 200


def test_organization_admin_may_not_harvest_into_another_organization(web, org_admin, own_org):
    other = factories.Organization(name="ministerstvo")

    errors = config_errors(create(web, org_admin, own_org, {"organization": "ministerstvo"}))

    assert len(errors) == 1
    assert "[config.organization_not_allowed]" in errors[0]
    assert "'ministerstvo'" in errors[0]
    assert other["name"] == "ministerstvo"


def test_organization_admin_may_not_harvest_into_one_where_they_are_only_a_member(web, org_admin, own_org):
    other = factories.Organization(users=[{"name": org_admin["name"], "capacity": "member"}])

    errors = config_errors(create(web, org_admin, own_org, {"organization": other["name"]}))

    assert "[config.organization_not_allowed]" in errors[0]


def test_an_organization_that_does_not_exist_is_refused_for_everyone(web, own_org):
    errors = config_errors(create(web, factories.SysadminWithToken(), own_org, {"organization": "nowhere"}))

    assert "[config.organization_unknown]" in errors[0]


@pytest.mark.ckan_config("ckanext.passport.initial_states", "submitted")
@pytest.mark.parametrize(("option", "code"), [
    ({"user": "harvest-bot"}, "config.user_sysadmin_only"),
    ({"create_organizations": True}, "config.create_organizations_sysadmin_only"),
    ({"allow_private_addresses": True}, "config.private_addresses_sysadmin_only"),
    ({"default_editorial_state": "submitted"}, "config.editorial_state_sysadmin_only"),
    # The portal mailing outsiders, or its admins more often than the site does (issue 37).
    ({"notify_publisher": True}, "config.notify_publisher_sysadmin_only"),
    ({"notify_score_drop": 4}, "config.notify_score_drop_sysadmin_only"),
])
def test_organization_admin_may_not_set_a_sysadmin_option(web, org_admin, own_org, option, code):
    errors = config_errors(create(web, org_admin, own_org, option))

    assert f"[{code}]" in errors[0]


def test_every_refusal_is_named_in_the_one_config_error(web, org_admin, own_org):
    errors = config_errors(create(web, org_admin, own_org, {"user": "harvest-bot", "create_organizations": True}))

    assert "[config.user_sysadmin_only]" in errors[0]
    assert "[config.create_organizations_sysadmin_only]" in errors[0]


@pytest.mark.ckan_config("ckanext.passport.initial_states", "submitted")
def test_sysadmin_may_set_every_option(web, own_org):
    elsewhere = factories.Organization()
    bot = factories.User()
    config = {"organization": elsewhere["name"], "user": bot["name"], "allow_private_addresses": True,
              "default_editorial_state": "submitted", "timeout": 30, "notify_publisher": True, "notify_score_drop": 1}

    response = create(web, factories.SysadminWithToken(), own_org, config)

    assert response.status_code == 200, response.body


@pytest.mark.ckan_config("ckanext.passport.timeout", "10")
@pytest.mark.ckan_config("ckanext.passport.max_file_size", "1048576")
@pytest.mark.parametrize(("option", "setting"), [
    ({"timeout": 11}, "ckanext.passport.timeout"),
    ({"max_file_size": 1048577}, "ckanext.passport.max_file_size"),
])
def test_limits_above_the_sites_settings_are_refused_even_for_a_sysadmin(web, own_org, option, setting):
    errors = config_errors(create(web, factories.SysadminWithToken(), own_org, option))

    assert "[config.above_site_limit]" in errors[0]
    assert setting in errors[0]


@pytest.mark.ckan_config("ckanext.passport.timeout", "10")
def test_limits_at_or_below_the_sites_settings_are_accepted(web, org_admin, own_org):
    assert create(web, org_admin, own_org, {"timeout": 10, "max_file_size": 4096}).status_code == 200


def test_organization_admin_may_not_widen_an_existing_source_either(web, org_admin, own_org):
    source = create(web, org_admin, own_org, {}).json["result"]
    factories.Organization(name="ministerstvo")

    response = web.post(
        "/api/3/action/harvest_source_update",
        json={"id": source["id"], "name": source["name"], "url": SITE, "source_type": "passport",
              "owner_org": own_org["id"], "config": json.dumps({"organization": "ministerstvo"})},
        headers={"Authorization": org_admin["token"]},
    )

    assert "[config.organization_not_allowed]" in config_errors(response)[0]
