"""MR parser speed against the bare parse floor, on the real publications. Run: ``python bench/bench_mr.py``.

Passports: each parser (bytes in, Passport out) against the cheapest way to read the same bytes at all:
``csv.reader`` over the text decoded in the encoding the parser found, ``json.loads``, ``lxml.etree.fromstring``,
and pyRdfa alone (its own ``graph_from_source`` on the bytes, with our options; also for the page without RDFa,
which is read for RDFa before its table). Times are medians of timeit-style repeats, the parser's and the floor's
batches alternating.

Gather: ``iter_registry`` over fedstat's ``list.xml`` (6,692 items, 2.9 MB) against a bare ``lxml.etree.iterparse``
loop that clears each item. Peak memory is the growth of the peak resident set (``VmHWM``, reset through
``/proc/self/clear_refs`` just before parsing) over the resident set at that moment, in a fresh subprocess per
side, both reading the same file as a stream after the same imports. Unlike tracemalloc it sees libxml2's own
allocations, which dominate here; unlike a bare ``ru_maxrss`` it is not hidden under the peak the imports left.

There are no targets: the parse is well under 1% of a whole harvest's time (bench/bench_harvest.py), so the
parsers keep one careful code path each and these ratios only show where the time of a parse goes.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import statistics
import subprocess
import sys
import timeit
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lxml import etree  # noqa: E402
from pyRdfa import pyRdfa  # noqa: E402
from pyRdfa.options import Options  # noqa: E402

from ckanext.passport.mr.passport import meta_csv, meta_json, meta_xml, mr23_csv, parse_passport, rdfa  # noqa: E402
from ckanext.passport.mr.writers.passport import write_passport  # noqa: E402

REAL = ROOT / "tests" / "fixtures" / "real"
SITE = "http://opendata.example.ru/opendata"
REPEATS = 7
GATHER_ROUNDS = 3
MIN_BATCH_SECONDS = 0.2


def median_seconds(*calls: Callable[[], object]) -> list[float]:
    """Seconds per call of each of ``calls``: the median of REPEATS batches, each long enough to time reliably.

    The calls' batches alternate (one of each per repeat), so that a disturbance of the machine (another
    process, a collection) falls on all of them alike instead of on whichever was being timed.
    """
    timers = []
    for call in calls:
        timer = timeit.Timer(call)
        number, _ = timer.autorange()
        timers.append((timer, max(number, int(number * MIN_BATCH_SECONDS / 0.2))))
    samples: list[list[float]] = [[] for _ in calls]
    for _ in range(REPEATS):
        for (timer, number), times in zip(timers, samples):
            times.append(timer.timeit(number) / number)
    return [statistics.median(times) for times in samples]


def csv_floor(data: bytes, encoding: str, delimiter: str) -> Callable[[], object]:
    # "mixed" files are mostly Windows-1251; the floor only needs some text to split.
    codec = "windows-1251" if encoding == "mixed" else encoding
    return lambda: list(csv.reader(io.StringIO(data.decode(codec, errors="replace"), newline=""),
                                   delimiter=delimiter))


def rdfa_floor(data: bytes, url: str) -> Callable[[], object]:
    def parse() -> object:
        processor = pyRdfa(options=Options(embedded_rdf=False), base=url, media_type="text/html")
        return processor.graph_from_source(io.BytesIO(data))
    return parse


def passport_rows() -> list[tuple[str, float, float]]:
    """(name, parser passports/s, floor passports/s) per form."""
    rosstat = (REAL / "rosstat-okved2/meta.csv").read_bytes()
    rosstat_url = f"{SITE}/7708234640-okvedva/meta.csv"
    rosstat_read = meta_csv.parse(rosstat, rosstat_url)
    written_xml = write_passport(rosstat_read.value, "meta.xml")
    predgor_json = (REAL / "predgor/2618017120-politicaldivisions/meta.json").read_bytes()
    meteorf = (REAL / "meteorf-terorg/meta.csv").read_bytes()
    meteorf_encoding = mr23_csv.parse(meteorf).encoding
    page = (REAL / "predgor/2618017120-politicaldivisions/index.php").read_bytes()
    page_url = f"{SITE}/2618017120-politicaldivisions/"
    table_page = (ROOT / "tests/fixtures/mr-pages/treasury-3col-windows-1251.html").read_bytes()
    table_url = f"{SITE}/7710568760-budgetexecution/"
    cases = [
        ("meta.csv (rosstat)", lambda: meta_csv.parse(rosstat, rosstat_url),
         csv_floor(rosstat, rosstat_read.encoding, ",")),
        ("meta.json (predgor)", lambda: meta_json.parse(predgor_json), lambda: json.loads(predgor_json)),
        ("meta.xml (written from rosstat)", lambda: meta_xml.parse(written_xml),
         lambda: etree.fromstring(written_xml)),
        ("MR 2.3 CSV (meteorf)", lambda: mr23_csv.parse(meteorf), csv_floor(meteorf, meteorf_encoding, ";")),
        ("RDFa (predgor index.php)", lambda: rdfa.parse(page, page_url), rdfa_floor(page, page_url)),
        # A page without RDFa is read for RDFa first (the floor), then from its table.
        ("HTML table (Treasury-style page)", lambda: parse_passport(table_page, table_url),
         rdfa_floor(table_page, table_url)),
    ]
    rows = []
    for name, parse, floor in cases:
        parse_seconds, floor_seconds = median_seconds(parse, floor)
        rows.append((name, 1 / parse_seconds, 1 / floor_seconds))
    return rows


# --- gather ---------------------------------------------------------------------------------------------

# Each side runs in a fresh interpreter with the same imports; it prints seconds per pass and the growth
# of the process's peak resident set (KiB) while it parsed.
_GATHER_SIDE = r"""
import re, statistics, sys, time
sys.path.insert(0, {root!r})
from lxml import etree
from ckanext.passport.mr.registry import iter_registry

PATH = {path!r}

def ours():
    with open(PATH, "rb") as stream:
        return sum(1 for _ in iter_registry(stream, "https://fedstat.ru/opendata/list.xml"))

def floor():
    count = 0
    with open(PATH, "rb") as stream:
        for _, item in etree.iterparse(stream, events=("end",), tag="item"):
            count += 1
            item.clear()
            while item.getprevious() is not None:
                del item.getparent()[0]
    return count

def status(field):
    with open("/proc/self/status") as lines:
        return int(re.search(field + r":\s+(\d+)", lines.read()).group(1))

run = {side}
with open("/proc/self/clear_refs", "w") as reset:
    reset.write("5")
baseline = status("VmRSS")
run()
peak = status("VmHWM") - baseline
times = []
for _ in range({repeats}):
    started = time.perf_counter()
    run()
    times.append(time.perf_counter() - started)
print(statistics.median(times), peak)
"""


def gather_side(side: str, path: Path) -> tuple[float, int]:
    code = _GATHER_SIDE.format(root=str(ROOT), path=str(path), side=side, repeats=REPEATS)
    output = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    seconds, peak_kib = output.split()
    return float(seconds), int(peak_kib)


# --- report ---------------------------------------------------------------------------------------------

def main() -> None:
    # The bare-pyRdfa floor logs rdflib's "not a valid URI" warning on every run; our parser filters it.
    logging.getLogger("rdflib.term").setLevel(logging.ERROR)
    print("MR parsers against the bare parse floor (median of %d repeats)\n" % REPEATS)
    header = f"{'passport form':34} {'parser/s':>10} {'floor/s':>10} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    for name, ours, floor in passport_rows():
        print(f"{name:34} {ours:10.0f} {floor:10.0f} {floor / ours:6.2f}x")

    path = REAL / "fedstat/list.xml"
    # Three fresh processes per side, alternating; the median of each side's figures.
    runs = {"ours": [], "floor": []}
    for _ in range(GATHER_ROUNDS):
        for side, figures in runs.items():
            figures.append(gather_side(side, path))
    ours_seconds, ours_peak = (statistics.median(f) for f in zip(*runs["ours"]))
    floor_seconds, floor_peak = (statistics.median(f) for f in zip(*runs["floor"]))
    print(f"\nGather: fedstat list.xml ({path.stat().st_size / 1e6:.1f} MB) via iter_registry"
          " vs lxml.etree.iterparse clearing items")
    print("peak memory = growth of VmHWM (reset before parsing) in a fresh subprocess per side;"
          f" medians of {GATHER_ROUNDS} alternating processes per side\n")
    header = f"{'measure':34} {'ours':>10} {'floor':>10} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    print(f"{'time (ms)':34} {ours_seconds * 1000:10.1f} {floor_seconds * 1000:10.1f}"
          f" {ours_seconds / floor_seconds:6.2f}x")
    print(f"{'peak memory growth (KiB)':34} {ours_peak:10.0f} {floor_peak:10.0f}"
          f" {ours_peak / max(floor_peak, 1):6.2f}x")


if __name__ == "__main__":
    main()
