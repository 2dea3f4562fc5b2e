"""A source's JSON config: checked against its schema with readable errors, and turned into fetch limits."""
from __future__ import annotations

import json

import pytest

from ckanext.passport.harvest.config import above_site_limits, config_errors, load_config


def test_empty_config_is_valid():
    assert config_errors("") == []


def test_every_documented_option_is_accepted():
    config = {
        "registry_url": "https://opendata.example.ru/opendata/list.csv",
        "formats": ["meta.xml", "meta.json"],
        "user_agent": "portal-bot",
        "timeout": 5,
        "max_file_size": 100_000,
        "encoding": "windows-1251",
        "allow_private_addresses": False,
        "organization": "rosstat",
        "default_editorial_state": "draft",
        "delete_missing": True,
        "on_missing": "withdraw",
        "max_delete_ratio": 0.3,
        "fetch_structures": True,
        "user": "harvest-bot",
        "index_commit": "hard",
    }
    assert config_errors(json.dumps(config)) == []


@pytest.mark.parametrize(
    "config, code, message",
    [
        ("{not json", "config.reason_not_json", "it is not valid JSON (line 1, column 2)"),
        ("[]", "config.reason_not_object", "it must be a JSON object"),
        ('{"colour": "red"}', "config.reason_unknown_option", "unknown option 'colour'"),
        ('{"timeout": -1}', "config.reason_not_above", "'timeout' must be greater than 0"),
        ('{"timeout": "10"}', "config.reason_wrong_type", "'timeout' must be a JSON number"),
        ('{"formats": ["meta.yaml"]}', "config.reason_not_one_of",
         "'formats.0' must be one of: meta.json, meta.xml, meta.csv, mr23.csv, rdfa"),
        ('{"encoding": "klingon-8"}', "config.reason_unknown_encoding", "unknown text encoding 'klingon-8'"),
        ('{"registry_url": "ftp://example.ru/list.csv"}', "config.reason_not_http",
         "'registry_url' must be an http:// or https:// address"),
        ('{"organization": "a", "create_organizations": true}', "config.reason_organization_or_create",
         "use either 'organization' or 'create_organizations', not both"),
        ('{"max_delete_ratio": 2}', "config.reason_too_large", "'max_delete_ratio' must be at most 1"),
        ('{"max_file_size": 10}', "config.reason_too_small", "'max_file_size' must be at least 1024"),
        ('{"index_commit": "sometimes"}', "config.reason_not_one_of", "'index_commit' must be one of: soft, hard"),
        ('{"formats": []}', "config.reason_not_allowed", "'formats' has a value that is not allowed"),
    ],
)
def test_bad_config_gets_a_coded_readable_error(config, code, message):
    found = config_errors(config)
    assert [(error.code, error.message()[:len(message)]) for error in found] == [(code, message)]


@pytest.mark.parametrize("codec", ["rot13", "zlib_codec", "base64", "uu"])
def test_an_encoding_that_names_a_codec_but_no_text_encoding_is_refused(codec):
    found = config_errors(json.dumps({"encoding": codec}))

    assert [(error.code, error.message()) for error in found] == [
        ("config.reason_unknown_encoding", f"unknown text encoding '{codec}'")]


def test_a_source_config_carries_the_sites_read_limits():
    from ckanext.passport import settings

    config = load_config("{}", {settings.MAX_REGISTRY_BYTES: "1048576"})

    assert (config.limits.registry_bytes, config.limits.passport_bytes) == (1024 * 1024, 2 * 1024 * 1024)


@pytest.mark.parametrize("lang, expected", [
    ("cs", "Neplatná konfigurace: neznámá volba 'colour'"),
    ("ru", "Неверная конфигурация: неизвестный параметр 'colour'"),
])
def test_a_config_error_reads_in_the_readers_language(lang, expected):
    from ckanext.passport.mr.problems import problem
    from ckanext.passport.mr.translation import translator

    reason = config_errors('{"colour": "red"}')[0]
    assert problem("config.invalid", errors=reason).message(translator(lang)) == expected


def test_site_options_are_defaults_and_the_source_overrides_them():
    site = {"ckanext.passport.timeout": 7, "ckanext.passport.max_file_size": 2048, "ckanext.passport.user_agent": "ua"}
    assert load_config("", site).policy.read_timeout == 7
    own = load_config('{"timeout": 3, "max_file_size": 4096}', site).policy
    assert (own.read_timeout, own.max_bytes, own.user_agent) == (3, 4096, "ua")


def test_site_options_given_as_text_by_an_ini_file_are_numbers():
    site = {"ckanext.passport.timeout": "7", "ckanext.passport.max_file_size": "2048"}
    assert (load_config("", site).policy.read_timeout, load_config("", site).policy.max_bytes) == (7, 2048)


def test_limits_above_the_sites_settings_are_named_with_the_setting():
    site = {"ckanext.passport.timeout": "10", "ckanext.passport.max_file_size": 2048}
    assert above_site_limits({"timeout": 10.5, "max_file_size": 2048}, site) == [
        ("timeout", 10, "ckanext.passport.timeout")]
    assert above_site_limits({"max_file_size": 2049}, site) == [
        ("max_file_size", 2048, "ckanext.passport.max_file_size")]
    assert above_site_limits({"timeout": 30, "max_file_size": 50 * 1024 * 1024}, {}) == []


def test_private_addresses_are_refused_unless_configured():
    assert load_config("", {}).policy.allow_private_addresses is False
    assert load_config('{"allow_private_addresses": true}', {}).policy.allow_private_addresses is True


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db")
class TestThroughTheApi:
    def _create(self, app, user, config: dict):
        from ckan.tests import factories

        org = factories.Organization(users=[{"name": user["name"], "capacity": "admin"}])
        return app.post(
            "/api/3/action/harvest_source_create",
            json={"name": "mr", "url": "https://opendata.example.ru/opendata/", "source_type": "passport",
                  "owner_org": org["id"], "config": json.dumps(config)},
            headers={"Authorization": user["token"]},
        )

    def test_organization_admin_cannot_allow_private_addresses(self, web):
        from ckan.tests import factories

        response = self._create(web, factories.UserWithToken(), {"allow_private_addresses": True})
        assert response.status_code == 409
        assert "Only a sysadmin may allow harvesting private addresses" in response.body

    def test_unknown_option_is_refused_with_its_name(self, web):
        from ckan.tests import factories

        response = self._create(web, factories.SysadminWithToken(), {"colour": "red"})
        assert response.status_code == 409
        assert "[config.invalid] Invalid configuration: unknown option 'colour'" in response.json["error"]["config"][0]

    def test_skipping_review_needs_the_sites_consent(self, web):
        from ckan.tests import factories

        response = self._create(web, factories.SysadminWithToken(), {"default_editorial_state": "published"})
        assert response.status_code == 409
        assert "initial_states" in response.body
