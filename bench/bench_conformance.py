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
4. The Conformance tab ``/harvest/<source>/conformance`` as a sysadmin opens it (issue 27: <= 1 s per view on
   6,692 passports, memory flat in their number), through CKAN's Flask app with a test client (no HTTP server):
   its p50 after each job as a ratio to ckanext-harvest's source page ``/harvest/<source>`` of the same source,
   requested in turn with it; and its p50 and the peak of Python's heap during one view (tracemalloc) as ratios
   to those of the tab of a 100-passport source harvested in the same run: the tab shows one page of 100
   passports, so neither should grow with the job. ``support.conformance_tab`` measures one source's tab;
   bench_harvest.py calls it for its 6,692-passport site.

The site is ``support.mr_site``'s (1,000 passports in six forms, served by tests/support/http_site.py), harvested
in this process through the harvest stages (``support.harvest.run_job``). The actions are called in-process as
the API calls them (a sysadmin's context, inside a request context for the links), so no HTTP time is counted.
It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from support.conformance_tab import tab_figures
from support.database import database_url, prepare_database, review_free_config
from support.harvest import create_source, passport_harvester, run_job
from support.measure import p50
from support.mr_site import DATASETS, build_site

SAMPLES = int(os.environ.get("BENCH_CONFORMANCE_SAMPLES", "7"))
SMALL_SITE = 100  # passports of the source whose tab is the memory baseline: one full page of the tab
TARGET_TAB_SECONDS = 1.0  # issue 27: p50 of one view, on 6,692 passports (bench_harvest.py measures that one)
TARGET_TAB_FLAT = 1.5  # the tab of 1,000 passports against that of 100: one page each, so about the same


def small_source(url: str) -> str:
    """The 100-passport source, beside bench_harvest's: its own organization and name."""
    import ckan.plugins.toolkit as tk

    context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
    organization = tk.get_action("organization_create")(dict(context), {"name": "bench-conformance-small"})
    config = {"allow_private_addresses": True, "registry_url": url}
    return tk.get_action("harvest_source_create")(dict(context), {
        "name": "bench-conformance-small", "title": "Bench conformance, small", "url": url,
        "owner_org": organization["id"], "source_type": "passport", "config": json.dumps(config),
    })["name"]


def measure(site_url: str, small_site_url: str) -> dict[str, Any]:
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    from ckanext.passport.conformance.harvest.report import last_finished_job

    app = make_app(review_free_config())
    # The in-process harvests log every dataset (test.ini's levels): the output is the figures.
    for name in ("ckan", "ckanext"):
        logging.getLogger(name).setLevel(logging.ERROR)
    with app._wsgi_app.test_request_context():
        clear_all()
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": user}  # noqa: E731 (a fresh context per call, as each API request has)
        # The small site's passports are the large one's first hundred: its source is harvested and measured
        # first, then cleared (its datasets purged), so that the large source's records are its own.
        small = small_source(f"{small_site_url}/opendata/list.csv")
        small_id = tk.get_action("harvest_source_show")(context(), {"id": small})["id"]
        job = run_job(small_id, passport_harvester())
        small_figures = {"statuses": job["statuses"], "tab": tab_figures(app, small, SAMPLES)}
        tk.get_action("harvest_source_clear")({"user": user, "ignore_auth": True}, {"id": small_id})
        source_id = create_source("passport", f"{site_url}/opendata/list.csv")
        source_name = tk.get_action("harvest_source_show")(context(), {"id": source_id})["name"]
        figures: dict[str, Any] = {}
        for run in ("first", "unchanged"):
            job = run_job(source_id, passport_harvester())
            job_id = last_finished_job(source_id).id
            ours, report = p50(lambda: tk.get_action("passport_conformance_report")(
                context(), {"id": source_id, "job_id": job_id}), SAMPLES)
            theirs, job_report = p50(lambda: tk.get_action("harvest_job_report")(context(), {"id": job_id}),
                                       SAMPLES)
            figures[run] = {
                "harvest_seconds": job["seconds"], "statuses": job["statuses"], "ours": ours, "theirs": theirs,
                "passports": report["summary"]["passports"], "read": report["summary"]["read"],
                "findings": sum(len(e["findings"]) for e in report["passports"]),
                "corrections": sum(len(e["corrections"]) for e in report["passports"]),
                "report_bytes": len(json.dumps(report, ensure_ascii=False).encode()),
                "object_errors": sum(len(o["errors"]) for o in job_report["object_errors"].values()),
                "mean_score": report["summary"]["mean_score"],
                "tab": tab_figures(app, source_name, SAMPLES),
            }
        figures["history"], history = p50(lambda: tk.get_action("passport_conformance_history")(
            context(), {"id": source_id}), SAMPLES)
        figures["history_jobs"] = len(history)
        figures["small"] = small_figures
    return figures


def main() -> int:
    from tests.support.http_site import Site as HttpSite

    print(f"database {database_url().rsplit('/', 1)[-1]}, emptied…", flush=True)
    prepare_database()
    with tempfile.TemporaryDirectory(prefix="bench-conformance-") as folder:
        started = time.perf_counter()
        site = build_site(Path(folder) / "large")
        build_site(Path(folder) / "small", SMALL_SITE)
        print(f"sites of {DATASETS} and {SMALL_SITE} passports generated in "
              f"{time.perf_counter() - started:.0f} s", flush=True)
        server, small_server = HttpSite(Path(folder) / "large").start(), HttpSite(Path(folder) / "small").start()
        try:
            print("harvesting the small one once (then cleared), the large one twice (the second finds it "
                  "unchanged), and timing the reports and tabs…", flush=True)
            figures = measure(server.url, small_server.url)
        finally:
            server.stop()
            small_server.stop()
    print("site: " + ", ".join(f"{n} {form}" for form, n in site.forms.items()))
    print(f"p50 of {SAMPLES} calls each, in-process actions as a sysadmin; the tabs through the Flask app's test "
          f"client with a sysadmin's API token; the {SMALL_SITE}-passport source's objects {figures['small']['statuses']}")
    print()
    print(f"{'figure':<62}{'ours':>10}{'baseline':>10}{'ratio':>8}  target")
    for run, label in (("first", "report of the first job"), ("unchanged", "report of the unchanged re-harvest")):
        side = figures[run]
        row(f"{label}, s (vs harvest_job_report)", side["ours"], side["theirs"])
        print(f"  {side['passports']} passports ({side['read']} read), {side['findings']} findings, "
              f"{side['corrections']} corrections, mean score {side['mean_score']}, "
              f"{side['report_bytes'] / 1024:.0f} KiB of JSON; the job report: {side['object_errors']} object "
              f"errors; harvest {side['harvest_seconds']:.0f} s, objects {side['statuses']}")
    print(f"{'score history (' + str(figures['history_jobs']) + ' jobs), s':<62}{figures['history']:>10.3f}")
    small = figures["small"]["tab"]
    for run, label in (("first", "first job"), ("unchanged", "unchanged re-harvest")):
        tab = figures[run]["tab"]
        row(f"Conformance tab, {label}, s (vs /harvest/<source>)", tab["p50"], tab["page_p50"],
            target=f"p50 <= {TARGET_TAB_SECONDS:g} s", ok=tab["p50"] <= TARGET_TAB_SECONDS)
        row(f"  p50, s: {DATASETS} passports (vs {SMALL_SITE})", tab["p50"], small["p50"],
            target=f"<= {TARGET_TAB_FLAT}", ok=tab["p50"] / small["p50"] <= TARGET_TAB_FLAT)
        row(f"  heap peak of one view, MiB: {DATASETS} passports (vs {SMALL_SITE})",
            tab["peak"] / 2**20, small["peak"] / 2**20, target=f"<= {TARGET_TAB_FLAT}",
            ok=tab["peak"] / small["peak"] <= TARGET_TAB_FLAT)
    return 0


def row(figure: str, ours: float, baseline: float, target: str = "", ok: bool = True) -> None:
    """One line of the table: ours, the baseline and their ratio, and the target with its verdict if it has one."""
    verdict = f"  {target}  {'ok' if ok else 'MISSED'}" if target else "  (no target)"
    print(f"{figure:<62}{ours:>10.3f}{baseline:>10.3f}{ours / baseline:>8.2f}{verdict}")


if __name__ == "__main__":
    sys.exit(main())
