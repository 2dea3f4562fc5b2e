"""A harvest survives the services it runs on failing mid-job, and converges (issue 21).

Real services, real processes: each test retitles every passport of one MR site, starts the portal's harvest
processes, runs a job, fails one service (or the fetch consumer) once about a fifth of the job's objects are done,
and runs one more job after it (fault_rounds.py). Then every passport is one record with its new title in the
database, the search index holds that title for every record, ``ckan passport check-index`` finds nothing to
repair, every current object of the source has its record, no object is left mid-stage, every job is finished and another can start. How long each job took to end
after the fault is printed (shown under ``-s``).
"""
from __future__ import annotations

from typing import Callable

import pytest
from tests.support.fault_rounds import (FINISHED_OBJECT_STATES, Harvested, Round, check_index, database_records,
                                        index_titles, job_statuses, object_states, objects_without_records,
                                        start_a_job)
from tests.support.service_control import kill_fetch_consumer, kill_for, restart_postgres, restart_rabbitmq

pytestmark = [pytest.mark.stack, pytest.mark.service_faults]

HarvestRound = Callable[..., Round]


def assert_converged(harvested: Harvested, published: Round) -> None:
    source = harvested.source
    records = database_records(source["owner_org"])
    assert sorted(record["mr_identifier"] for record in records) == sorted(published.titles)  # one record each
    assert {record["mr_identifier"]: record["title"] for record in records} == published.titles
    assert index_titles(source["owner_org"]) == {record["id"]: record["title"] for record in records}
    checked = check_index(source["name"])
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert objects_without_records(source["id"]) == []  # every current object of the source has its record
    assert set(object_states(source["id"])) <= set(FINISHED_OBJECT_STATES), object_states(source["id"])
    assert set(job_statuses(source["id"])) == {"Finished"}, job_statuses(source["id"])
    assert start_a_job(source["id"]) == "New"


def test_a_fetch_consumer_killed_mid_job_is_started_again_and_every_passport_lands(
        harvested: Harvested, harvest_round: HarvestRound):
    assert_converged(harvested, harvest_round(kill_fetch_consumer))


def test_solr_killed_mid_job_for_15_s_leaves_no_record_stale_in_the_index(
        harvested: Harvested, harvest_round: HarvestRound):
    assert_converged(harvested, harvest_round(kill_for("solr", 15)))


def test_postgresql_restarted_mid_job_leaves_no_object_mid_stage_and_every_passport_lands(
        harvested: Harvested, harvest_round: HarvestRound):
    assert_converged(harvested, harvest_round(restart_postgres))


def test_redis_killed_mid_job_loses_its_queues_yet_every_passport_lands(
        harvested: Harvested, harvest_round: HarvestRound):
    assert_converged(harvested, harvest_round(kill_for("redis", 5)))


def test_rabbitmq_restarted_mid_job_loses_no_passport(harvested: Harvested, harvest_round: HarvestRound):
    assert_converged(harvested, harvest_round(restart_rabbitmq, broker="amqp"))
