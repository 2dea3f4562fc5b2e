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

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import requests

ROOT = Path(__file__).resolve().parent.parent
INI = ROOT / "test.ini"
ORGANIZATION = "bench-publish"
DATASETS = 10_000
SAMPLES = 60
PAGE_ROWS = 1000
TARGET_PASSPORT = 1.3
TARGET_REGISTRY = 1.5


def configured(port: int | None = None, options: dict[str, str] | None = None) -> Any:
    """test.ini for a benchmark's server on ``port``, with the benchmark's own ``options`` over it."""
    from ckan.cli import load_config

    config = load_config(str(INI))
    config["ckanext.passport.review_scope"] = "none"
    config["ckan.search.solr_commit"] = "false"
    config.update(options or {})
    if port is not None:
        config["ckan.site_url"] = f"http://127.0.0.1:{port}"
    return config


def dataset(number: int, owner_org: str) -> dict:
    identifier = f"7712345678-bench{number:05d}"
    return {
        "name": identifier, "title": f"Набор данных {number}", "notes": "Тестовый набор для замеров.",
        "owner_org": owner_org, "mr_identifier": identifier, "publisher_name": "Bench department",
        # The rest of what the catalog schema (test.ini's) requires of a record.
        "record_language": "ru", "record_validity": "valid", "publisher_id_scheme": "inn",
        "publisher_id": "7708234640", "publisher_email": "bench@example.com",
        "openness_conditions": {"complete": "yes", "accessible": "yes", "machine_readable": "yes",
                                "open_format": "yes", "open_terms": "yes", "free": "no"},
        "eurovoc": [{"uri": "http://eurovoc.europa.eu/100146"}],
        "maintainer": "Bench", "maintainer_email": "bench@example.com", "mr_created": "2020-01-01",
        "mr_modified": "2021-01-01", "mr_format": "csv", "tags": [{"name": "bench"}],
        "resources": [
            {"url": f"https://files.example.com/{number}/data.csv", "format": "CSV", "resource_type": "data",
             "mr_version": "20210101T0000", "mr_structure_version": "20200101T0000", "mr_created": "2021-01-01"},
            {"url": f"https://files.example.com/{number}/structure.csv", "format": "CSV",
             "resource_type": "structure", "mr_version": "20200101T0000", "mr_created": "2020-01-01"},
        ],
    }


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


def serve(port: int, options: dict[str, str] | None = None) -> None:
    from ckan.config.middleware import make_app
    from werkzeug.serving import make_server

    make_server("127.0.0.1", port, make_app(configured(port, options))).serve_forever()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(options: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """This CKAN on a free port in a child process (``configured``, with a benchmark's own ``options`` over it)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), json.dumps(options or {})],
                              cwd=ROOT, env=os.environ,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            requests.get(f"{base}/api/3/action/status_show", timeout=5)
            return server, base
        except requests.ConnectionError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the benchmark server did not start")


def memory_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def reset_peak(pid: int) -> None:
    # Writing 5 to clear_refs resets the peak resident set size (VmHWM) to the current one.
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def p50(call: Callable[[], Any]) -> float:
    for _ in range(5):
        call()
    timings = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        call()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def fetched(session: requests.Session, url: str, **params: Any) -> requests.Response:
    response = session.get(url, params=params, timeout=600)
    response.raise_for_status()
    return response


def page_through_search(session: requests.Session, base: str) -> int:
    """The baseline: every publishable dataset through package_search, a page of 1,000 at a time."""
    seen, start = 0, 0
    while True:
        result = fetched(session, f"{base}/api/3/action/package_search", q="*:*", fq="+passport_publishable:true",
                         sort="name asc", rows=PAGE_ROWS, start=start).json()["result"]
        seen += len(result["results"])
        start += PAGE_ROWS
        if start >= result["count"]:
            return seen


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def main() -> int:
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), json.loads(sys.argv[3]) if len(sys.argv) == 4 else None)
        return 0
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
        show = p50(lambda: fetched(session, f"{base}/api/3/action/package_show", id=identifier))
        print(f"one dataset, p50 of {SAMPLES} requests (package_show {show * 1000:.1f} ms):")
        for form in ("meta.json", "meta.xml", "meta.csv"):
            latency = p50(lambda: fetched(session, f"{base}/opendata/{identifier}/{form}"))
            ratio = latency / show
            ok &= ratio <= TARGET_PASSPORT
            print(f"  {form:<9} {latency * 1000:6.1f} ms  ratio {ratio:.2f} (target <= {TARGET_PASSPORT})"
                  f" {'OK' if ratio <= TARGET_PASSPORT else 'OVER TARGET'}")

        page_through_search(session, base)  # warm Solr's caches for both runs alike
        reset_peak(server.pid)
        before = memory_kib(server.pid, "VmRSS")
        registry_time, response = timed(lambda: fetched(session, f"{base}/opendata/list.csv"))
        growth = memory_kib(server.pid, "VmHWM") - before
        rows = response.content.count(b"\r\n") - 2
        search_time, seen = timed(lambda: page_through_search(session, base))
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
