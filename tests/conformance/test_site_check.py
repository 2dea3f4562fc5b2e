"""A publisher's site check end to end: the action queues it, a real ``ckan jobs worker`` process runs it against a
local MR site, the check's row shows its progress, and the kept report is the conformance report's shape with
corrected files to take away."""
from __future__ import annotations

import json
import socket
import time

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_site import IDENTIFIERS
from tests.support.http_site import Fault
from tests.support.local_demo_site import local_demo_site
from tests.support.site_check_jobs import (  # noqa: F401 (fixtures)
    clean_site_checks, home_site, run_worker_burst, shown, wait_for, worker,
)

from ckanext.passport.mr.corrections import FIXED_FILES
from ckanext.passport.mr.report import check_site
from ckanext.passport.settings import site_check_fetch_policy
from ckanext.passport.conformance.site_check.report import site_document

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks"),
]

SLOW = "/opendata/2618017120-politicaldivisions/meta.json"


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


def start(user: dict, url: str, **data) -> str:
    return call_action("passport_site_check", context={"user": user["name"], "ignore_auth": False}, url=url,
                       **data)["id"]


def test_a_sysadmin_checks_a_local_site_through_the_jobs_worker(sysadmin, home_site):
    check_id = start(sysadmin, home_site.url + "/opendata/", allow_private_addresses=True)
    assert shown(check_id)["status"] == "queued"

    run_worker_burst()

    check = shown(check_id)
    assert check["status"] == "finished", check
    report = check["report"]
    assert report["url"] == home_site.url + "/opendata/"
    assert report["registry_url"].startswith(home_site.url + "/opendata/")
    assert report["registry_size"] == len(IDENTIFIERS)
    assert {entry["identifier"] for entry in report["passports"]} == IDENTIFIERS
    assert check["progress"] == {"done": len(IDENTIFIERS), "total": len(IDENTIFIERS)}
    assert report["summary"]["passports"] == report["summary"]["read"] == len(IDENTIFIERS)
    assert check["failure"] is None
    # Every file it read was on the local site: its data check too (no link left for the real hosts).
    assert "fetch.connection_error" not in report["summary"]["by_code"]
    assert any(hit.startswith("/opendata/7708234640-okvedva/data-") for hit in home_site.hits)


def test_the_kept_report_is_the_document_of_the_same_check_run_here(sysadmin, home_site):
    url = home_site.url + "/opendata/"
    check_id = start(sysadmin, url, allow_private_addresses=True)
    run_worker_burst()

    kept = shown(check_id)["report"]
    here = site_document(check_site(url, site_check_fetch_policy(True), 100))
    without_links = [{**entry, "fixed": {}} for entry in kept["passports"]]
    assert {**kept, "passports": without_links} == here


def test_each_passport_read_links_its_corrected_files_which_are_served(web, sysadmin, home_site):
    check_id = start(sysadmin, home_site.url + "/opendata/", allow_private_addresses=True)
    run_worker_burst()

    report = shown(check_id)["report"]
    for number, entry in enumerate(report["passports"], start=1):
        assert sorted(entry["fixed"]) == sorted(FIXED_FILES)
        assert entry["fixed"]["meta.json"].endswith(f"/passport/check/{check_id}/fixed/{number}/meta.json")
    token = factories.APIToken(user=sysadmin["name"])["token"]
    served = web.get(f"/passport/check/{check_id}/fixed/1/meta.json", headers={"Authorization": token})
    assert served.status_code == 200
    assert json.loads(served.body)["identifier"] == report["passports"][0]["identifier"]
    assert web.get(f"/passport/check/{check_id}/fixed/1/meta.csv", headers={"Authorization": token}).status_code == 200
    xml = web.get(f"/passport/check/{check_id}/fixed/1/meta.xml", headers={"Authorization": token})
    assert xml.status_code == 200 and xml.body.lstrip().startswith("<?xml")
    assert web.get(f"/passport/check/{check_id}/fixed/99/meta.json", headers={"Authorization": token}).status_code == 404
    assert web.get(f"/passport/check/{check_id}/fixed/1/data.csv", headers={"Authorization": token}).status_code == 404


def test_the_check_shows_its_progress_while_the_worker_reads_the_passports(sysadmin, tmp_path, serve_site):
    site = local_demo_site(tmp_path / "site", serve_site)
    # The third passport answers slowly: the check is seen between its second and third passport.
    site.fault(SLOW, Fault(delay=4, body=(site.root / SLOW.lstrip("/")).read_bytes(),
                           content_type="application/json"))
    check_id = start(sysadmin, site.url + "/opendata/", allow_private_addresses=True)

    process = worker(burst=True, log=tmp_path / "worker.log")
    try:
        running = wait_for(check_id, {"running", "finished", "failed"})
        while running["status"] == "running" and running["progress"]["done"] == 0:
            time.sleep(0.1)
            running = shown(check_id)
        assert running["status"] == "running", (tmp_path / "worker.log").read_text()
        assert running["progress"]["total"] == len(IDENTIFIERS)
        assert 0 < running["progress"]["done"] < len(IDENTIFIERS)
        assert running["report"] is None
        finished = wait_for(check_id, {"finished", "failed"})
    finally:
        process.wait(timeout=60)
    assert finished["status"] == "finished"
    assert finished["progress"] == {"done": len(IDENTIFIERS), "total": len(IDENTIFIERS)}


def test_a_report_is_read_in_the_readers_language(web, sysadmin, home_site):
    (home_site.root / "opendata" / "7701234560-schools").rename(home_site.root / "opendata" / "gone")
    check_id = start(sysadmin, home_site.url + "/opendata/", allow_private_addresses=True)
    run_worker_burst()

    english = shown(check_id)["report"]
    czech = web.get(f"/cs/api/3/action/passport_site_check_show?id={check_id}",
                    headers={"Authorization": factories.APIToken(user=sysadmin["name"])["token"]}).json["result"]
    [gone_en] = [e for e in english["passports"] if e["identifier"] == "7701234560-schools"]
    [gone_cs] = [e for e in czech["report"]["passports"] if e["identifier"] == "7701234560-schools"]
    assert gone_en["score"] is None and gone_cs["score"] is None
    assert [f["code"] for f in gone_en["findings"]] == [f["code"] for f in gone_cs["findings"]]
    assert gone_en["findings"][0]["message"] != gone_cs["findings"][0]["message"]
    assert "fetch.not_found" in czech["report"]["summary"]["by_code"]


def test_a_site_that_cannot_be_reached_is_told_in_words_in_the_page_and_the_csv(web, sysadmin):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    check_id = start(sysadmin, f"http://127.0.0.1:{port}/opendata/", allow_private_addresses=True)
    run_worker_burst()

    token = {"Authorization": factories.APIToken(user=sysadmin["name"])["token"]}
    page = web.get(f"/ru/passport/check/{check_id}", headers=token).body
    table = web.get(f"/ru/passport/check/{check_id}.csv", headers=token).body
    for text in (page, table):
        assert "127.0.0.1 отказал в соединении: на этом порту никто не отвечает" in text
        assert "Error" not in text.replace("fetch.", "") and "Max retries" not in text
    assert "fetch.connection_refused" in {found["code"] for found in shown(check_id)["report"]["problems"]}
