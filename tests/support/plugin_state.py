"""CKAN's plugins loaded and its test app made once for a run of tests with the same configuration (conftest's
``shared_plugins``, ``make_shared_app`` and ``web``).

CKAN's ``with_plugins`` loads every plugin of ``ckan.plugins`` before a test and unloads them after it, and its
``app`` makes a new app, which loads them all again: three passes of every plugin's ``update_config`` and a Flask
app built, one to ten seconds a test on a loaded machine, for a suite where most tests run with the same plugins
and configuration. Here what a test's plugins and app left stays after it: the next test that asks for them gets
them back when it asks with the configuration they were made with (its marks and fixtures' settings included) and
nothing has loaded or unloaded a plugin since (every ``update_config`` is counted); the configuration they made is
put back as it was, and the per-load steps that read the database are run again (the site user, app globals). Any
other configuration loads and makes them afresh, as CKAN's fixtures do; a test that asks for neither runs without
the plugins, as after CKAN's ``with_plugins``. A test client is new for every test (no cookie outlives a test).

A configuration that differs only in this extension's own options (``ckanext.passport.*``) is the same load: no
plugin reads them when it loads (settings.py reads each one when it is used, and types the text a mark gives; the
one the app's middleware reads when the app is made is named below), so
the plugins and the app are kept and those options set as asked. A third of the suite's plugin loads were a test's
mark on a rate limit or a timeout.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class _Made:
    """What one load (and maybe one app) left, and the configuration each was asked with."""

    updates: int  # the update_config count once made: any later load or unload makes this stale
    plugins: tuple[str, ...]
    loaded_with: dict[str, Any] | None = None
    after_load: dict[str, Any] | None = None
    app_with: dict[str, Any] | None = None
    after_app: dict[str, Any] | None = None
    app: Any = None
    request_context: Any = None


_made: _Made | None = None
# Keys the test app sets on the configuration before making the app (conftest's ``_test_app``: Flask's testing
# mode); no plugin reads them, so the plugins a test loaded are the app's even though the two configurations differ
# by them. Compared, they made every test asking for both ``shared_plugins`` and ``web`` load the plugins three times
# and build a new app.
_APP_OWN_KEYS = frozenset({"testing"})
_updates = 0
_counting = False


def _count_updates() -> None:
    """Count every ``update_config`` (each plugin load or unload, each app made, a CLI command's too)."""
    global _counting
    if _counting:
        return
    import ckan.config.environment as environment

    original = environment.update_config

    def counted() -> None:
        global _updates
        _updates += 1
        original()

    environment.update_config = counted
    _counting = True


def _plugins() -> tuple[str, ...]:
    from ckan.plugins import core

    return tuple(core._PLUGINS)


def _current() -> _Made | None:
    if _made is not None and _made.updates == _updates and _made.plugins == _plugins():
        return _made
    return None


def _restore(config_after: dict[str, Any]) -> None:
    """The configuration a load left, and the load's steps that read the database or cache the configuration."""
    import sqlalchemy
    from ckan import authz, logic, model
    from ckan.common import config
    from ckan.lib import app_globals

    config.clear()
    config.update(config_after)
    app_globals.app_globals._init()
    logic.clear_actions_cache()
    logic.clear_validators_cache()
    authz.clear_auth_functions_cache()
    # As update_config: the site user is made where the tables exist (not in a database never initialised).
    if sqlalchemy.inspect(model.meta.engine).has_table("user"):
        logic.get_action("get_site_user")({"ignore_auth": True}, {})


def load_all() -> None:
    """Every plugin of ``ckan.plugins`` loaded for the configuration now, as ``ckan.plugins.load_all`` leaves them."""
    global _made
    import ckan.plugins
    from ckan.common import config

    _count_updates()
    asked = dict(config)
    made = _current()
    if made is not None and made.after_load is not None and _same_load(made.loaded_with, asked):
        _restore(_as_asked(made.after_load, made.loaded_with, asked))
        return
    ckan.plugins.load_all()
    _made = _Made(_updates, _plugins(), loaded_with=asked, after_load=dict(config))


def app(make: Callable[[], Any]) -> Any:
    """The app ``make()`` makes for the configuration now (``ckan.config.middleware.make_app``, which loads every
    plugin), made once while the configuration and the plugins stay as it left them."""
    global _made
    from ckan.common import config
    from ckan.config import middleware
    from ckan.lib import app_globals

    _count_updates()
    asked = dict(config)
    made = _current()
    if made is not None and made.app is not None and _same_load(made.app_with, asked):
        _restore(_as_asked(made.after_app, made.app_with, asked))
        app_globals.reset()
        middleware._internal_test_request_context = made.request_context
        return made.app
    made_app = make()
    # make_app loaded the plugins again: what an earlier shared_plugins left stands if it was asked the same way.
    previous = made if made is not None and made.loaded_with is not None else None
    _made = _Made(_updates, _plugins(), app_with=asked, after_app=dict(config), app=made_app,
                  request_context=middleware._internal_test_request_context)
    if previous is not None and previous.after_load is not None and _loaded_for(previous.after_load, asked):
        _made.loaded_with, _made.after_load = previous.loaded_with, previous.after_load
    return made_app


# The options no plugin reads while it loads (see the module's docstring), but those the app reads when it is made
# (its middleware: rate_limits.behind_proxies).
_READ_WHEN_USED = "ckanext.passport."
_READ_WHEN_MADE = frozenset({"ckanext.passport.trusted_proxies"})


def _changed(made_with: dict[str, Any], asked: dict[str, Any]) -> set[str]:
    missing = object()
    return {key for key in made_with.keys() | asked.keys() if made_with.get(key, missing) != asked.get(key, missing)}


def _same_load(made_with: dict[str, Any] | None, asked: dict[str, Any]) -> bool:
    """Whether plugins loaded (or an app made) for ``made_with`` are those a load for ``asked`` would give: the two
    differ at most in options read when used, and ``asked`` holds each of those (one it lacks would take its declared
    default in a load, which only a load knows)."""
    if made_with is None:
        return False
    return all(key.startswith(_READ_WHEN_USED) and key not in _READ_WHEN_MADE and key in asked
               for key in _changed(made_with, asked))


def _as_asked(after: dict[str, Any], made_with: dict[str, Any], asked: dict[str, Any]) -> dict[str, Any]:
    """The configuration a load left, with the options read when used set as ``asked`` has them."""
    return {**after, **{key: asked[key] for key in _changed(made_with, asked)}}


def _loaded_for(after_load: dict[str, Any], asked: dict[str, Any]) -> bool:
    """Whether the configuration a load left is the one an app is asked with, the app's own keys aside."""
    missing = object()
    return all(asked.get(key, missing) == value for key, value in after_load.items() if key not in _APP_OWN_KEYS)


def unload() -> None:
    """No plugin of ``ckan.plugins`` loaded, as CKAN's own ``with_plugins`` leaves them after a test: CKAN 2.11 keeps
    its system plugins loaded (``unload_non_system_plugins``); CKAN 2.12 has none and unloads them all."""
    if "ckan.plugins" not in sys.modules:
        return  # CKAN never imported (the MR library's tests): nothing loaded, nothing to import
    import ckan.plugins
    from ckan.common import config

    names = config.get("ckan.plugins") or []
    if any(ckan.plugins.plugin_loaded(name) for name in (names.split() if isinstance(names, str) else names)):
        getattr(ckan.plugins, "unload_non_system_plugins", ckan.plugins.unload_all)()
