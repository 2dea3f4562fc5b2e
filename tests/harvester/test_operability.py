"""Running harvests the ways a portal does: the CLI, the queue consumers, and the harvest UI's job report."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject
from tests.support.brokers import BROKERS, consumer_ini, declare_empty_queues, wait_for_consumers
from tests.support.http_site import Fault

from ckanext.passport.catalog.ownership import MR

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ROOT = Path(__file__).resolve().parents[2]
CKAN = [str(Path(sys.executable).with_name("ckan")), "-c", str(ROOT / "test.ini")]
ALLOW = {"allow_private_addresses": True}


def _ckan(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(CKAN + list(args), capture_output=True, text=True, timeout=timeout, env=os.environ.copy())


def _facts(owner_org: str) -> list[dict]:
    found = call_action("package_search", fq=f"owner_org:{owner_org}", rows=100, include_private=True)["results"]
    return sorted((MR.comparable(d) for d in found), key=lambda f: f["mr_identifier"])


def test_run_test_command_harvests_a_source(demo_site, harvest_source):
    source = harvest_source(f"{demo_site.url}/opendata/list.xml", ALLOW)
    done = _ckan("harvester", "run-test", source["name"])
    assert done.returncode == 0, done.stderr[-2000:]
    assert call_action("package_search", fq=f"owner_org:{source['owner_org']}")["count"] == 6


@pytest.mark.parametrize("broker", sorted(BROKERS))
def test_a_gather_and_two_fetch_consumers_give_the_same_records_as_the_in_process_run(
        broker, demo_site, harvest_source, run_harvest, ckan_config, monkeypatch, tmp_path):
    one = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW, name="in-process")
    results, _ = run_harvest(one)
    in_process = _facts(one["owner_org"])
    # One identifier, one record: the first source's records give their identifiers up before the second's.
    sysadmin = factories.Sysadmin()
    for result in results.values():
        call_action("package_delete", context={"user": sysadmin["name"]}, id=result["dataset"]["id"])

    for key, value in BROKERS[broker].items():
        monkeypatch.setitem(ckan_config, key, value)
    declare_empty_queues()
    # Another registry form of the same site: one URL and config may back only one source.
    parallel = harvest_source(f"{demo_site.url}/opendata/list.xml", ALLOW, name="consumers")
    ini = consumer_ini(broker, tmp_path)
    kinds = ("gather-consumer", "fetch-consumer", "fetch-consumer")
    logs = [tmp_path / f"{n}-{kind}.log" for n, kind in enumerate(kinds)]
    consumers = [subprocess.Popen([CKAN[0], "-c", str(ini), "harvester", kind], env=os.environ.copy(),
                                  stdout=log.open("wb"), stderr=subprocess.STDOUT)
                 for kind, log in zip(kinds, logs)]
    try:
        wait_for_consumers(broker, fetch_consumers=2)
        job = call_action("harvest_job_create", source_id=parallel["id"], run=True)
        deadline = time.monotonic() + 180
        # A fetch consumer saves an object's state, then its report status: a job can be marked finished between.
        while (call_action("harvest_job_show", id=job["id"])["status"] != "Finished"
               or HarvestObject.filter(harvest_job_id=job["id"], report_status=None).count()):
            assert time.monotonic() < deadline, "the job never finished:\n" + "\n".join(
                log.read_text(errors="replace")[-2000:] for log in logs)
            time.sleep(2)
            model.Session.remove()
            call_action("harvest_jobs_run")
    finally:
        for consumer in consumers:
            consumer.terminate()
        for consumer in consumers:
            consumer.wait(timeout=30)
    report = call_action("harvest_job_show", id=job["id"])
    assert report["stats"]["added"] == 6, report
    assert _facts(parallel["owner_org"]) == in_process
    if broker == "amqp":
        # Each fetch consumer imported some of the passports: the work was shared.
        assert all("Received harvest object id" in log.read_text(errors="replace") for log in logs[1:])


def test_a_job_where_every_passport_fails_still_finishes(demo_site, harvest_source, run_harvest):
    for path in ("7708234640-okvedva/meta.csv", "7703092752-terorg/meta.csv", "2618017120-politicaldivisions/meta.json",
                 "7701234560-schools/meta.xml", "7709876545-pharmacies/meta.csv", "5027123457-bustops/meta.json"):
        demo_site.fault(f"/opendata/{path}", Fault(status=410))
    # Predgorny's folder also serves its RDFa passport page, the fallback form.
    demo_site.fault("/opendata/2618017120-politicaldivisions/", Fault(status=410))
    results, job = run_harvest(harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW))
    assert {r["report_status"] for r in results.values()} == {"errored"}
    assert job["status"] == "Finished"


def test_the_job_page_shows_each_error_as_a_sentence_with_its_code(web, demo_site, harvest_source, run_harvest):
    demo_site.fault("/opendata/7701234560-schools/meta.xml", Fault(status=500))
    source = harvest_source(f"{demo_site.url}/opendata/list.csv", ALLOW | {"formats": ["meta.xml"]})
    _, job = run_harvest(source)
    sysadmin = factories.SysadminWithToken()
    page = web.get(f"/harvest/{source['name']}/job/{job['id']}", headers={"Authorization": sysadmin["token"]})
    assert page.status_code == 200
    assert "Server error (HTTP 500)" in page.body
    assert "<code>fetch.server_error</code>" in page.body
