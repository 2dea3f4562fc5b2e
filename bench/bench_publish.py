"""The MR exports against the CKAN actions they are built on, over HTTP on a live server.

- ``meta.json``, ``meta.xml``, ``meta.csv`` of one dataset: p50 latency as a ratio to ``package_show`` of the
  same dataset through the API (target <= 1.3 each).
- ``/opendata/list.csv`` over 10,000 datasets: wall time as a ratio to paging ``package_search`` (1,000 rows a
  page, the same datasets) through the API (target <= 1.5), with the server's peak memory growth during the
  download (the registry streams: it should stay flat whatever the catalog size).

The datasets are created here when missing (organization ``bench-publish``, kept between runs: creating them
takes minutes). The server is this CKAN served by werkzeug in a child process, so its memory is its own.
Database and Solr core are test.ini's unless CKAN_SQLALCHEMY_URL / CKAN_SITE_ID say otherwise.
Run from the repository root: `.venv/bin/python bench/bench_publish.py`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

import requests
from support import ROOT
from support.measure import memory_kib, p50, reset_peak, timed
from support.server import configured, dataset, fetched, page_through_search, start_server

ORGANIZATION = "bench-publish"
DATASETS = 10_000
SAMPLES = 60
PUBLISHABLE = "+passport_publishable:true"
TARGET_PASSPORT = 1.3
TARGET_REGISTRY = 1.5
WORKERS = 6


def create_share(worker: int) -> None:
    """Create this worker's share of the missing datasets (numbers ``n % WORKERS == worker``).

    No Solr commit per dataset, one at the end; no resource views or activities, which are not measured.
    """
    from ckan.config.middleware import make_app
    from ckan.lib.search import commit
    from ckan.plugins import toolkit as tk

    config = configured()
    config["ckan.views.default_views"] = ""
    config["ckan.plugins"] = " ".join(p for p in config["ckan.plugins"].split() if p != "activity")
    app = make_app(config)
    with app._wsgi_app.test_request_context():
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": user, "ignore_auth": True}  # noqa: E731
        org = tk.get_action("organization_show")(context(), {"id": ORGANIZATION})
        existing = set(tk.get_action("package_list")(context(), {}))
        for number in range(worker, DATASETS, WORKERS):
            if f"7712345678-bench{number:05d}" not in existing:
                tk.get_action("package_create")(context(), dataset(number, org["id"]))
        commit()


def ensure_datasets() -> None:
    """Create the benchmark catalog once, in parallel worker processes."""
    from ckan.config.middleware import make_app
    from ckan.plugins import toolkit as tk

    app = make_app(configured())
    with app._wsgi_app.test_request_context():
        context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
        try:
            tk.get_action("organization_show")(dict(context), {"id": ORGANIZATION})
        except tk.ObjectNotFound:
            tk.get_action("organization_create")(dict(context), {"name": ORGANIZATION})
        present = tk.get_action("package_search")(
            dict(context), {"fq": f"organization:{ORGANIZATION}", "rows": 0})["count"]
    if present >= DATASETS:
        return
    started = time.perf_counter()
    workers = [subprocess.Popen([sys.executable, __file__, "--create", str(worker)], cwd=ROOT, env=os.environ,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for worker in range(WORKERS)]
    if any(worker.wait() != 0 for worker in workers):
        raise RuntimeError("creating the benchmark datasets failed")
    print(f"  {DATASETS - present} datasets created in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--create":
        create_share(int(sys.argv[2]))
        return 0
    print(f"ensuring {DATASETS} datasets in organization {ORGANIZATION}…", flush=True)
    ensure_datasets()
    server, base = start_server()
    session = requests.Session()
    ok = True
    try:
        identifier = "7712345678-bench00042"
        show = p50(lambda: fetched(session, f"{base}/api/3/action/package_show", id=identifier), SAMPLES, warm=5)[0]
        print(f"one dataset, p50 of {SAMPLES} requests (package_show {show * 1000:.1f} ms):")
        for form in ("meta.json", "meta.xml", "meta.csv"):
            latency = p50(lambda: fetched(session, f"{base}/opendata/{identifier}/{form}"), SAMPLES, warm=5)[0]
            ratio = latency / show
            ok &= ratio <= TARGET_PASSPORT
            print(f"  {form:<9} {latency * 1000:6.1f} ms  ratio {ratio:.2f} (target <= {TARGET_PASSPORT})"
                  f" {'OK' if ratio <= TARGET_PASSPORT else 'OVER TARGET'}")

        page_through_search(session, base, PUBLISHABLE)  # warm Solr's caches for both runs alike
        reset_peak(server.pid)
        before = memory_kib("VmRSS", server.pid)
        registry_time, response = timed(lambda: fetched(session, f"{base}/opendata/list.csv"))
        growth = memory_kib("VmHWM", server.pid) - before
        rows = response.content.count(b"\r\n") - 2
        search_time, seen = timed(lambda: page_through_search(session, base, PUBLISHABLE))
        ratio = registry_time / search_time
        ok &= ratio <= TARGET_REGISTRY
        print(f"/opendata/list.csv: {rows} datasets in {registry_time:.2f} s; paging package_search through "
              f"{seen} datasets: {search_time:.2f} s")
        print(f"  ratio {ratio:.2f} (target <= {TARGET_REGISTRY}) {'OK' if ratio <= TARGET_REGISTRY else 'OVER TARGET'}")
        print(f"  server peak memory growth during list.csv: {growth / 1024:.1f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
