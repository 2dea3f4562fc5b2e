"""What people meet (issue 24): the pages of the visitors', curators' and editors' journeys, over HTTP on a live
server, each against CKAN's dataset page of the same record.

- Two records built as bench_publish.py builds its datasets (``support.server.dataset``: MR resources with
  ``mr_version``…), published: one
  with 3 data versions, one with 43 (each with its structure version). For each, the p50 of the dataset page
  ``/dataset/<name>`` is the baseline; every other page is printed as a ratio to it (target <= 1.5): the dataset
  page in cs and ru and signed in, the edit form, the resource page, ``meta.csv``; and the pages of the site,
  measured once and printed as a ratio to each record's dataset page: the dataset search, ``/opendata/``,
  ``/lkod/``, ``/lkod/catalog``, the site check form, the review queue, a harvest source's Conformance tab (a
  source that harvested a generated 50-passport site, ``support.mr_site``'s) and the dataset form.
- The HTML of the 43-version record's page as a ratio to the 3-version record's, in en, cs and ru (target <= 1.5).
- The dataset form ``/dataset/new`` with a 7,000-concept EUROVOC loaded (``ckan passport vocab load`` of
  the synthetic SKOS file tests/catalog/test_vocab_search.py builds): its size (target <= 300 KiB) and its p50
  as a ratio to the p50 with the shipped 148 concepts (target <= 1.3). The server's ``vocab_dir`` is a temporary
  folder of this run, removed afterwards: the portal's vocabulary is left as it was.
- The page's height (<= 3,000 px at 1280 px wide) is held by the Playwright walk
  tests/e2e/test_browser_visitor_ru.py, not measured here.

Pages that need a signed-in user (edit, new, queue, Conformance tab, site check, the signed-in dataset page)
are requested with a sysadmin's API token. Each figure is the median of up to ``BENCH_PAGES_SAMPLES`` requests
(30) after two warm-up requests, at most ``BENCH_PAGES_BUDGET`` seconds (20) of requests per page, 5 at least.
The server is ``support.server``'s (werkzeug in a child process), with the shipped review scope (``full``: only
published records are public). The records, the submitted records of the review queue and the harvest source
are created when missing and kept between runs. Database and Solr core are test.ini's unless
CKAN_SQLALCHEMY_URL / CKAN_SITE_ID / CKAN_SOLR_URL say otherwise. It is a benchmark, not a test: it prints a
table and exits 0 whatever the figures. Run from the repository root: `.venv/bin/python bench/bench_pages.py`.
"""
from __future__ import annotations

import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Optional

import requests

from support import INI, ROOT
from support.conformance_tab import sysadmin_token
from support.harvest import passport_harvester, run_job
from support.mr_site import build_site
from support.server import configured, start_server
from support.server import dataset as publish_dataset

ORGANIZATION = "bench-pages"
HARVEST_ORGANIZATION = "bench-pages-harvest"
SOURCE = "bench-pages-source"
VERSIONS = (3, 43)
QUEUED = 20  # submitted records, so that the review queue lists something
SITE_PASSPORTS = 50
LOADED_CONCEPTS = 7000
SAMPLES = int(os.environ.get("BENCH_PAGES_SAMPLES", "30"))
BUDGET = float(os.environ.get("BENCH_PAGES_BUDGET", "20"))
TARGET_PAGE = 1.5
TARGET_HTML = 1.5
TARGET_FORM_TIME = 1.3
TARGET_FORM_KIB = 300


def options(vocab_dir: Path) -> dict[str, str]:
    return {
        "ckanext.passport.review_scope": "full",
        "ckanext.passport.initial_states": "submitted published",
        "ckanext.passport.vocab_dir": str(vocab_dir),
    }


def name(versions: int) -> str:
    return f"bench-pages-{versions}"


def identifier(versions: int) -> str:
    return f"7712345678-pages{versions:03d}"


def record(versions: int, owner_org: str) -> dict:
    """``support.server``'s dataset with ``versions`` data versions (newest first) and its structure version."""
    dataset = publish_dataset(0, owner_org)
    data, structure = dataset["resources"]
    first = datetime(2021, 1, 1)
    resources = []
    for number in reversed(range(versions)):
        day = first + timedelta(days=30 * number)
        resources.append({**data, "url": f"https://files.example.com/pages/{versions}/data-{number}.csv",
                          "name": f"Data {day:%Y-%m-%d}", "mr_version": f"{day:%Y%m%d}T0000",
                          "mr_created": f"{day:%Y-%m-%d}"})
    dataset.update(name=name(versions), mr_identifier=identifier(versions), title=f"Набор данных, {versions} версий",
                   editorial_state="published", resources=[*resources, structure])
    return dataset


def queued(number: int, owner_org: str) -> dict:
    dataset = publish_dataset(number, owner_org)
    dataset.update(name=f"bench-pages-queue-{number:02d}", mr_identifier=f"7712345678-pagesq{number:02d}",
                   editorial_state="submitted")
    return dataset


def app_context(vocab_dir: Path) -> Any:
    from ckan.config.middleware import make_app

    app = make_app(configured(None, options(vocab_dir)))
    for logger in ("ckan", "ckanext"):  # the harvest logs every dataset; the output is the figures
        logging.getLogger(logger).setLevel(logging.ERROR)
    return app._wsgi_app.test_request_context()


def organization(context: Any, organization_name: str) -> str:
    from ckan.plugins import toolkit as tk

    try:
        return tk.get_action("organization_show")(context(), {"id": organization_name})["id"]
    except tk.ObjectNotFound:
        return tk.get_action("organization_create")(context(), {"name": organization_name})["id"]


def ensure_records(context: Any) -> dict[int, dict]:
    """The two records and the review queue's records, created when missing; returns the two as package_show."""
    from ckan.lib.search import commit
    from ckan.plugins import toolkit as tk

    owner = organization(context, ORGANIZATION)
    existing = set(tk.get_action("package_list")(context(), {}))
    for versions in VERSIONS:
        if name(versions) not in existing:
            tk.get_action("package_create")(context(), record(versions, owner))
    for number in range(QUEUED):
        if f"bench-pages-queue-{number:02d}" not in existing:
            tk.get_action("package_create")(context(), queued(number, owner))
    commit()
    return {versions: tk.get_action("package_show")(context(), {"id": name(versions)}) for versions in VERSIONS}


def ensure_source(context: Any) -> tuple[Optional[str], str]:
    """The harvest source whose Conformance tab is measured, with one finished job of a generated site; its name
    and what was done to have it."""
    from ckan.plugins import toolkit as tk

    from ckanext.passport.conformance.harvest.report import last_finished_job
    from tests.support.http_site import Site as HttpSite

    try:
        source = tk.get_action("harvest_source_show")(context(), {"id": SOURCE})
    except tk.ObjectNotFound:
        source = None
    if source is not None and last_finished_job(source["id"]) is not None:
        return SOURCE, "kept from an earlier run"
    with tempfile.TemporaryDirectory(prefix="bench-pages-site-") as folder:
        # Identifiers of their own: bench_harvest's records, left in the database before this runs, hold its series'.
        build_site(Path(folder), SITE_PASSPORTS, series="pages")
        site = HttpSite(Path(folder)).start()
        try:
            url = f"{site.url}/opendata/list.csv"
            fields = {"url": url, "config": f'{{"allow_private_addresses": true, "registry_url": "{url}"}}'}
            if source is None:
                source = tk.get_action("harvest_source_create")(context(), {
                    "name": SOURCE, "title": "Bench pages", "source_type": "passport",
                    "owner_org": organization(context, HARVEST_ORGANIZATION), **fields})
            else:
                source = tk.get_action("harvest_source_patch")(context(), {"id": source["id"], **fields})
            started = time.perf_counter()
            job = run_job(source["id"], passport_harvester())
        finally:
            site.stop()
    if last_finished_job(source["id"]) is None:
        return None, f"its harvest did not finish: {job['statuses']} {job['errors']}"
    return SOURCE, f"{SITE_PASSPORTS} passports harvested in {time.perf_counter() - started:.0f} s ({job['statuses']})"


def catalog_size(context: Any) -> int:
    from ckan.plugins import toolkit as tk

    return tk.get_action("package_search")(context(), {"rows": 0, "include_private": True})["count"]


def prepare(vocab_dir: Path) -> dict[str, Any]:
    from ckan.plugins import toolkit as tk

    with app_context(vocab_dir):
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": user, "ignore_auth": True}  # noqa: E731 (a fresh context per call)
        records = ensure_records(context)
        source, source_note = ensure_source(context)
        return {"records": records, "token": sysadmin_token(), "source": source, "source_note": source_note,
                "datasets": catalog_size(context)}


def get(session: requests.Session, url: str, token: Optional[str] = None) -> requests.Response:
    response = session.get(url, headers={"Authorization": token} if token else {}, timeout=600,
                           allow_redirects=False)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    return response


Request = tuple[str, Optional[str], Optional[Callable[[], None]]]  # url, API token, what to do first (untimed)


def in_turn(session: requests.Session, pages: list[Request]) -> list[tuple[float, int]]:
    """Each page requested in turn, round after round, so that a page and its baseline share the machine's load
    (other processes, Solr, PostgreSQL): two warm-up rounds, then up to SAMPLES rounds, at most BUDGET seconds of
    them (5 at least). Each page's median seconds and its size in bytes."""
    def request(url: str, token: Optional[str], first: Optional[Callable[[], None]]) -> tuple[float, int]:
        if first is not None:
            first()
        started = time.perf_counter()
        size = len(get(session, url, token).content)
        return time.perf_counter() - started, size

    for _ in range(2):
        sizes = [request(*page)[1] for page in pages]
    timings: list[list[float]] = [[] for _ in pages]
    spent = time.perf_counter()
    while len(timings[0]) < SAMPLES and (len(timings[0]) < 5 or time.perf_counter() - spent < BUDGET):
        for page, samples in zip(pages, timings):
            samples.append(request(*page)[0])
    return [(statistics.median(samples), size) for samples, size in zip(timings, sizes)]


def load_eurovoc(vocab_dir: Path) -> str:
    """``ckan passport vocab load`` of a synthetic 7,000-concept EUROVOC into ``vocab_dir``; the command's output."""
    from tests.support.eurovoc import synthetic_eurovoc

    with tempfile.TemporaryDirectory(prefix="bench-pages-eurovoc-") as folder:
        skos = synthetic_eurovoc(Path(folder) / "eurovoc.rdf", LOADED_CONCEPTS)
        ini = Path(folder) / "vocab.ini"
        # test.ini with the server's vocab_dir; CKAN's command reads its logging sections from the file it is given.
        ini.write_text(f"[app:main]\nuse = config:{INI}\nckanext.passport.vocab_dir = {vocab_dir}\n"
                       "[loggers]\nkeys = root\n[handlers]\nkeys = console\n[formatters]\nkeys = generic\n"
                       "[logger_root]\nlevel = WARNING\nhandlers = console\n[handler_console]\n"
                       "class = StreamHandler\nargs = (sys.stderr,)\nformatter = generic\n"
                       "[formatter_generic]\nformat = %(levelname)s %(message)s\n")
        loaded = subprocess.run([str(Path(sys.executable).parent / "ckan"), "-c", str(ini), "passport", "vocab",
                                 "load", str(skos)], cwd=ROOT, env=os.environ, capture_output=True, text=True)
    if loaded.returncode != 0:
        raise RuntimeError(f"vocab load failed: {loaded.stderr[-2000:]}")
    return loaded.stdout.strip().splitlines()[-1]


def verdict(ok: bool) -> str:
    return "OK" if ok else "OVER TARGET"


def main() -> int:
    vocab_dir = Path(tempfile.mkdtemp(prefix="bench-pages-vocab-"))
    try:
        return run(vocab_dir)
    finally:
        shutil.rmtree(vocab_dir, ignore_errors=True)


def run(vocab_dir: Path) -> int:
    print("ensuring the records (3 and 43 data versions), the review queue and a harvested source…", flush=True)
    prepared = prepare(vocab_dir)
    records, token = prepared["records"], prepared["token"]
    server, base = start_server(options(vocab_dir))
    session = requests.Session()
    try:
        baseline_pages: list[Request] = [(f"{base}/dataset/{records[v]['name']}", None, None) for v in VERSIONS]
        baselines: dict[int, list[float]] = {versions: [] for versions in VERSIONS}
        sizes: dict[tuple[int, str], int] = {}
        # Each row: its page's p50 and its baseline's, measured in turn, for each record.
        rows: list[tuple[str, dict[int, tuple[float, float]], Optional[str]]] = []
        per_record = [
            ("dataset page, en (the baseline itself)", "/dataset/{name}", None),
            ("dataset page, cs", "/cs/dataset/{name}", None),
            ("dataset page, ru", "/ru/dataset/{name}", None),
            ("dataset page, signed in (sysadmin)", "/dataset/{name}", token),
            ("edit form /dataset/edit/<name>", "/dataset/edit/{name}", token),
            ("resource page (newest data version)", "/dataset/{name}/resource/{resource}", None),
            ("/opendata/<identifier>/meta.csv", "/opendata/{identifier}/meta.csv", None),
        ]
        for label, path, user in per_record:
            times = {}
            for versions, baseline_page in zip(VERSIONS, baseline_pages):
                dataset = records[versions]
                url = base + path.format(name=dataset["name"], identifier=dataset["mr_identifier"],
                                         resource=dataset["resources"][0]["id"])
                (seconds, size), (baseline, _) = in_turn(session, [(url, user, None), baseline_page])
                times[versions] = (seconds, baseline)
                baselines[versions].append(baseline)
                if label.startswith("dataset page, ") and "signed" not in label:
                    sizes[versions, label[len("dataset page, "):][:2]] = size
            rows.append((label, times, None))
        site_pages = [
            ("dataset search /dataset/", "/dataset/", None),
            ("/opendata/", "/opendata/", None),
            ("/lkod/", "/lkod/", None),
            ("/lkod/catalog", "/lkod/catalog", None),
            ("site check form /passport/check", "/passport/check", token),
            ("review queue /passport/queue", "/passport/queue", token),
        ]
        if prepared["source"]:
            site_pages.append(("Conformance tab /harvest/<source>/conformance",
                               f"/harvest/{prepared['source']}/conformance", token))
        site_pages.append(("dataset form /dataset/new", "/dataset/new", token))
        for label, path, user in site_pages:
            (seconds, _), *measured = in_turn(session, [(base + path, user, None), *baseline_pages])
            rows.append((label, {versions: (seconds, baseline)
                                 for versions, (baseline, _) in zip(VERSIONS, measured)}, None))
            for versions, (baseline, _) in zip(VERSIONS, measured):
                baselines[versions].append(baseline)
        if not prepared["source"]:
            rows.append(("Conformance tab", {}, prepared["source_note"]))

        # The form with the shipped EUROVOC and with the loaded one, in turn: the loaded file put aside and back
        # (its modification time kept, so the server keeps the vocabulary it read once, as a running portal does).
        load_note = load_eurovoc(vocab_dir)
        loaded, aside = vocab_dir / "eurovoc-loaded.json", vocab_dir / "eurovoc-put-aside.json"
        form = f"{base}/dataset/new"
        (form_shipped, form_shipped_size), (form_loaded, form_loaded_size) = in_turn(session, [
            (form, token, lambda: os.replace(loaded, aside)), (form, token, lambda: os.replace(aside, loaded))])
        shutil.rmtree(vocab_dir)
        restored = len(get(session, form, token).content)
    finally:
        server.terminate()
        server.wait(timeout=30)

    small, large = VERSIONS
    print(f"catalog: {prepared['datasets']} datasets in the index; harvest source: {prepared['source_note']}")
    print(f"each page requested in turn with each record's dataset page /dataset/<name> (its baseline), up to "
          f"{SAMPLES} rounds, at most {BUDGET:.0f} s of them: p50s and their ratio; signed-in pages with a "
          "sysadmin's API token")
    print()
    print(f"{'page':<48}{f'{small} versions':>17}{f'{large} versions':>17}   target")
    print(f"{'':<48}{'ms':>9}{'ratio':>8}{'ms':>9}{'ratio':>8}")
    print(f"{'baseline /dataset/<name>, median of its p50s':<48}{statistics.median(baselines[small]) * 1000:>9.1f}"
          f"{'':>8}{statistics.median(baselines[large]) * 1000:>9.1f}")
    misses = []
    for label, times, note in rows:
        if note is not None:
            print(f"{label:<48}not measured: {note}")
            continue
        ratios = {versions: seconds / baseline for versions, (seconds, baseline) in times.items()}
        ok = all(ratio <= TARGET_PAGE for ratio in ratios.values())
        if not ok:
            misses.append(label)
        print(f"{label:<48}{times[small][0] * 1000:>9.1f}{ratios[small]:>8.2f}{times[large][0] * 1000:>9.1f}"
              f"{ratios[large]:>8.2f}   <= {TARGET_PAGE} {verdict(ok)}")
    print("(the site's pages, from the dataset search down, are one page as a ratio to each record's dataset page)")
    print()
    print(f"HTML of the {large}-version record's dataset page as a ratio to the {small}-version record's:")
    for language in ("en", "cs", "ru"):
        ratio = sizes[large, language] / sizes[small, language]
        ok = ratio <= TARGET_HTML
        if not ok:
            misses.append(f"HTML size, {language}")
        print(f"  {language}: {sizes[large, language] / 1024:.1f} KiB / {sizes[small, language] / 1024:.1f} KiB, "
              f"ratio {ratio:.2f} (target <= {TARGET_HTML}) {verdict(ok)}")
    print("page height (<= 3,000 px at 1280 px wide): held by the Playwright walk "
          "tests/e2e/test_browser_visitor_ru.py (its 43-resource record in ru), not measured here")
    print()
    time_ratio = form_loaded / form_shipped
    size_ok, time_ok = form_loaded_size <= TARGET_FORM_KIB * 1024, time_ratio <= TARGET_FORM_TIME
    misses += [what for what, ok in (("form size", size_ok), ("form time", time_ok)) if not ok]
    print(f"dataset form /dataset/new with a {LOADED_CONCEPTS:,}-concept EUROVOC loaded ({load_note.split(' into ')[0]}):")
    print(f"  shipped EUROVOC: {form_shipped_size / 1024:.1f} KiB, {form_shipped * 1000:.1f} ms")
    print(f"  loaded: {form_loaded_size / 1024:.1f} KiB (target <= {TARGET_FORM_KIB} KiB) {verdict(size_ok)}; "
          f"{form_loaded * 1000:.1f} ms, ratio {time_ratio:.2f} (target <= {TARGET_FORM_TIME}) {verdict(time_ok)}")
    print(f"  the loaded vocabulary removed afterwards: the form is {restored / 1024:.1f} KiB again")
    print()
    print("over target: " + (", ".join(misses) if misses else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
