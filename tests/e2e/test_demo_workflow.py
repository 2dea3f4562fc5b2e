"""The demo shows the editorial workflow (issue 24: it had no editors organization, and its harvest published at
once, so nothing awaited review): dev/demo_workflow.py, which dev/demo.sh runs after its first harvest, on the
real stack after a harvest of the demo MR site configured as dev/demo.sh configures it."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_setup import ROOT, demo_config, demo_source_config, demo_workflow
from tests.support.demo_site import IDENTIFIERS
from tests.support.ini_logging import LOGGING

EDITORS = "demo-editors"
pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"),
    pytest.mark.ckan_config("ckanext.passport.initial_states", "submitted published"),
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS),
]


# A config over the test database, as dev/ckan.ini names the demo's: test.ini with the demo's workflow options.
DEMO_INI = """[app:main]
use = config:{test_ini}
ckanext.passport.editors_organization = {editors}
ckanext.passport.initial_states = submitted published

""" + LOGGING


@pytest.fixture
def harvested(demo_site, harvest_source, run_harvest) -> None:
    """The demo's organizations, and its MR site harvested into the first as dev/demo.sh harvests it."""
    site_org = factories.Organization(name=demo_workflow.CURATED[0])
    for name in demo_workflow.CZECH_PUBLISHERS:
        factories.Organization(name=name)
    source = harvest_source(f"{demo_site.url}/opendata/", demo_source_config(), owner_org=site_org["id"])
    results, job = run_harvest(source)
    assert job["status"] == "Finished"
    assert {r["report_status"] for r in results.values()} == {"added"}


def queue_of(person: demo_workflow.Person) -> list[str]:
    found = call_action("passport_workflow_queue", {"user": person.name}, rows=100)
    return [record["name"] for record in found["results"]]


def test_the_demo_config_names_an_editors_organization_a_vocabulary_folder_and_lets_harvests_submit():
    config = demo_config()

    assert config["ckanext.passport.editors_organization"]
    assert config["ckanext.passport.vocab_dir"]
    assert "submitted" in config["ckanext.passport.initial_states"].split()
    assert demo_source_config()["default_editorial_state"] == "submitted"


def test_the_editor_is_a_member_of_the_editors_organization_and_the_curator_edits_the_demo_s(harvested):
    demo_workflow.set_up()

    editors = call_action("member_list", id=EDITORS, object_type="user")
    assert call_action("user_show", id="redaktor")["id"] in [user_id for user_id, _, _ in editors]
    for organization in demo_workflow.CURATED:
        shown = call_action("organization_show", id=organization, include_users=True)
        assert {"name": "kurator", "capacity": "editor"} in [
            {"name": user["name"], "capacity": user["capacity"]} for user in shown["users"]
        ]


def test_one_harvested_record_awaits_the_editor_s_review_and_the_rest_is_published(harvested):
    waiting = demo_workflow.set_up()

    assert queue_of(demo_workflow.EDITOR) == [waiting]
    assert waiting in IDENTIFIERS
    published = call_action("package_search", fq="+editorial_state:published", rows=100)["results"]
    assert {record["name"] for record in published} == IDENTIFIERS - {waiting}


def test_setting_the_demo_up_again_changes_nothing(harvested):
    first = demo_workflow.set_up()

    assert demo_workflow.set_up() == first
    assert queue_of(demo_workflow.EDITOR) == [first]


def test_the_printed_logins_sign_in(harvested, web):
    demo_workflow.set_up()

    for person in (demo_workflow.CURATOR, demo_workflow.EDITOR):
        # As a browser signs in: the form's CSRF token (CKAN 2.12 asks for it) with the session it belongs to.
        browser = web.test_client()
        form = browser.get("/user/login").get_data(as_text=True)
        token = re.search(r'name="_csrf_token" value="([^"]+)"', form).group(1)
        response = browser.post("/user/login", data={"login": person.name, "password": person.password,
                                                     "_csrf_token": token}, follow_redirects=False)
        assert response.status_code == 302
        assert "/dashboard" in response.headers["Location"]


def test_the_script_dev_demo_sh_runs_prints_the_logins_and_the_record_awaiting_review(harvested, tmp_path):
    ini = tmp_path / "demo.ini"
    ini.write_text(DEMO_INI.format(test_ini=ROOT / "test.ini", editors=EDITORS), encoding="utf-8")

    script = str(ROOT / "dev" / "demo_workflow.py")
    printed = subprocess.run([sys.executable, script], env={**os.environ, "CKAN_INI": str(ini)},
                             capture_output=True, text=True, timeout=300, check=True).stdout

    waiting = queue_of(demo_workflow.EDITOR)
    assert len(waiting) == 1
    assert printed.splitlines() == [
        f"curator login: kurator / {demo_workflow.CURATOR.password} (edits the records of demo-mr-site, "
        "ministerstvo-dopravy, kralovehradecky-kraj, statutarni-mesto-brno)",
        f"editor login: redaktor / {demo_workflow.EDITOR.password} (member of {EDITORS})",
        f"awaiting review in http://test.ckan.net/passport/queue: {waiting[0]}",
    ]
