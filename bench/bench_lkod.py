"""The /lkod/ documents against the CKAN actions they are built on, over HTTP on a live server.

- ``/lkod/catalog`` over 10,000 eligible records: wall time as a ratio to paging ``package_search`` (1,000 rows
  a page, the same records) through the API (target <= 1.5), with the server's peak memory growth during the
  download next to the same growth for a catalog of a tenth the size (the catalog streams: it should stay flat).
- One dataset document: p50 latency as a ratio to ``package_show`` of the same record through the API (target
  <= 1.5 for the JSON-LD document NKOD reads; Turtle's printed beside it, with no target).

The records are created when missing (organization ``bench-lkod``, kept between runs: creating them takes
minutes). The small catalog is the first tenth of them indexed a second time under a Solr site id of its own
(``<site id>-small``) and served by a second server reading that site id: the same database and code, a catalog
a tenth the size. Servers and measuring helpers are ``support``'s. Database and Solr core are test.ini's
unless CKAN_SQLALCHEMY_URL / CKAN_SITE_ID say otherwise; LKOD_BENCH_DATASETS sets the catalog size.
Run from the repository root: `.venv/bin/python bench/bench_lkod.py`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import requests
from support import ROOT
from support.measure import memory_kib, p50, reset_peak, timed
from support.server import configured as server_configured
from support.server import fetched, page_through_search, start_server

ORGANIZATION = "bench-lkod"
DATASETS = int(os.environ.get("LKOD_BENCH_DATASETS", "10000"))
SMALL = DATASETS // 10
SAMPLES = 60
WORKERS = 6
TARGET_CATALOG = 1.5
TARGET_DOCUMENT = 1.5
ELIGIBLE = "+passport_lkod_eligible:true"


# Bench records start published (the workflow is not what is measured).
PUBLISHED = {"ckanext.passport.initial_states": "published"}


def configured() -> Any:
    return server_configured(None, PUBLISHED)


def site_id() -> str:
    return os.environ.get("CKAN_SITE_ID", "bench")


def small_site_env() -> dict[str, str]:
    return {**os.environ, "CKAN_SITE_ID": f"{site_id()}-small"}


def name(number: int) -> str:
    return f"bench-lkod-{number:05d}"


def record(number: int, owner_org: str) -> dict:
    """A published Czech record with every field the LKOD needs (as tests/support/lkod_view_records.py builds one)."""
    return {
        "name": name(number), "title": f"Datová sada {number}", "notes": "Testovací datová sada pro měření.",
        "owner_org": owner_org, "editorial_state": "published",
        "record_language": "cs", "record_validity": "valid", "publisher_id_scheme": "ico",
        "publisher_id": "00025593", "publisher_name": "Český statistický úřad",
        "publisher_email": "bench@example.cz", "license_id": "cc-by",
        "openness_conditions": {"complete": "yes", "accessible": "yes", "machine_readable": "yes",
                                "open_format": "yes", "open_terms": "yes", "free": "no"},
        "eurovoc": [{"uri": "http://eurovoc.europa.eu/100146"}], "spatial_area": "CZ0642",
        "tag_string": "měření,bench", "data_themes": ["SOCI"], "accrual_periodicity": "ANNUAL",
        "use_author_work": "cc-by-4.0", "use_author": "Český statistický úřad",
        "use_database_work": "not-copyright-database", "use_database_right": "not-protected",
        "use_personal_data": "no-personal-data",
        "resources": [
            {"url": f"https://data.example.cz/{number}/data.csv", "name": "Data", "format": "CSV",
             "mimetype": "text/csv", "source_type": "file"},
        ],
    }


def app_context():
    from ckan.config.middleware import make_app

    config = configured()
    config["ckan.views.default_views"] = ""
    config["ckan.plugins"] = " ".join(p for p in config["ckan.plugins"].split() if p != "activity")
    return make_app(config)._wsgi_app.test_request_context()


def create_share(worker: int) -> None:
    """Create this worker's share of the missing records; one Solr commit at the end."""
    from ckan.lib.search import commit
    from ckan.plugins import toolkit as tk

    with app_context():
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": user, "ignore_auth": True}  # noqa: E731
        org = tk.get_action("organization_show")(context(), {"id": ORGANIZATION})
        existing = set(tk.get_action("package_list")(context(), {}))
        for number in range(worker, DATASETS, WORKERS):
            if name(number) not in existing:
                tk.get_action("package_create")(context(), record(number, org["id"]))
        commit()


def index_small() -> None:
    """Index the first tenth of the records under this process's site id (the small catalog's)."""
    from ckan.lib.search import commit, rebuild

    with app_context():
        if eligible_count() < SMALL:
            rebuild(package_ids=[name(number) for number in range(SMALL)], defer_commit=True, quiet=True)
            commit()


def eligible_count() -> int:
    """How many eligible records this process's site id has indexed."""
    from ckan.plugins import toolkit as tk

    return tk.get_action("package_search")({"ignore_auth": True}, {"fq": ELIGIBLE, "rows": 0})["count"]


def run_self(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, *args], cwd=ROOT, env=env or os.environ,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ensure_records() -> None:
    """Create the benchmark records once, in parallel worker processes, and index the small catalog."""
    from ckan.plugins import toolkit as tk

    with app_context():
        context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
        try:
            tk.get_action("organization_show")(dict(context), {"id": ORGANIZATION})
        except tk.ObjectNotFound:
            tk.get_action("organization_create")(dict(context), {"name": ORGANIZATION})
        present = eligible_count()
    if present < DATASETS:
        started = time.perf_counter()
        if any(worker.wait() != 0 for worker in [run_self("--create", str(w)) for w in range(WORKERS)]):
            raise RuntimeError("creating the benchmark records failed")
        print(f"  {DATASETS - present} records created in {time.perf_counter() - started:.0f} s", flush=True)
    if run_self("--index-small", env=small_site_env()).wait() != 0:
        raise RuntimeError("indexing the small catalog failed")


def catalog_growth(session: requests.Session, server: subprocess.Popen, base: str) -> tuple[float, int, int]:
    """Download the catalog once warm: seconds, listed records, the server's peak memory growth (KiB)."""
    fetched(session, f"{base}/lkod/catalog")
    reset_peak(server.pid)
    before = memory_kib("VmRSS", server.pid)
    seconds, response = timed(lambda: fetched(session, f"{base}/lkod/catalog"))
    return seconds, len(response.json()["datová_sada"]), memory_kib("VmHWM", server.pid) - before


def verdict(ratio: float, target: float) -> str:
    return f"ratio {ratio:.2f} (target <= {target}) {'OK' if ratio <= target else 'OVER TARGET'}"


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--create":
        create_share(int(sys.argv[2]))
        return 0
    if sys.argv[1:] == ["--index-small"]:
        index_small()
        return 0
    print(f"ensuring {DATASETS} LKOD records in organization {ORGANIZATION} ({SMALL} in the small catalog)…",
          flush=True)
    ensure_records()
    server, base = start_server(PUBLISHED)
    small_server, small_base = start_server(PUBLISHED, small_site_env())
    session = requests.Session()
    ok = True
    try:
        identifier = fetched(session, f"{base}/api/3/action/package_show", id=name(42)).json()["result"]["id"]
        show = p50(lambda: fetched(session, f"{base}/api/3/action/package_show", id=identifier), SAMPLES, warm=5)[0]
        print(f"one record, p50 of {SAMPLES} requests (package_show {show * 1000:.1f} ms):")
        latency = p50(lambda: fetched(session, f"{base}/lkod/dataset/{identifier}"), SAMPLES, warm=5)[0]
        ratio = latency / show
        ok &= ratio <= TARGET_DOCUMENT
        print(f"  JSON-LD  {latency * 1000:6.1f} ms  {verdict(ratio, TARGET_DOCUMENT)}")
        # What NKOD reads is the JSON-LD document (it sends no Accept header); Turtle is shown for reference.
        latency = p50(lambda: fetched(session, f"{base}/lkod/dataset/{identifier}?format=ttl"), SAMPLES, warm=5)[0]
        print(f"  Turtle   {latency * 1000:6.1f} ms  ratio {latency / show:.2f} (no target)")

        page_through_search(session, base, ELIGIBLE)  # warm Solr's caches for both runs alike
        catalog_time, listed, growth = catalog_growth(session, server, base)
        search_time, seen = timed(lambda: page_through_search(session, base, ELIGIBLE))
        ratio = catalog_time / search_time
        ok &= ratio <= TARGET_CATALOG
        print(f"/lkod/catalog: {listed} records in {catalog_time:.2f} s; paging package_search through {seen} "
              f"records: {search_time:.2f} s")
        print(f"  {verdict(ratio, TARGET_CATALOG)}")
        _, small_listed, small_growth = catalog_growth(session, small_server, small_base)
        print(f"  server peak memory growth during the catalog: {growth / 1024:.1f} MiB for {listed} records, "
              f"{small_growth / 1024:.1f} MiB for {small_listed}")
    finally:
        for process in (server, small_server):
            process.terminate()
            process.wait(timeout=30)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
