"""Every action and page route of the extension, as every role, against tests/support/authorization_table.py.

One world for the module (people, organizations, records in their states, harvest sources of both types with a
harvested job, site checks, scoreboard rows), made once on the module's clean database and index; each case is then
asked as each role through the real stack: actions through ``call_action`` with the role as the context's user and
authorization checked, routes through the app's test client with the role's API token (and a CSRF token for a form).
A case that would change something sends data its target refuses once authorization has let the caller through.

The table is complete: an action, a chained auth function or a blueprint route registered without a row fails here,
and so does a row for one that is not registered.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import ckan.model as model
import ckan.plugins as plugins
from ckan.lib import search
import pytest
from tests.support.authorization_table import ALLOWED, CASES, NAMING_NO_USER, NOT_FOUND, REFUSED, ROLES, Case
from tests.support.catalog_records import complete_record
from tests.support.lkod_records import lkod_record
from ckan.logic import NotAuthorized, NotFound, ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject, HarvestSource
from tests.support.local_demo_site import local_demo_site
from tests.support.publish_shapes import harvested_shape
from tests.support.scoreboard_rows import add_source, add_summary
from tests.support.site_check_jobs import clean_site_checks  # noqa: F401 (a fixture)

from ckanext.passport.conformance.notices.tokens import token
from ckanext.passport.conformance.scoreboard.model import JobSummary
from ckanext.passport.conformance.site_check import job as site_check_job
from ckanext.passport.conformance.site_check.model import SiteCheck

EDITORS_ORG = "redakce-matrix"
OWNER_ICO = "00025593"
PUBLIC_PUBLISHER = "7712345678"
VERSION_FILE = "structure-20130401T0000.csv"

pytestmark = [pytest.mark.stack, pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG)]

# The extension's plugins: the classes of ckanext.passport.plugins.
EXTENSION = "ckanext.passport."


def _extension_plugins(interface: Any) -> list[Any]:
    return [plugin for plugin in plugins.PluginImplementations(interface)
            if type(plugin).__module__.startswith(EXTENSION)]


# --- the world ---------------------------------------------------------------------------------------------------


def _people() -> dict[str, Optional[dict]]:
    people: dict[str, Optional[dict]] = {role: factories.User() for role in ROLES[1:-1]}
    people["anonymous"] = None
    people["sysadmin"] = factories.Sysadmin()
    owner = factories.Organization(ico=OWNER_ICO, users=[
        {"name": people[role]["name"], "capacity": capacity}
        for role, capacity in (("member", "member"), ("editor", "editor"), ("admin", "admin"))])
    factories.Organization(users=[{"name": people["other_editor"]["name"], "capacity": "editor"},
                                  {"name": people["other_admin"]["name"], "capacity": "admin"}])
    factories.Organization(name=EDITORS_ORG, users=[{"name": people["reviewer"]["name"], "capacity": "member"}])
    group = factories.Group(users=[{"name": people["member"]["name"], "capacity": "member"}])
    return {**people, "owner": owner, "group": group}


def _transition(user: dict, record: dict, to: str) -> None:
    call_action("passport_workflow_transition", {"user": user["name"], "ignore_auth": False}, id=record["id"], to=to)


def _without_ids(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as its curator sends it: CKAN gives the record and its resources their ids, the workflow its state."""
    kept = {key: value for key, value in record.items() if key not in ("id", "editorial_state")}
    return {**kept, "resources": [{key: value for key, value in resource.items() if key != "id"}
                                  for resource in record["resources"]]}


def _records(people: dict[str, Any]) -> dict[str, str]:
    owner, editor = people["owner"]["id"], people["editor"]
    published = factories.Dataset(**harvested_shape(people["owner"]), user=editor)
    _transition(editor, published, "submitted")
    _transition(people["reviewer"], published, "published")
    # A change of the public record by its curator: an activity everyone reads, which names the curator.
    call_action("package_patch", {"user": editor["name"]}, id=published["id"], notes="Перечень автосалонов.")
    draft = factories.Dataset(**complete_record(name="matrix-draft"), owner_org=owner, user=editor)
    submitted = factories.Dataset(**complete_record(name="matrix-submitted"), owner_org=owner, user=editor)
    _transition(editor, submitted, "submitted")
    # The LKOD lists a record with every field it needs (lkod_records), once published.
    listed = factories.Dataset(**_without_ids(lkod_record(name="matrix-listed")), owner_org=owner, user=editor)
    _transition(editor, listed, "submitted")
    _transition(people["reviewer"], listed, "published")
    # A record of no organization is its creator's. None can be made while create_unowned_dataset is off (as here
    # and on a portal): one made before, here a sysadmin's record taken out of its organization and given to the
    # signed-in user.
    unowned = factories.Dataset(**complete_record(name="matrix-unowned"), owner_org=owner, user=people["sysadmin"])
    call_action("package_owner_org_update", id=unowned["id"], organization_id=None)
    model.Package.get(unowned["id"]).creator_user_id = people["signed_in"]["id"]
    model.Session.commit()
    search.rebuild(unowned["id"])
    return {"published": published["id"], "draft": draft["id"], "submitted": submitted["id"],
            "unowned": unowned["id"], "listed": listed["id"], "listed_resource": listed["resources"][0]["id"],
            "identifier": published["name"], "version_file": VERSION_FILE,
            # Its curator's change.
            "activity": call_action("package_activity_list", {"user": people["sysadmin"]["name"]},
                                    id=published["id"])[0]["id"]}


def _sources(people: dict[str, Any], site_url: str, harvest_source, run_harvest) -> dict[str, str]:
    owner = people["owner"]["id"]
    private = harvest_source(f"{site_url}/opendata/list.csv", {"allow_private_addresses": True}, owner_org=owner,
                             private=True, name="matrix-private")
    _, job = run_harvest(private)
    harvested = (model.Session.query(HarvestObject)
                 .filter(HarvestObject.harvest_source_id == private["id"], HarvestObject.package_id.isnot(None),
                         HarvestObject.current.is_(True))
                 .first())
    public = add_source("matrix-public", owner_org=owner)
    lkod = add_source("matrix-lkod", owner_org=owner)
    HarvestSource.get(lkod).type = "lkod"
    model.Session.commit()
    add_summary(public, PUBLIC_PUBLISHER, days_ago=1, mean_score=80, organization_id=owner)
    # The private source's publisher: as its harvested job's summary keys it.
    private_publisher = model.Session.get(JobSummary, job["id"])
    return {"private_source": private["id"], "public_source": public, "lkod_source": lkod,
            "job": job["id"], "object": harvested.id, "harvested": harvested.package_id,
            "public_publisher": PUBLIC_PUBLISHER, "private_publisher": private_publisher.publisher_key}


def _site_checks(people: dict[str, Any], site_url: str) -> dict[str, str]:
    """Two finished checks of the local demo site: a sysadmin's on private addresses, and one of a public site
    (the same check, its flag cleared: a public site needs no private address)."""
    checks = {}
    for name in ("private_check", "check"):
        checks[name] = call_action("passport_site_check", {"user": people["sysadmin"]["name"]},
                                   url=f"{site_url}/opendata/", allow_private_addresses=True)["id"]
        site_check_job.run(checks[name])
    SiteCheck.get(checks["check"]).allow_private_addresses = False
    model.Session.commit()
    return checks


@pytest.fixture
def world(built_once, clean_site_checks, tmp_path_factory, serve_site, harvest_source, run_harvest) -> dict[str, Any]:
    """``{"people": role -> user (None: anonymous), "tokens": role -> API token, "names": placeholder -> value}``."""

    def build() -> dict[str, Any]:
        people = _people()
        site = local_demo_site(tmp_path_factory.mktemp("matrix") / "site", serve_site)
        names = {**_records(people), **_sources(people, site.url, harvest_source, run_harvest),
                 **_site_checks(people, site.url), "owner_org": people["owner"]["name"], "group": people["group"]["name"],
                 "member": people["member"]["name"], "token": token("publisher@example.org")}
        tokens = {role: call_action("api_token_create", user=user["name"], name="matrix")["token"]
                  for role, user in people.items() if role in ROLES and user}
        return {"people": people, "tokens": tokens, "names": names}

    return built_once("world", build)


# --- asking ------------------------------------------------------------------------------------------------------


def _filled(value: Any, names: dict[str, str]) -> Any:
    return value.format(**names) if isinstance(value, str) else value


def ask_action(case: Case, user: Optional[dict], names: dict[str, str], expected: str) -> str:
    """The answer of the case's action to ``user``; an answer allowed is checked to name no user where ``expected``
    says so."""
    data = {key: _filled(value, names) for key, value in case.data.items()}
    try:
        answer = call_action(case.target, context={"user": user["name"] if user else "", "ignore_auth": False}, **data)
    except NotAuthorized:
        return REFUSED
    except NotFound:
        return NOT_FOUND
    except ValidationError:  # let through, then refused the data (the cases that would change something)
        return ALLOWED
    finally:
        model.Session.rollback()
    return NAMING_NO_USER if expected == NAMING_NO_USER and not names_a_user(answer) else ALLOWED


def names_a_user(answer: Any) -> bool:
    """Whether a portal user's login is anywhere in ``answer``."""
    text = json.dumps(answer, default=str)
    return any(f'"{name}"' in text for (name,) in model.Session.query(model.User.name))


CSRF_META = re.compile(r'<meta name="_csrf_token" content="([^"]+)"')


def ask_route(app, case: Case, token_: Optional[str], names: dict[str, str]) -> str:
    method, rule = case.target.split(" ", 1)
    path = _filled(case.path, names)
    matched, _ = app.flask_app.url_map.bind("test.ckan.net").match(path, method=method, return_rule=True)
    assert matched.rule == rule, f"{path} is {matched.rule}, not the row's route"
    client = app.test_client()
    headers = {"Authorization": token_} if token_ else {}
    if method == "POST":
        form = {key: _filled(value, names) for key, value in case.data.items()}
        form["_csrf_token"] = CSRF_META.search(client.get("/about", headers=headers).get_data(as_text=True)).group(1)
        response = client.post(path, headers=headers, data=form, follow_redirects=False)
    else:
        response = client.get(path, headers=headers, follow_redirects=False)
    status = response.status_code
    if status < 400:
        return ALLOWED
    if status in (400, 429):  # let through, then refused the form's data
        assert "CSRF" not in response.get_data(as_text=True), "the form's CSRF token was refused"
        return ALLOWED
    return {403: REFUSED, 404: NOT_FOUND}.get(status, f"HTTP {status}")


def _case_id(case: Case) -> str:
    return f"{case.target} [{case.what}]"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_each_role_gets_the_answer_the_table_gives(web, world, case):
    answers = {}
    for role in ROLES:
        if case.is_route:
            answers[role] = ask_route(web, case, world["tokens"].get(role), world["names"])
        else:
            answers[role] = ask_action(case, world["people"][role], world["names"], case.answers[role])
    differing = {role: f"{answers[role]}, the table: {case.answers[role]}" for role in ROLES
                 if answers[role] != case.answers[role]}
    assert differing == {}


# --- the table is complete ---------------------------------------------------------------------------------------


def registered_targets(flask_app) -> set[str]:
    """Every action and chained auth function of the extension's plugins, and every route of their blueprints, as
    the table names them."""
    actions = {name for plugin in _extension_plugins(plugins.IActions) for name in plugin.get_actions()}
    auth = {name for plugin in _extension_plugins(plugins.IAuthFunctions) for name in plugin.get_auth_functions()}
    blueprints = set()
    for plugin in _extension_plugins(plugins.IBlueprint):
        made = plugin.get_blueprint()
        blueprints.update(blueprint.name for blueprint in (made if isinstance(made, list) else [made]))
    routes = {f"{method} {rule.rule}" for rule in flask_app.url_map.iter_rules()
              if rule.endpoint.split(".", 1)[0] in blueprints for method in rule.methods - {"HEAD", "OPTIONS"}}
    return actions | auth | routes


def test_every_registered_action_and_route_has_a_row(web):
    missing = registered_targets(web.flask_app) - {case.target for case in CASES}
    assert missing == set(), "registered without a row in tests/support/authorization_table.py"


def test_every_row_names_a_registered_action_or_route(web):
    stale = {case.target for case in CASES} - registered_targets(web.flask_app)
    assert stale == set(), "rows of tests/support/authorization_table.py for nothing registered"


def test_every_row_answers_for_every_role():
    assert [case for case in CASES if set(case.answers) != set(ROLES)] == []
