"""A source's conformance report over a 1,000-passport harvest job, against ckanext-harvest's job report.

Run from the repository root: ``.venv/bin/python bench/bench_conformance.py`` (``make bench`` starts the services).
The database and Solr core are test.ini's unless CKAN_SQLALCHEMY_URL / CKAN_SITE_ID say otherwise; the
database's rows are emptied first (as bench_harvest.py empties its own), so point it at a test or bench database.

1. ``passport_conformance_report`` of the job (every passport with its findings, fixed-file links and the
   corrections made, in the reader's language): p50 wall time as a ratio to ckanext-harvest's
   ``harvest_job_report`` of the same job (its gather and object errors; the ``passport`` plugin renders them
   in the reader's language too). No target: the report reads and rebuilds every passport the job read, the job
   report only the job's error rows, so the ratio says what the richer answer costs.
2. The same after a re-harvest of the unchanged site, whose objects hold no passport of their own: the report
   takes each from the latest earlier object of its registry entry (one more query).
3. ``passport_conformance_history`` (the tab's line chart: each finished job's mean score, in PostgreSQL).

The site is bench_harvest.py's (1,000 passports in six forms, served by tests/http_site.py), harvested in this
process through the harvest stages the way bench_harvest.py runs a job. The actions are called in-process as
the API calls them (a sysadmin's context, inside a request context for the links), so no HTTP time is counted.
It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import bench_harvest  # noqa: E402 (the 1,000-passport site and one harvest job's run)

INI = ROOT / "test.ini"
SAMPLES = int(os.environ.get("BENCH_CONFORMANCE_SAMPLES", "7"))


def configured() -> Any:
    from ckan.cli import load_config

    config = load_config(str(INI))
    config["ckanext.passport.review_scope"] = "none"
    return config


def database_url() -> str:
    return os.environ.get("CKAN_SQLALCHEMY_URL") or configured()["sqlalchemy.url"]


def prepare_database() -> None:
    """The schema brought up to date (CKAN, harvest, passport), then every row out but the migration bookkeeping."""
    import psycopg2

    ckan = str(Path(sys.executable).parent / "ckan")
    env = dict(os.environ, CKAN_INI=str(INI))
    for command in (["db", "init"], ["db", "pending-migrations", "--apply"]):
        subprocess.run([ckan, *command], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    with psycopg2.connect(database_url()) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                       "AND tablename NOT LIKE '%%alembic_version%%'")
        tables = ", ".join(f'"{name}"' for (name,) in cursor.fetchall())
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    connection.close()


def p50(call: Callable[[], Any]) -> tuple[float, Any]:
    value = call()  # warm: the first call pays for imports and caches
    timings = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        value = call()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings), value


def measure(site_url: str) -> dict[str, Any]:
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    from ckanext.passport.conformance.harvest.report import last_finished_job

    app = make_app(configured())
    # The in-process harvests log every dataset (test.ini's levels): the output is the figures.
    for name in ("ckan", "ckanext"):
        logging.getLogger(name).setLevel(logging.ERROR)
    with app._wsgi_app.test_request_context():
        clear_all()
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        source_id = bench_harvest.create_source("passport", f"{site_url}/opendata/list.csv")
        context = lambda: {"user": user}  # noqa: E731 (a fresh context per call, as each API request has)
        figures: dict[str, Any] = {}
        for run in ("first", "unchanged"):
            job = bench_harvest.run_job(source_id, bench_harvest.passport_harvester())
            job_id = last_finished_job(source_id).id
            ours, report = p50(lambda: tk.get_action("passport_conformance_report")(
                context(), {"id": source_id, "job_id": job_id}))
            theirs, job_report = p50(lambda: tk.get_action("harvest_job_report")(context(), {"id": job_id}))
            figures[run] = {
                "harvest_seconds": job["seconds"], "statuses": job["statuses"], "ours": ours, "theirs": theirs,
                "passports": report["summary"]["passports"], "read": report["summary"]["read"],
                "findings": sum(len(e["findings"]) for e in report["passports"]),
                "corrections": sum(len(e["corrections"]) for e in report["passports"]),
                "report_bytes": len(json.dumps(report, ensure_ascii=False).encode()),
                "object_errors": sum(len(o["errors"]) for o in job_report["object_errors"].values()),
                "mean_score": report["summary"]["mean_score"],
            }
        figures["history"], history = p50(lambda: tk.get_action("passport_conformance_history")(
            context(), {"id": source_id}))
        figures["history_jobs"] = len(history)
    return figures


def main() -> int:
    from http_site import Site as HttpSite

    print(f"database {database_url().rsplit('/', 1)[-1]}, emptied…", flush=True)
    prepare_database()
    with tempfile.TemporaryDirectory(prefix="bench-conformance-") as folder:
        started = time.perf_counter()
        site = bench_harvest.build_site(Path(folder))
        print(f"site of {bench_harvest.DATASETS} passports generated in {time.perf_counter() - started:.0f} s",
              flush=True)
        server = HttpSite(Path(folder)).start()
        try:
            print("harvesting it twice (the second finds it unchanged) and timing the reports…", flush=True)
            figures = measure(server.url)
        finally:
            server.stop()
    print("site: " + ", ".join(f"{n} {form}" for form, n in site.forms.items()))
    print(f"p50 of {SAMPLES} calls each, in-process actions as a sysadmin")
    print()
    print(f"{'figure':<62}{'ours, s':>10}{'baseline, s':>13}{'ratio':>8}")
    for run, label in (("first", "report of the first job"), ("unchanged", "report of the unchanged re-harvest")):
        side = figures[run]
        print(f"{label + ' (vs harvest_job_report)':<62}{side['ours']:>10.3f}{side['theirs']:>13.4f}"
              f"{side['ours'] / side['theirs']:>8.1f}")
        print(f"  {side['passports']} passports ({side['read']} read), {side['findings']} findings, "
              f"{side['corrections']} corrections, mean score {side['mean_score']}, "
              f"{side['report_bytes'] / 1024:.0f} KiB of JSON; the job report: {side['object_errors']} object "
              f"errors; harvest {side['harvest_seconds']:.0f} s, objects {side['statuses']}")
    print(f"{'score history (' + str(figures['history_jobs']) + ' jobs)':<62}{figures['history']:>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
