"""One round of a service-fault test, as an operator meets it.

An MR site of :data:`PASSPORTS` passports, harvested once before the tests. A round retitles every passport, starts
the portal's harvest processes (the gather and fetch consumers each under dev/supervise.sh, as ``make demo`` runs
them, and dev/harvest-cron.sh every few seconds), creates a job as the source page's Reharvest does, injects the fault once
about a fifth of the job's objects are done, waits for that job and for one more, and stops the processes. What
the stores hold afterwards is read by the functions below it.
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TypeVar

from tests.support import harvest_processes
import pytest
from tests.support.brokers import consumer_ini, declare_empty_queues, wait_for_consumers
from ckan import model
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob, HarvestObject
from tests.support.fault_passports import valid_passport
from tests.support.harvest_processes import HarvestProcesses
from tests.support.service_control import Fault

from ckanext.passport.harvest import records
from ckanext.passport.settings import HARVEST_OBJECT_BUDGET

ROOT = Path(__file__).resolve().parents[2]
PASSPORTS = 20
INN = "7701234560"
# The import's fetches end within the budget, so an object twice as long in one stage is stalled: the next
# `harvester run` makes it an error. 10 s keeps that wait short without cutting a real import on a loaded machine.
OBJECT_BUDGET = 10
# Seconds between two `ckan harvester run` (a portal's cron: minutes). Each run is a CKAN start-up, about 2 s of
# CPU taken from the rest of the suite running beside these tests.
HARVEST_RUN_EVERY = 5
FINISHED_OBJECT_STATES = ("COMPLETE", "ERROR")
# How long a job may take, fault and recovery included (a healthy one takes well under a minute).
JOB_BOUND = 240.0
SOURCE_CONFIG = {"allow_private_addresses": True, "fetch_structures": True, "check_data": True}
SUPERVISE = str(ROOT / "dev" / "supervise.sh")
SUPERVISED = {
    "gather-consumer": [SUPERVISE, *harvest_processes.COMMANDS["gather-consumer"]],
    "fetch-consumer": [SUPERVISE, *harvest_processes.COMMANDS["fetch-consumer"]],
    "harvest-cron": [*harvest_processes.COMMANDS["harvest-cron"], str(HARVEST_RUN_EVERY)],
}
STRUCTURE = "field name,english description,russian description,format\nid,Identifier,Идентификатор,String\n" \
            "name,Name,Название,String\n"
DATA = "id,name\n1,Первая запись\n2,Вторая запись\n"
T = TypeVar("T")


class PassportSite:
    """An MR site on disk: PASSPORTS valid MR 3.0 passports (meta.json, its data and structure files), listed by
    /opendata/list.csv."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.identifiers = [f"{INN}-fault{n:02d}" for n in range(PASSPORTS)]

    def publish(self, label: str) -> dict[str, str]:
        """Every passport (and its registry entry) titled anew with ``label``; identifier → title."""
        titles = {identifier: f"Набор {n + 1}: {label}" for n, identifier in enumerate(self.identifiers)}
        opendata = self.root / "opendata"
        entries = []
        for identifier, title in titles.items():
            passport = valid_passport(identifier, title)
            folder = opendata / identifier
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
            (self.root / passport["structure"][0]["source"].lstrip("/")).write_text(STRUCTURE, "utf-8")
            (self.root / passport["data"][0]["source"].lstrip("/")).write_text(DATA, "utf-8")
            entries.append(f"{identifier},{title},/opendata/{identifier}/meta.json,json\n")
        (opendata / "list.csv").write_text(
            "property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
            + "".join(entries), "utf-8")
        return titles


@dataclass(frozen=True)
class Harvested:
    """The module's site and its harvest source (harvested once before the rounds)."""

    site: PassportSite
    source: dict


@dataclass
class Round:
    """What a round published and how long each of its jobs took to end after the fault."""

    titles: dict[str, str]
    fault_to_end: dict[str, float] = field(default_factory=dict)


def harvest_through(fault: Fault, site: PassportSite, source: dict, broker: str, folder: Path) -> Round:
    """One round (see the module's doc) over ``broker``; the test's CKAN config must name the same broker."""
    outcome = Round(site.publish(f"round {secrets.token_hex(4)}"))
    logs = folder / "logs"
    logs.mkdir()
    declare_empty_queues()  # nothing an earlier round left in the queues reaches this one
    if set(job_statuses(source["id"])) - {"Finished"}:
        # A round that failed left its job unfinished; ended here, it does not hold this round's job back.
        call_action("harvest_job_abort", source_id=source["id"])
    # The consumers under dev/supervise.sh, the periodic run every HARVEST_RUN_EVERY seconds.
    processes = HarvestProcesses(processes_ini(broker, folder), logs, commands=SUPERVISED).start()
    try:
        wait_for_consumers(broker, fetch_consumers=1)
        job = call_action("harvest_job_create", source_id=source["id"], run=True)["id"]
        wait_until(lambda: objects_done(job) >= PASSPORTS // 5, JOB_BOUND, "a fifth of the job's objects done", processes)
        fault_at = time.monotonic()
        fault(processes)
        wait_until(lambda: job_finished(job), JOB_BOUND, f"job {job} (the faulted job) finished", processes)
        outcome.fault_to_end["the faulted job"] = time.monotonic() - fault_at
        after = call_action("harvest_job_create", source_id=source["id"], run=True)["id"]
        wait_until(lambda: job_finished(after), JOB_BOUND, f"job {after} (the job after) finished", processes)
        outcome.fault_to_end["the job after"] = time.monotonic() - fault_at
    finally:
        processes.stop()
        print(f"\n{fault.__name__.replace('_', ' ')}: " + ", ".join(
            f"{which} ended {seconds:.0f} s after the fault" for which, seconds in outcome.fault_to_end.items()))
    return outcome


def processes_ini(broker: str, folder: Path) -> Path:
    """The broker's consumer configuration (tests/support/brokers.py) with the round's object budget over it."""
    base = consumer_ini(broker, folder)
    text = base.read_text()
    ini = folder / "processes.ini"
    ini.write_text(f"[app:main]\nuse = config:{base}\n{HARVEST_OBJECT_BUDGET} = {OBJECT_BUDGET}\n\n"
                   + text[text.index("[loggers]"):])
    return ini


def wait_until(condition: Callable[[], T], seconds: float, what: str, processes: HarvestProcesses) -> T:
    """``condition()`` once it is true, polled on fresh database reads; a failure with the processes' log tails when
    it is not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        model.Session.remove()  # read what the processes committed, not this session's cached rows
        met = condition()
        if met:
            return met
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds:g} s: {what}\n{processes.log_tails(40)}")
        time.sleep(0.5)


def objects_done(job_id: str) -> int:
    return HarvestObject.filter(harvest_job_id=job_id).filter(HarvestObject.state.in_(FINISHED_OBJECT_STATES)).count()


def job_finished(job_id: str) -> bool:
    return HarvestJob.get(job_id).status == "Finished"


# --- what the stores hold ------------------------------------------------------------------------------------------


def database_records(owner_org: str) -> list[dict]:
    """Every active dataset of the organization, as the database holds it (package_show without the index's copy)."""
    model.Session.remove()
    ids = [row.id for row in model.Session.query(model.Package.id).filter_by(
        owner_org=owner_org, type="dataset", state="active")]
    return [call_action("package_show", context={"use_cache": False}, id=package_id) for package_id in ids]


def index_titles(owner_org: str) -> dict[str, str]:
    """id → title of every dataset of the organization the search index holds."""
    found = call_action("package_search", fq=f'owner_org:"{owner_org}"', fl="id,title", rows=1000,
                        include_private=True, include_drafts=True)
    return {document["id"]: document["title"] for document in found["results"]}


def check_index(source_name: str) -> subprocess.CompletedProcess:
    """``ckan passport check-index --source NAME``, as an operator runs it."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("ckan")), "-c", str(ROOT / "test.ini"), "passport", "check-index",
         "--source", source_name],
        capture_output=True, text=True, timeout=120, env=os.environ.copy())


def objects_without_records(source_id: str) -> list[str]:
    """The guids of the source's current objects whose record is absent or deleted (harvest.records.drift): a job
    that died between making an object current and writing its record leaves one."""
    model.Session.remove()
    return [found.guid for found in records.drift(source_id)]


def object_states(source_id: str) -> Counter[str]:
    model.Session.remove()
    return Counter(state for state, in model.Session.query(HarvestObject.state).filter_by(harvest_source_id=source_id))


def job_statuses(source_id: str) -> Counter[str]:
    model.Session.remove()
    return Counter(status for status, in model.Session.query(HarvestJob.status).filter_by(source_id=source_id))


def start_a_job(source_id: str) -> str:
    """A job created for the source (ckanext-harvest refuses one while another of the source is New or Running),
    then ended unrun, so the source is left as it was; its status once created."""
    job = call_action("harvest_job_create", source_id=source_id, run=False)
    call_action("harvest_job_abort", id=job["id"])
    return job["status"]
