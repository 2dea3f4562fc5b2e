"""The openness check's memory against the size of the file it checks (issue 37: 5 MiB of JSON cost +530 MiB).

Run: ``python bench/bench_openness.py`` (``make bench`` runs it). Well-formed tables of 1, 5, 20 and 50 MiB in CSV,
JSON and XML are written to a temporary folder and served by the standard library's file server on 127.0.0.1 (it
ignores ``Range``, so the whole file comes down the wire and the check must stop reading by itself: the worst case).
Each check, ``catalog.openness.jobs.check_resource`` with the site's default sample (``openness_sample_bytes``, 4 MiB),
runs in a fresh process, so that no run pays for another's allocations; there it first checks a small file once, so
that the figure is no import's. Per row it prints the seconds, the heap peak of the check (``tracemalloc``) and the
growth of the resident set's peak (``VmHWM``) over the resident set just before it, and the heap peak as a ratio to
the baseline: the 1 MiB file of the same kind, checked in the same run. A 1 MiB file is read whole; the others are
judged by their first 4 MiB, which the row's verdict shows (``sampled``).

Target: the heap peak flat from 1 MiB to 50 MiB, each ratio <= 1.2. The resident set's growth is printed beside,
with no target: it holds the interpreter's own arenas and ``tracemalloc``'s bookkeeping.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from support.measure import memory_kib, reset_peak

MIB = 1024 * 1024
SIZES_MIB = (1, 5, 20, 50)
KINDS = ("csv", "json", "xml")
TARGET_RATIO = 1.2
SAMPLE = 4 * MIB  # ckanext.passport.openness_sample_bytes' default
CHILD_LIMIT = 300.0
# Each kind's start, one row (``{n}`` its number), and end.
TABLES = {
    "csv": (b"kod;nazev;pocet obyvatel;okres\n", "{n};Obec číslo {n};{n};Okres {n}\n", b""),
    "json": (b'{"obce": [', '{{"kod": {n}, "nazev": "Obec číslo {n}", "pocet": {n}, "okres": "Okres {n}"}}, ',
             b'{"kod": 0, "nazev": "x", "pocet": 0, "okres": "x"}]}'),
    "xml": (b'<?xml version="1.0" encoding="utf-8"?>\n<obce>',
            '<obec kod="{n}"><nazev>Obec číslo {n}</nazev><pocet>{n}</pocet><okres>Okres {n}</okres></obec>\n',
            b"</obce>\n"),
}


def write_table(folder: Path, kind: str, size: int) -> str:
    """A well-formed table of about ``size`` bytes, written block by block; its file name."""
    start, row, end = TABLES[kind]
    name = f"obce-{size // MIB}.{kind}" if size >= MIB else f"warm.{kind}"
    written = 0
    with (folder / name).open("wb") as out:
        out.write(start)
        n = 0
        while written < size - len(start) - len(end):
            block = "".join(row.format(n=n + i) for i in range(1000)).encode()
            n += 1000
            out.write(block)
            written += len(block)
        out.write(end)
    return name


def serve(folder: Path) -> str:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            """A check that has read its sample closes the connection mid-file: no fault to print."""

    server = Server(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


# -- one check, in a child process ------------------------------------------------------------------------------

def child(url: str, warm_url: str, kind: str) -> dict[str, Any]:
    import ckan.plugins.toolkit as tk

    from ckanext.passport import settings
    from ckanext.passport.catalog.openness import jobs

    tk.config[settings.OPENNESS_SAMPLE_BYTES] = str(SAMPLE)
    policy = settings.site_check_fetch_policy(True)
    jobs.check_resource({"id": "warm", "url": warm_url, "format": kind}, policy)
    before = memory_kib("VmRSS")
    reset_peak()
    tracemalloc.start()
    started = time.perf_counter()
    result = jobs.check_resource({"id": "bench", "url": url, "format": kind}, policy)
    seconds = time.perf_counter() - started
    heap = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"seconds": seconds, "heap_mib": heap / MIB, "rss_mib": (memory_kib("VmHWM") - before) / 1024,
            "passed": result["passed"], "sampled": result.get("sample_bytes", 0)}


def run_child(url: str, warm_url: str, kind: str) -> dict[str, Any]:
    try:
        done = subprocess.run([sys.executable, __file__, "--child", url, warm_url, kind], capture_output=True,
                              text=True, timeout=CHILD_LIMIT)
    except subprocess.TimeoutExpired:
        return {"failed": f"KILLED after {CHILD_LIMIT:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"failed": f"DIED (exit {done.returncode}) {done.stderr.strip().splitlines()[-1:]}"}
    return json.loads(lines[-1])


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2], sys.argv[3], sys.argv[4])))
        return 0
    print(f"each check in a fresh process; sample {SAMPLE // MIB} MiB; baseline: the 1 MiB file of the same kind")
    print(f"{'file':<22}{'s':>8}{'heap MiB':>10}{'RSS MiB':>10}{'ratio':>8}  target / outcome")
    missed = rows = 0
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        site = serve(root)
        for kind in KINDS:
            warm = f"{site}/{write_table(root, kind, 64 * 1024)}"
            baseline = None
            for size in SIZES_MIB:
                name = write_table(root, kind, size * MIB)
                figures = run_child(f"{site}/{name}", warm, kind)
                (root / name).unlink()
                rows += 1
                if "failed" in figures:
                    missed += 1
                    print(f"{name:<22}{'':>36}  MISSED: {figures['failed']}")
                    continue
                baseline = baseline or figures["heap_mib"]
                ratio = figures["heap_mib"] / baseline
                ok = ratio <= TARGET_RATIO and figures["passed"]
                missed += not ok
                read = f"sampled {figures['sampled'] // MIB} MiB" if figures["sampled"] else "read whole"
                print(f"{name:<22}{figures['seconds']:>8.2f}{figures['heap_mib']:>10.2f}{figures['rss_mib']:>10.1f}"
                      f"{ratio:>8.2f}  <= {TARGET_RATIO} {'ok' if ok else 'MISSED'}: "
                      f"{'passes' if figures['passed'] else 'FAILS'}, {read}")
    print(f"{rows - missed} of {rows} files within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
