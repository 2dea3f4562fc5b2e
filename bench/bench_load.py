"""The demo under load (issue 40): K concurrent visitors over the public pages, idle and while a 500-passport harvest
runs on the demo's own consumers, against the production-shaped server `make demo` serves.

Visitors: ``BENCH_LOAD_VISITORS`` threads (8), each with its own HTTP session, requesting the pages in turn for
``BENCH_LOAD_SECONDS`` (30) while idle, and on until each page was asked ``BENCH_LOAD_SAMPLES`` (20) times; under
the harvest, for as long as the job runs (at most ``BENCH_LOAD_HARVEST_SECONDS``, 600). The pages: home, the dataset search, one record's page in cs, ru and en,
``/opendata/``, that record's ``meta.csv``, ``/lkod/catalog``, ``/lkod/``, the scoreboard and one publisher's page,
and CKAN's own ``/dataset/``, the baseline. Printed in one run:

- 5xx responses and request errors, idle and under the harvest (target 0);
- each page's p95 as a ratio to ``/dataset/``'s p95 under the same load (target <= 1.5);
- the harvest's throughput (passports imported per second, from its gather's start to its last object's import)
  under load, against the same harvest with no visitors (target >= 0.7);
- each process of the web server (uWSGI's master's children: its workers and its HTTP router) and its RSS before
  and after (flat: a worker that uWSGI recycled, ``max-requests``, is printed as such).

The harvests: a generated MR site of ``BENCH_LOAD_PASSPORTS`` (500) passports (``support.mr_site.build_site``),
served on 127.0.0.1 by this process, one site per job with identifiers of its own (a fresh ``series``), so each job creates
every record; harvested by a source of the demo's (``bench-load``, in an organization of that name) created when
missing and cleared (``harvest_source_clear``) before each job, so the demo does not grow; the job is started as
the demo's cron starts it (``ckan harvester job`` then ``ckan harvester run``) and carried by the demo's gather and
fetch consumers, its progress read from the demo's database. Every request goes to 127.0.0.1.

The demo must be running (`make demo`); the server is ``BENCH_LOAD_URL`` (http://127.0.0.1:5000) with the demo's
configuration ``BENCH_LOAD_INI`` (dev/ckan.ini) and uWSGI's master in ``BENCH_LOAD_PIDFILE`` (dev/run/ckan.pid).
Without a server there it says so and exits 0. It is a benchmark, not a test: it prints and exits 0 whatever the
figures. Run from the repository root: ``.venv/bin/python bench/bench_load.py``.
"""
from __future__ import annotations

import configparser
import csv
import functools
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

import requests
import sqlalchemy as sa

from support import ROOT
from support.mr_site import build_site

BASE = os.environ.get("BENCH_LOAD_URL", "http://127.0.0.1:5000").rstrip("/")
INI = Path(os.environ.get("BENCH_LOAD_INI", ROOT / "dev" / "ckan.ini"))
PIDFILE = Path(os.environ.get("BENCH_LOAD_PIDFILE", ROOT / "dev" / "run" / "ckan.pid"))
VISITORS = int(os.environ.get("BENCH_LOAD_VISITORS", "8"))
SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "30"))
HARVEST_SECONDS = float(os.environ.get("BENCH_LOAD_HARVEST_SECONDS", "600"))
SAMPLES = int(os.environ.get("BENCH_LOAD_SAMPLES", "20"))  # requests of each page idle, at least
PASSPORTS = int(os.environ.get("BENCH_LOAD_PASSPORTS", "500"))
SOURCE = "bench-load"
TIMEOUT = 30  # seconds a request may take before it counts as an error
TARGET_ERRORS = 0
TARGET_P95 = 1.5
TARGET_THROUGHPUT = 0.7
BIN = Path(sys.executable).parent


# -- the demo, through its own command line ----------------------------------------------------------------------

def demo_env() -> dict[str, str]:
    """The demo's configuration, without the variables `make bench` sets for the other benchmarks' database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CKAN_")}
    return {**env, "CKAN_INI": str(INI), "PATH": f"{BIN}:{env.get('PATH', '')}"}  # ckanapi -c runs `ckan`


def ckan(*arguments: str) -> str:
    return subprocess.run([str(BIN / "ckan"), *arguments], env=demo_env(), check=True, capture_output=True,
                          text=True).stdout


def action(action_name: str, **data: str) -> Any:
    out = subprocess.run([str(BIN / "ckanapi"), "action", action_name, "-c", str(INI), *(f"{k}={v}" for k, v in data.items())],
                         env=demo_env(), check=True, capture_output=True, text=True).stdout
    return json.loads(out) if out.strip() else None


def database() -> sa.engine.Engine:
    """The demo's database, where the job's progress is read: polling through `ckanapi` would load CKAN every time
    on the machine being measured."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(INI, encoding="utf-8")
    return sa.create_engine(parser["app:main"]["sqlalchemy.url"])


def serving() -> bool:
    try:
        return requests.get(f"{BASE}/api/3/action/status_show", timeout=5).ok
    except requests.RequestException:
        return False


# -- the pages ---------------------------------------------------------------------------------------------------

def pages() -> dict[str, str]:
    """Page name -> path, the record and the publisher found on the demo."""
    registry = requests.get(f"{BASE}/opendata/list.csv", timeout=TIMEOUT)
    registry.raise_for_status()
    rows = list(csv.reader(io.StringIO(registry.content.decode("utf-8-sig"))))
    identifier = next(path.split("/")[2] for row in rows[1:] if len(row) > 2
                      and (path := urlsplit(row[2]).path).startswith("/opendata/"))
    found = requests.get(f"{BASE}/api/3/action/package_search", timeout=TIMEOUT,
                         params={"q": f'identifier:"{identifier}"', "rows": 1}).json()["result"]["results"]
    record = found[0]["name"] if found else requests.get(
        f"{BASE}/api/3/action/package_search", params={"rows": 1}, timeout=TIMEOUT).json()["result"]["results"][0]["name"]
    publishers = requests.get(f"{BASE}/passport/scoreboard.json", timeout=TIMEOUT).json()
    key = _first_publisher_key(publishers)
    return {
        "/dataset/ (baseline)": "/dataset/",
        "home": "/",
        "dataset search": "/dataset/?q=data",
        "record, cs": f"/cs/dataset/{record}",
        "record, ru": f"/ru/dataset/{record}",
        "record, en": f"/dataset/{record}",
        "/opendata/": "/opendata/",
        "meta.csv": f"/opendata/{identifier}/meta.csv",
        "/lkod/catalog": "/lkod/catalog",
        "/lkod/": "/lkod/",
        "scoreboard": "/passport/scoreboard",
        "publisher": f"/passport/scoreboard/publisher/{key}",
    }


def _first_publisher_key(scoreboard: dict[str, Any]) -> str:
    if not scoreboard.get("rows"):
        raise RuntimeError("no publisher on the scoreboard: run `make demo` to its end first")
    return scoreboard["rows"][0]["publisher"]


@dataclass
class Load:
    """What the visitors met, page by page."""
    seconds: dict[str, list[float]] = field(default_factory=dict)
    server_errors: int = 0
    errors: int = 0
    first_failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, page: str, took: float, failure: Optional[str], server_error: bool) -> None:
        with self.lock:
            self.seconds.setdefault(page, []).append(took)
            self.server_errors += server_error
            self.errors += failure is not None and not server_error
            if failure and len(self.first_failures) < 5:
                self.first_failures.append(f"{page}: {failure}")

    def requests(self) -> int:
        return sum(len(times) for times in self.seconds.values())

    def fewest(self, pages: dict[str, str]) -> int:
        with self.lock:
            return min(len(self.seconds.get(page, [])) for page in pages)


def visit(paths: dict[str, str], load: Load, stop: threading.Event, offset: int) -> None:
    session = requests.Session()
    order = list(paths.items())
    turn = offset
    while not stop.is_set():
        page, path = order[turn % len(order)]
        turn += 1
        started = time.perf_counter()
        failure, server_error = None, False
        try:
            response = session.get(BASE + path, timeout=TIMEOUT)
            server_error = response.status_code >= 500
            if response.status_code >= 400:
                failure = f"HTTP {response.status_code}"
        except requests.RequestException as error:
            failure = type(error).__name__
        load.record(page, time.perf_counter() - started, failure, server_error)


def visitors(paths: dict[str, str], until: threading.Event, most: float, samples: int = 0) -> Load:
    """K visitors until ``until`` is set or ``most`` seconds passed, then (idle) on until each page was asked
    ``samples`` times, at most HARVEST_SECONDS more: on a loaded machine 30 s gave nine requests a page, whose
    p95 is their slowest."""
    load = Load()
    threads = [threading.Thread(target=visit, args=(paths, load, until, k * 3), daemon=True) for k in range(VISITORS)]
    for thread in threads:
        thread.start()
    until.wait(most)
    longest = time.monotonic() + HARVEST_SECONDS
    while not until.is_set() and load.fewest(paths) < samples and time.monotonic() < longest:
        until.wait(1)
    until.set()
    for thread in threads:
        thread.join(TIMEOUT + 5)
    return load


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


# -- the harvest -------------------------------------------------------------------------------------------------

def serve_site(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/opendata/list.csv"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def ensure_source(url: str) -> None:
    """The source over ``url``: the registry is read from its config's ``registry_url``, so both change together."""
    config = json.dumps({"allow_private_addresses": True, "registry_url": url})
    try:
        action("organization_show", id=SOURCE)
    except subprocess.CalledProcessError:
        action("organization_create", name=SOURCE, title="Bench load")
    try:
        action("harvest_source_show", id=SOURCE)
        action("harvest_source_patch", id=SOURCE, url=url, config=config)
    except subprocess.CalledProcessError:
        ckan("harvester", "source", "create", SOURCE, url, "passport", "Bench load", "true", SOURCE, "MANUAL",
             config)


JOB_STATE = sa.text("""
    SELECT j.id, j.gather_started, j.gather_finished,
           count(o.id) AS objects,
           count(o.id) FILTER (WHERE o.state = 'COMPLETE') AS complete,
           count(o.id) FILTER (WHERE o.state = 'ERROR') AS errored,
           max(o.import_finished) AS last_import,
           (SELECT count(*) FROM harvest_gather_error g WHERE g.harvest_job_id = j.id) AS gather_errors
      FROM harvest_job j JOIN package p ON p.id = j.source_id
      LEFT JOIN harvest_object o ON o.harvest_job_id = j.id
     WHERE p.name = :source
     GROUP BY j.id ORDER BY j.created DESC LIMIT 1""")


def harvest(engine: sa.engine.Engine, url: str, most: float,
            running: Optional[threading.Event] = None) -> dict[str, Any]:
    """One job of the source over the site (the source cleared first), carried by the demo's consumers: passports
    imported per second from the gather's start to the last import. ``running`` is set once the gather started
    (or the time is up); the job is left ``most`` seconds after it was queued, whatever its state: the commands
    before (each loading CKAN, a minute apiece on a loaded machine) are not the harvest's time."""
    try:
        ensure_source(url)
        action("harvest_source_clear", id=action("harvest_source_show", id=SOURCE)["id"])  # it takes no name
        ckan("harvester", "job", SOURCE)
        ckan("harvester", "run")  # as the demo's cron does: the job goes to the gather queue now
        job = _until_done(engine, time.monotonic() + most, running)
    finally:
        if running is not None:
            running.set()
    if job is None or not job["done"]:
        return {"finished": False, "state": job}
    seconds = (job["last_import"] - job["gather_started"]).total_seconds() if job["last_import"] else 0.0
    return {"finished": True, "seconds": seconds, "complete": job["complete"], "errored": job["errored"],
            "gather_errors": job["gather_errors"], "rate": job["complete"] / seconds if seconds > 0 else 0.0}


def _until_done(engine: sa.engine.Engine, deadline: float, running: Optional[threading.Event]) -> Optional[dict]:
    """The job's state once its gather finished and every object it made is imported or failed; the last state
    read when the deadline comes first."""
    job: Optional[dict] = None
    while time.monotonic() < deadline:
        with engine.connect() as connection:
            row = connection.execute(JOB_STATE, {"source": SOURCE}).mappings().first()
        job = {**row, "done": False} if row else None
        if job and job["gather_started"] and running is not None:
            running.set()
        if job and job["gather_finished"] and job["complete"] + job["errored"] == job["objects"]:
            job["done"] = True
            break
        time.sleep(0.5)
    return job


# -- the web server's processes ----------------------------------------------------------------------------------

def server_processes() -> dict[int, int]:
    """uWSGI's master's children (pid -> RSS in KiB); empty where the pid file names none."""
    try:
        master = int(PIDFILE.read_text().strip())
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except (OSError, ValueError):
        return {}
    return {int(pid): rss for pid in children if (rss := _rss_kib(int(pid))) is not None}


def _rss_kib(pid: int) -> Optional[int]:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# -- the report --------------------------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def throughput_unmeasured(alone: dict[str, Any], loaded: dict[str, Any], busy: Load) -> Optional[str]:
    """Why the harvest's throughput under load over alone is no figure, or None when it is one: a ratio of a job
    that did not finish or imported nothing, or of a "load" no visitor made a request in, would say nothing."""
    for name, job in (("alone", alone), ("under load", loaded)):
        if not job.get("finished"):
            return f"the job {name} did not finish in {HARVEST_SECONDS:.0f} s"
        if not job.get("complete"):
            return (f"the job {name} imported nothing: {job['errored']} objects failed,"
                    f" {job['gather_errors']} gather errors")
    if not busy.requests():
        return "no request was made while the loaded job ran"
    return None


def report(paths: dict[str, str], idle: Load, busy: Load, alone: dict[str, Any], loaded: dict[str, Any],
           before: dict[int, int], after: dict[int, int], server: str) -> None:
    print(f"bench_load: {VISITORS} visitors on {BASE} ({server})")
    for name, load in (("idle", idle), ("under the harvest", busy)):
        bad = load.server_errors + load.errors
        print(f"  {name}: {load.requests()} requests; 5xx {load.server_errors}, errors {load.errors}"
              f" (target {TARGET_ERRORS}): {verdict(bad <= TARGET_ERRORS)}")
        for failure in load.first_failures:
            print(f"    {failure}")
    print(f"  {'page':22} {'idle p95 s':>10} {'ratio':>6} {'busy p95 s':>10} {'ratio':>6}  (p95 / /dataset/ p95,"
          f" target <= {TARGET_P95})")
    baseline = "/dataset/ (baseline)"
    for page in paths:
        cells = []
        oks = []
        for load in (idle, busy):
            times = load.seconds.get(page, [])
            base = load.seconds.get(baseline, [])
            if not times or not base:
                cells.append(f"{'-':>10} {'-':>6}")
                continue
            ratio = p95(times) / p95(base)
            oks.append(ratio <= TARGET_P95)
            cells.append(f"{p95(times):10.3f} {ratio:6.2f}")
        print(f"  {page:22} {cells[0]} {cells[1]}  {verdict(all(oks)) if page != baseline else ''}")
    for name, job in (("alone", alone), ("under load", loaded)):
        print(f"  harvest of {PASSPORTS} passports, {name}: " + (
            f"{job['complete']} imported ({job['errored']} failed, {job['gather_errors']} gather errors)"
            f" in {job['seconds']:.1f} s, {job['rate']:.2f}/s" if job.get("finished") else
            f"not finished in {HARVEST_SECONDS:.0f} s: {job.get('state')}"))
    unmeasured = throughput_unmeasured(alone, loaded, busy)
    if unmeasured:
        print(f"  harvest throughput under load / alone: not measured ({unmeasured}): MISSED")
    else:
        ratio = loaded["rate"] / alone["rate"]
        print(f"  harvest throughput under load / alone: {ratio:.2f} (target >= {TARGET_THROUGHPUT}):"
              f" {verdict(ratio >= TARGET_THROUGHPUT)}")
    print("  web server processes (uWSGI master's children), RSS MiB before -> after:")
    for pid in sorted(before.keys() | after.keys()):
        was, now = before.get(pid), after.get(pid)
        print(f"    pid {pid}: " + (f"{was / 1024:.0f} -> {now / 1024:.0f} ({(now - was) / 1024:+.0f})"
                                    if was and now else
                                    f"{(was or 0) / 1024:.0f} -> gone (recycled)" if was else
                                    f"new (recycled) -> {now / 1024:.0f}"))
    if not before:
        print(f"    none found ({PIDFILE} names no uWSGI master)")


def main() -> int:
    if urlsplit(BASE).hostname != "127.0.0.1":
        print(f"bench_load: {BASE} is not on 127.0.0.1: refused")
        return 1
    if not serving():
        print(f"bench_load: skipped: no demo serving at {BASE} (start it with `make demo`)")
        return 0
    server = "uWSGI" if server_processes() else "not uWSGI (no master's children found)"
    paths = pages()
    engine = database()
    run = f"{int(time.time()) % 100000:05d}"  # the identifiers of no earlier run
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        sites = [Path(folder) / job for job in "ab"]
        for site in sites:
            build_site(site, PASSPORTS, series=f"load{run}{site.name}")
        servers = [serve_site(site) for site in sites]
        try:
            before = server_processes()
            idle = visitors(paths, threading.Event(), SECONDS, SAMPLES)
            alone = harvest(engine, servers[0][1], HARVEST_SECONDS)
            running, done = threading.Event(), threading.Event()
            results: dict[str, Any] = {}

            def loaded_harvest() -> None:
                try:
                    results.update(harvest(engine, servers[1][1], HARVEST_SECONDS, running))
                finally:
                    done.set()

            harvesting = threading.Thread(target=loaded_harvest, daemon=True)
            harvesting.start()
            running.wait(HARVEST_SECONDS)
            busy = visitors(paths, done, HARVEST_SECONDS)
            harvesting.join(TIMEOUT)
            after = server_processes()
        finally:
            for httpd, _ in servers:
                httpd.shutdown()
    report(paths, idle, busy, alone, results, before, after, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
