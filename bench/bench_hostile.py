"""Hostile and broken publications against the readers, beside the same reader on a real file of the same form.

Run: ``python bench/bench_hostile.py [WORD …]`` (``make bench`` runs it; words keep only the classes whose name
holds one of them). Each class of issue 20's "What was seen" is made
at the size it was seen at and handed to the entry point a harvest or a site check calls (``parse_passport``,
``parse_registry``, ``read_structure_fields``, ``decode_bytes``, ``lkod.documents.read_graph``, ``fetch``). Every
case runs in a fresh subprocess killed after ``CHILD_LIMIT`` seconds, so a reader that hangs or blows up
shows as such instead of taking the benchmark down; there the reader first reads the real file once, so that
neither side is timed importing its libraries. Per case it prints the seconds, the peak memory (growth of
the resident set's peak, ``VmHWM``, over the resident set just before the call, so the input's own bytes do not
count) and what came back: the codes of the problems, or the exception that escaped.

Two rows are no class of attack but what a cap lets through: an LKOD catalog document just under its default cap,
in the plain shape every LKOD writes (listed without rdflib) and in any other shape (through rdflib); they have
no target. The baseline of each row is the same reader on a real publication of that form (tests/fixtures/real, the demo
site, the norm's LKOD example): the ratio says how much a hostile file costs against an ordinary one.

Target (issue 20): every class in at most 2 s and 300 MB, or refused with a coded problem in at most 0.2 s. A
slow-drip server is held to its fetch deadline instead (``DRIP_DEADLINE`` plus half a second). A row whose reader
raised, or that reached a local server, misses whatever its time.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

from support import ROOT
from support.measure import memory_kib, reset_peak

REAL = ROOT / "tests" / "fixtures" / "real"
DEMO = ROOT / "dev" / "demo-site" / "opendata"
LKOD_EXAMPLE = ROOT / "tests" / "fixtures" / "dcat-ap-cz" / "příklady"
SITE = "http://opendata.example.ru/opendata"
CHILD_LIMIT = 120.0
TARGET_SECONDS = 2.0
TARGET_MIB = 300.0
TARGET_REFUSED_SECONDS = 0.2
DRIP_DEADLINE = 1.5
MB = 1024 * 1024


# -- the readers, as a harvest calls them -----------------------------------------------------------------

def read_passport(data: bytes, url: str) -> Any:
    from ckanext.passport.mr.passport import parse_passport

    return parse_passport(data, url)


def read_registry(data: bytes, url: str) -> Any:
    """The registry and every entry's passport locations, as gather works them out."""
    from ckanext.passport.mr.passport import passport_locations
    from ckanext.passport.mr.registry import parse_registry

    result = parse_registry(data, url)
    for entry in result.value.entries if result.value else []:
        passport_locations(entry.link)
    return result


def read_structure(data: bytes, url: str) -> Any:
    from ckanext.passport.mr.structure import read_structure_fields

    return read_structure_fields(data, url)


def read_with_codec(codec: str) -> Callable[[bytes, str], Any]:
    def read(data: bytes, url: str) -> Any:
        from ckanext.passport.mr.decode import decode_bytes

        return decode_bytes(data, url, override=codec)
    return read


def read_and_correct(data: bytes, url: str) -> Any:
    """The passport and its corrected meta.json, which must be text a database and a download accept."""
    from ckanext.passport.mr.corrections import corrected_file

    result = read_passport(data, url)
    if result.value is not None:
        text = (corrected_file(result.value, url, "meta.json") or b"").decode("utf-8")
        if "\x00" in text:
            raise ValueError("a NUL reached the corrected meta.json")
    return result


def read_lkod(data: bytes, url: str) -> Any:
    """The graph, or the one coded problem a refused document carries (the harvester records it and goes on)."""
    from ckanext.passport.lkod.documents import DocumentRefused, read_graph

    try:
        return read_graph(data, url, "application/ld+json")
    except DocumentRefused as refused:
        return refused


# -- the hostile files ---------------------------------------------------------------------------------------

def doctype_bomb(pairs: int) -> bytes:
    """A DOCTYPE that never closes: each ``[]`` more doubled a backtracking sniffer's time."""
    return b"<!DOCTYPE " + b"[]" * pairs


def long_link_registry() -> bytes:
    """The demo site's opendatalist.csv with a 40 KB link and a 40 KB identifier in its first row."""
    text = OPENDATALIST.read_bytes().decode("cp1251")
    link = "/opendata/" + "a.b" * 13_000 + "/"
    key = "7708234640-" + "x." * 20_000
    return text.replace("/opendata/7708234640-okvedva/", link).replace(";7708234640-okvedva;", f";{key};").encode(
        "cp1251")


def long_cell_page() -> bytes:
    """A passport page of plain tables (ours, in the style of real ones) whose first value is a 40 KB word."""
    page = TABLE_PAGE.read_text(encoding="utf-8")
    start = page.index("<td>", page.index("<table"))
    second = page.index("<td>", page.index("<td>", start + 4) + 4)
    return (page[:second + 4] + "x" * 40_000 + page[second + 4:]).encode("utf-8")


def many_attributes() -> bytes:
    attributes = " ".join(f'a{n}="v"' for n in range(20_000))
    return f"<html><body><table {attributes}><tr><td>1</td></tr></table></body></html>".encode()


def nested(tag: str, depth: int) -> bytes:
    return (f"<html><body>{tag * depth}x</body></html>").encode()


def packed_page(element: str, count: int) -> bytes:
    return f"<html><body>{element * count}</body></html>".encode()


CROWDED_SPAN = "<span " + " ".join(f'a{n}="v"' for n in range(250)) + ">x</span>"


def unterminated_json_string() -> bytes:
    return b'{"standardversion": "http://opendata.gosmonitor.ru/standard/3.0", "title": "' + b"a" * (50 * MB)


def deep_json(depth: int) -> bytes:
    return b'{"title": ' + b"[" * depth + b"]" * depth + b"}"


def deep_structure(depth: int) -> bytes:
    return b'{"properties": {"a": ' * depth + b"{}" + b"}}" * depth


def bad_url_registry() -> bytes:
    return ("№;Наименование;Гиперссылка;Идентификатор;Формат\r\n"
            "1;Набор А;http://[x/opendata/7707082071-a/;7707082071-a;csv\r\n"
            "2;Набор Б;/opendata/7707082071-b/;7707082071-b;csv\r\n").encode("utf-8")


def control_characters_passport() -> bytes:
    document = json.loads((REAL / "predgor" / "2618017120-politicaldivisions" / "meta.json").read_bytes())
    document["title"] = "Набор\u0000 с \ud800 символами"
    document["description"] = "\u0001\u0000" * 1000
    return json.dumps(document, ensure_ascii=True).encode()


def unknown_csv_rows(rows: int) -> bytes:
    head = (REAL / "rosstat-okved2" / "meta.csv").read_bytes()
    extra = "".join(f"неизвестная характеристика {n},значение {n}\r\n" for n in range(rows))
    return head + extra.encode("utf-8")


def one_line_opendatalist() -> bytes:
    return b"property,value\r\n" + b"7707082071-" + b"x" * (50 * MB)


def large_html_page() -> bytes:
    row = "<tr><td>характеристика</td><td>" + "значение " * 20 + "</td></tr>"
    rows = row * (5 * MB // len(row.encode()))
    return f"<html><body><table>{rows}</table></body></html>".encode()


def jsonld_import(hits_url: str) -> bytes:
    return json.dumps({
        "@context": ["https://ofn.gov.cz/rozhraní-katalogů-otevřených-dat/2021-01-11/kontexty/rozhraní-katalogů-otevřených-dat.jsonld",
                     {"@import": hits_url + "/context.jsonld"}],
        "iri": "https://data.example.cz/katalog", "typ": "Katalog",
    }).encode()


def jsonld_scoped(hits_url: str) -> bytes:
    return json.dumps({
        "@context": {"x": {"@id": "https://example.org/x", "@context": hits_url + "/scoped.jsonld"},
                     "T": {"@id": "https://example.org/T", "@context": "file:///etc/passwd"}},
        "@id": "https://data.example.cz/katalog", "@type": "T", "x": {"y": 1},
    }).encode()


LKOD_CATALOG = "https://lkod.example.cz/katalog"
LKOD_CATALOG_CAP = 20 * MB  # ckanext.passport.max_lkod_catalog_bytes' default


def read_lkod_catalog(data: bytes, url: str) -> Any:
    """The catalog's dataset IRIs as an ``lkod`` gather reads them, within the default catalog cap."""
    from ckanext.passport.lkod.documents import DocumentRefused, read_catalog

    try:
        return read_catalog(data, url, "application/ld+json", LKOD_CATALOG, limit=LKOD_CATALOG_CAP)
    except DocumentRefused as refused:
        return refused


def lkod_catalog(datasets: int, extra: list[dict]) -> bytes:
    """A catalog document listing ``datasets`` dataset IRIs, with ``extra`` nodes beside the catalog."""
    from ckanext.passport.lkod.context import CONTEXT_URL

    iris = [f"https://data.example.cz/lkod/datové-sady/{number:08d}-datová-sada" for number in range(datasets)]
    catalog = {"@context": CONTEXT_URL, "iri": LKOD_CATALOG, "typ": "Katalog", "název": {"cs": "Katalog"},
               "datová_sada": iris, **({"@graph": extra} if extra else {})}
    return json.dumps(catalog, ensure_ascii=False).encode()


def fixture(path: Path) -> Callable[[str], bytes]:
    return lambda _hits_url: path.read_bytes()


@dataclass(frozen=True)
class Case:
    name: str
    reader: Callable[[bytes, str], Any]
    url: str
    hostile: Callable[[str], bytes]
    baseline: Callable[[str], bytes]
    # False for a row that shows what a cap lets through (a valid document at the cap), not a seen class.
    targeted: bool = True


@dataclass(frozen=True)
class DripCase:
    """A fetch from a server that holds back one phase of its answer (``status``, ``headers``, ``chunks``)."""

    name: str
    phase: str


PAGE = REAL / "predgor" / "2618017120-politicaldivisions" / "index.php"
META_JSON = REAL / "predgor" / "2618017120-politicaldivisions" / "meta.json"
META_CSV = REAL / "rosstat-okved2" / "meta.csv"
STRUCTURE_JSON = REAL / "predgor" / "2618017120-politicaldivisions" / "structure-20160616T1515.json"
OPENDATALIST = DEMO / "opendatalist.csv"
TABLE_PAGE = ROOT / "tests" / "fixtures" / "mr-pages" / "two-column-utf8.html"
LKOD = LKOD_EXAMPLE / "datová-sada.jsonld"

CASES: list[Case | DripCase] = [
    Case("JSON-LD @import of a local server's context", read_lkod, "https://data.example.cz/katalog.jsonld",
         jsonld_import, fixture(LKOD)),
    Case("JSON-LD term/type-scoped context, file:///", read_lkod, "https://data.example.cz/katalog.jsonld",
         jsonld_scoped, fixture(LKOD)),
    Case("LKOD catalog at the cap, 280k IRIs (plain shape)", read_lkod_catalog, LKOD_CATALOG,
         lambda _: lkod_catalog(280_000, []), lambda _: lkod_catalog(100, []), targeted=False),
    Case("LKOD catalog at the cap, 280k IRIs (other shape)", read_lkod_catalog, LKOD_CATALOG,
         lambda _: lkod_catalog(280_000, [{"iri": "https://data.example.cz/x", "typ": "Datová sada"}]),
         lambda _: lkod_catalog(100, [{"iri": "https://data.example.cz/x", "typ": "Datová sada"}]), targeted=False),
    DripCase("fetch, status line one byte a second", "status"),
    DripCase("fetch, headers one byte a second", "headers"),
    DripCase("fetch, chunk sizes one byte a second", "chunks"),
    Case("<!DOCTYPE [][]…, 90 bytes", read_passport, f"{SITE}/a/", lambda _: doctype_bomb(40), fixture(PAGE)),
    Case("<!DOCTYPE [][]…, 200 bytes", read_passport, f"{SITE}/a/", lambda _: doctype_bomb(95), fixture(PAGE)),
    Case("<!DOCTYPE [][]…, 90 bytes, as a registry", read_registry, f"{SITE}/", lambda _: doctype_bomb(40),
         fixture(DEMO / "index.html")),
    Case("opendatalist.csv, 40 KB link and identifier", read_registry, f"{SITE}/opendatalist.csv",
         lambda _: long_link_registry(), fixture(OPENDATALIST)),
    Case("passport table, a 40 KB value", read_passport, f"{SITE}/a/", lambda _: long_cell_page(),
         fixture(TABLE_PAGE)),
    Case("20k attributes on one tag (200 KB)", read_passport, f"{SITE}/a/", lambda _: many_attributes(),
         fixture(PAGE)),
    Case("2 MB of 250-attribute tags (under the page cap)", read_passport, f"{SITE}/a/",
         lambda _: packed_page(CROWDED_SPAN, 2 * MB // len(CROWDED_SPAN) - 1), fixture(PAGE)),
    Case("300k small elements (under the page cap)", read_passport, f"{SITE}/a/",
         lambda _: packed_page("<b></b>", 290_000), fixture(PAGE)),
    Case("5k nested <div>", read_passport, f"{SITE}/a/", lambda _: nested("<div>", 5000), fixture(PAGE)),
    Case("3k nested tables", read_passport, f"{SITE}/a/", lambda _: nested("<table><tr><td>", 3000),
         fixture(PAGE)),
    Case("50 MB unterminated JSON string", read_passport, f"{SITE}/a/meta.json",
         lambda _: unterminated_json_string(), fixture(META_JSON)),
    Case("JSON nested 10,000 deep", read_passport, f"{SITE}/a/meta.json", lambda _: deep_json(10_000),
         fixture(META_JSON)),
    Case("structure JSON 1,000 deep", read_structure, f"{SITE}/a/structure.json",
         lambda _: deep_structure(1000), fixture(STRUCTURE_JSON)),
    Case("registry link http://[x/", read_registry, f"{SITE}/opendatalist.csv", lambda _: bad_url_registry(),
         fixture(OPENDATALIST)),
    Case("source encoding 'rot13' (a non-text codec)", read_with_codec("rot13"), f"{SITE}/a/meta.csv",
         fixture(META_CSV), fixture(META_CSV)),
    Case("source encoding 'zlib_codec'", read_with_codec("zlib_codec"), f"{SITE}/a/meta.csv",
         fixture(META_CSV), fixture(META_CSV)),
    Case("NUL and lone surrogate, corrected meta.json", read_and_correct, f"{SITE}/a/meta.json",
         lambda _: control_characters_passport(), fixture(META_JSON)),
    Case("meta.csv with 100k unknown rows", read_passport, f"{SITE}/a/meta.csv",
         lambda _: unknown_csv_rows(100_000), fixture(META_CSV)),
    Case("meta.csv with 20k unknown rows (under the cap)", read_passport, f"{SITE}/a/meta.csv",
         lambda _: unknown_csv_rows(20_000), fixture(META_CSV)),
    Case("one-line 50 MB opendatalist.csv", read_registry, f"{SITE}/opendatalist.csv",
         lambda _: one_line_opendatalist(), fixture(OPENDATALIST)),
    Case("5 MB HTML page", read_passport, f"{SITE}/a/", lambda _: large_html_page(), fixture(PAGE)),
]


# -- the local servers ----------------------------------------------------------------------------------------

class _Recording(BaseHTTPRequestHandler):
    hits: list[str] = []

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""

    def do_GET(self) -> None:
        self.hits.append(self.path)
        body = json.dumps({"@context": {"titul": "http://purl.org/dc/terms/title"}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/ld+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def recording_server() -> tuple[str, list[str]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recording)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", _Recording.hits


def drip_server(phase: str) -> str:
    """A server that answers one byte a second in ``phase`` and promptly elsewhere."""
    listener = socket.create_server(("127.0.0.1", 0))

    def answer(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            status, headers = b"HTTP/1.1 200 OK\r\n", b"Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            parts = [(status, phase == "status"), (headers, phase == "headers"),
                     (b"1" * 40 + b"\r\n", phase == "chunks")]
            try:
                for part, slow in parts:
                    for offset in range(0, len(part), 1 if slow else len(part)):
                        connection.sendall(part[offset:offset + (1 if slow else len(part))])
                        if slow:
                            time.sleep(1)
            except OSError:
                return

    def serve() -> None:
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/meta.csv"


def file_server(path: Path) -> str:
    body = path.read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/meta.csv"


# -- one side of one case, in a child process --------------------------------------------------------------

def outcome(result: Any) -> str:
    problems = list(getattr(result, "problems", None) or [])
    if getattr(result, "problem", None) is not None:
        problems.append(result.problem)
    codes = sorted({found.code for found in problems})
    shown = ", ".join(codes[:3]) + (f" +{len(codes) - 3}" if len(codes) > 3 else "")
    return f"{len(problems)} problems" + (f" ({shown})" if shown else "")


def child(index: int, side: str) -> dict[str, Any]:
    case = CASES[index]
    hits_url, hits = recording_server()
    if isinstance(case, DripCase):
        from ckanext.passport.mr.fetch import FetchPolicy, fetch

        policy = FetchPolicy(total_timeout=DRIP_DEADLINE, retries=0, allow_private_addresses=True)
        fetch(file_server(META_CSV), policy)
        url = drip_server(case.phase) if side == "hostile" else file_server(META_CSV)
        call: Callable[[], Any] = lambda: fetch(url, policy)
    else:
        case.reader(case.baseline(hits_url), case.url)
        data = (case.hostile if side == "hostile" else case.baseline)(hits_url)
        call = lambda: case.reader(data, case.url)
    before = memory_kib("VmRSS")
    reset_peak()
    started = time.perf_counter()
    try:
        shown = outcome(call())
    except BaseException as error:  # noqa: BLE001 (what escaped is the figure)
        shown = f"RAISED {type(error).__name__}"
    seconds = time.perf_counter() - started
    peak = (memory_kib("VmHWM") - before) / 1024
    if hits:
        shown += f"; {len(hits)} requests reached the local server"
    return {"seconds": seconds, "peak_mib": peak, "outcome": shown}


def run_child(index: int, side: str) -> dict[str, Any]:
    try:
        done = subprocess.run([sys.executable, __file__, "--child", str(index), side], capture_output=True,
                              text=True, timeout=CHILD_LIMIT)
    except subprocess.TimeoutExpired:
        return {"seconds": CHILD_LIMIT, "peak_mib": float("nan"), "outcome": f"KILLED after {CHILD_LIMIT:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"seconds": float("nan"), "peak_mib": float("nan"),
                "outcome": f"DIED (exit {done.returncode}) {done.stderr.strip().splitlines()[-1:]}"}
    return json.loads(lines[-1])


def verdict(case: Case | DripCase, hostile: dict[str, Any]) -> tuple[str, bool]:
    text = hostile["outcome"]
    if text.startswith(("RAISED", "KILLED", "DIED")) or "reached the local server" in text:
        return "no escape, no hang", False
    if isinstance(case, Case) and not case.targeted:
        return "(no target: a valid document at the cap)", True
    if isinstance(case, DripCase):
        limit = DRIP_DEADLINE + 0.5
        return f"<= {limit:.1f} s", hostile["seconds"] <= limit
    refused = hostile["seconds"] <= TARGET_REFUSED_SECONDS and not text.startswith("0 problems")
    bounded = hostile["seconds"] <= TARGET_SECONDS and hostile["peak_mib"] <= TARGET_MIB
    return f"<= {TARGET_SECONDS:.0f} s, {TARGET_MIB:.0f} MB", refused or bounded


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(child(int(sys.argv[2]), sys.argv[3])))
        return 0
    print(f"each side in a fresh process, killed after {CHILD_LIMIT:.0f} s; fetch deadline {DRIP_DEADLINE} s")
    print(f"{'class':<46}{'s':>8}{'MiB':>8}{'base s':>8}{'ratio':>9}  target / outcome")
    missed = targets = 0
    chosen = [(index, case) for index, case in enumerate(CASES)
              if not sys.argv[1:] or any(word in case.name for word in sys.argv[1:])]
    for index, case in chosen:
        hostile, baseline = run_child(index, "hostile"), run_child(index, "baseline")
        target, ok = verdict(case, hostile)
        missed += not ok
        targets += not isinstance(case, Case) or case.targeted
        ratio = hostile["seconds"] / baseline["seconds"] if baseline["seconds"] else float("nan")
        print(f"{case.name:<46}{hostile['seconds']:>8.2f}{hostile['peak_mib']:>8.0f}{baseline['seconds']:>8.3f}"
              f"{ratio:>9.1f}  {target} {'ok' if ok else 'MISSED'}: {hostile['outcome']}")
    print(f"{targets - missed} of {targets} classes within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
