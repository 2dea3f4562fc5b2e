"""One settings room: every ``ckanext.passport.*`` option declared once and read only through ``settings``."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from ckanext.passport import settings

from ckanext.passport.harvest import config as harvest_config
from ckanext.passport.mr.fetch import DEFAULT_USER_AGENT
from ckanext.passport.mr.limits import ReadLimits

PACKAGE = Path(settings.__file__).resolve().parent
DECLARATIONS = sorted((PACKAGE / "config").glob("*.yaml"))
# Plugins other than the base plugin read these too, so ``passport`` (config/catalog.yaml) declares them.
SHARED = (*settings.FETCH_DEFAULTS, settings.IDENTIFIER_FIELD)


def _declared() -> dict[str, tuple[str, dict]]:
    """Option key -> (declaring file's stem, its declaration); fails on an option declared twice."""
    found: dict[str, tuple[str, dict]] = {}
    for path in DECLARATIONS:
        for group in yaml.safe_load(path.read_text("utf-8"))["groups"]:
            for option in group["options"]:
                assert option["key"] not in found, f"{option['key']} is declared twice"
                found[option["key"]] = (path.stem, option)
    return found


def _settings_keys() -> dict[str, str]:
    """Constant name -> option key of every option ``settings`` names."""
    return {
        name: value for name, value in vars(settings).items()
        if name.isupper() and isinstance(value, str) and value.startswith("ckanext.passport.")
    }


def _typed(option: dict) -> object:
    default = option.get("default")
    if option.get("type") == "int":
        return int(default)
    if option.get("type") == "bool":
        return default is True or str(default).lower() == "true"
    return default


def test_every_declared_option_is_named_in_settings_and_no_other():
    assert sorted(_settings_keys().values()) == sorted(_declared())


def test_every_option_settings_names_is_read_by_an_accessor():
    functions = [f for f in vars(settings).values() if callable(f) and getattr(f, "__module__", "") == settings.__name__]
    read = {name for function in functions for name in function.__code__.co_names}
    assert sorted(name for name in _settings_keys() if name not in read) == []


def test_no_module_but_settings_reads_an_option_by_its_key():
    declared = set(_declared())
    readers = []
    for path in PACKAGE.rglob("*.py"):
        if path == Path(settings.__file__).resolve():
            continue
        tree = ast.parse(path.read_text("utf-8"))
        if any(isinstance(node, ast.Constant) and node.value in declared for node in ast.walk(tree)):
            readers.append(str(path.relative_to(PACKAGE)))
    assert readers == []


def test_options_read_by_more_than_one_plugin_are_declared_by_the_base_plugin():
    declared = _declared()
    assert {key: declared[key][0] for key in SHARED} == {key: "catalog" for key in SHARED}


def test_the_fetch_defaults_are_the_declared_defaults():
    declared = _declared()
    assert {key: _typed(declared[key][1]) for key in settings.FETCH_DEFAULTS} == settings.FETCH_DEFAULTS


def test_the_declared_read_limits_are_the_readers_defaults():
    assert settings.read_limits({}) == ReadLimits()
    keys = (settings.MAX_PASSPORT_BYTES, settings.MAX_PAGE_BYTES, settings.MAX_REGISTRY_BYTES,
            settings.MAX_STRUCTURE_BYTES)
    assert settings.read_limits({key: _typed(_declared()[key][1]) for key in keys}) == ReadLimits()


def test_the_declared_user_agent_is_the_fetchers_default():
    assert _declared()[settings.USER_AGENT][1]["default"] == DEFAULT_USER_AGENT


# --- the one fetch-policy rule ------------------------------------------------------------------------------


def test_without_any_option_the_policy_is_the_declared_defaults():
    policy = settings.fetch_policy({}, {})

    assert (policy.connect_timeout, policy.read_timeout, policy.total_timeout) == (10, 30, 120)
    assert (policy.max_bytes, policy.user_agent, policy.allow_private_addresses) == (
        50 * 1024 * 1024, DEFAULT_USER_AGENT, False
    )


def test_the_timeout_bounds_connecting_and_each_read_and_four_times_it_the_whole_fetch():
    policy = settings.fetch_policy({settings.TIMEOUT: 3}, {})

    assert (policy.connect_timeout, policy.read_timeout, policy.total_timeout) == (3, 3, 12)


def test_site_options_given_as_text_are_read_as_their_types():
    policy = settings.fetch_policy(
        {settings.TIMEOUT: "7", settings.MAX_FILE_SIZE: "2048", settings.ALLOW_PRIVATE_ADDRESSES: "true"}, {}
    )

    assert (policy.read_timeout, policy.max_bytes, policy.allow_private_addresses) == (7, 2048, True)


def test_overrides_by_short_name_win_over_the_site():
    site = {settings.TIMEOUT: 20, settings.USER_AGENT: "site agent", settings.ALLOW_PRIVATE_ADDRESSES: True}
    policy = settings.fetch_policy(site, {"timeout": 5, "user_agent": "own agent", "allow_private_addresses": False})

    assert (policy.read_timeout, policy.user_agent, policy.allow_private_addresses) == (5, "own agent", False)


def test_a_harvest_source_gets_the_same_policy_as_the_rule_gives():
    site = {settings.TIMEOUT: "20", settings.MAX_FILE_SIZE: "4096"}

    assert harvest_config.load_config('{"timeout": 5}', site).policy == settings.fetch_policy(site, {"timeout": 5})


# --- read from CKAN's config --------------------------------------------------------------------------------


@pytest.mark.usefixtures("shared_plugins")
def test_with_the_plugins_loaded_the_accessors_give_the_declared_defaults():
    # test.ini allows private addresses: the suite's sites are local servers.
    assert settings.site_fetch_policy() == settings.fetch_policy({settings.ALLOW_PRIVATE_ADDRESSES: True}, {})
    assert (settings.identifier_field(), settings.review_scope(), settings.initial_states()) == (
        "mr_identifier", "full", []
    )
    assert (settings.feedback_max_length(), settings.feedback_rate_window()) == (2000, 3600)
    assert settings.vocab_dir() is None


@pytest.mark.usefixtures("shared_plugins")
@pytest.mark.ckan_config("ckanext.passport.feedback_rate_per_client", "2")
@pytest.mark.ckan_config("ckanext.passport.initial_states", "submitted published")
@pytest.mark.ckan_config("ckanext.passport.notify_by_email", "false")
def test_accessors_give_configured_text_its_type():
    assert settings.feedback_rate_per_client() == 2
    assert settings.initial_states() == ["submitted", "published"]
    assert settings.notify_by_email() is False


@pytest.mark.usefixtures("shared_plugins")
@pytest.mark.ckan_config("ckanext.passport.timeout", "20")
def test_a_source_override_may_not_exceed_the_sites_setting():
    site = settings.site_fetch_options()

    assert harvest_config.above_site_limits({"timeout": 25, "max_file_size": 1024}, site) == [
        ("timeout", 20, settings.TIMEOUT)
    ]
    assert harvest_config.above_site_limits({"timeout": 20}, site) == []
