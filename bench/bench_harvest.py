"""Harvesting MR sites with the ``passport`` harvester, against ckanext-dcat's RDF harvester, at two sizes and
through both queue backends.

Run from the repository root: ``.venv/bin/python bench/bench_harvest.py`` (``make bench`` starts the services).

1. First harvest of a 1,000-passport site, datasets per second, as a ratio to the floor: CKAN's own write path,
   the very dataset dicts that harvest gave ``package_create`` written again by bare ``package_create`` calls in
   one process (same schema, plugins, context and site config; the index committed as our default
   ``index_commit: "soft"`` commits it, one soft commit per dataset; target >= 0.85). Beside it, as a ratio to
   ckanext-dcat's ``dcat_rdf`` harvester landing the same 1,000 datasets (same titles, descriptions, publishers,
   keywords and resources) from one Turtle catalog (no target: both pay the floor). Both harvests run with the
   site's ``ckan.search.solr_commit`` on (CKAN's default),
   printed beside the figure with what each harvester does with it: dcat_rdf gets CKAN's indexing (two index
   passes and two hard commits per new dataset, before the database commit); ours its default ``index_commit:
   "soft"`` (one index pass after the database commit, one soft commit). Ours with ``index_commit: "hard"`` (the
   same with one hard commit) is printed too, without a target.
2. Re-harvest of the unchanged site: wall time as a ratio to the first harvest (target <= 0.2).
3. Peak memory (``VmHWM``) of the process running the fetch and import stages over the objects, in MiB.
4. The same first harvest through real queue consumers (one ``gather-consumer`` and two ``fetch-consumer``
   processes, as a portal runs them) on Redis and on RabbitMQ: datasets per second from the job's creation to
   its end, RabbitMQ's as a ratio to Redis's (no target: both must land every dataset).
5. A site the size of fedstat's registry (``BENCH_HARVEST_LARGE``, 6,692 passports, the same six forms mixed):
   first harvest end to end (gather, fetch, import) in time per dataset as a ratio to the 1,000-passport run's
   (target <= 1.1), peak memory as a ratio to that run's (target <= 1.2), and the unchanged re-harvest as a ratio
   to its own first harvest (target <= 0.04); then its Conformance tab after that re-harvest
   (``support.conformance_tab``): p50 of one view (target <= 1 s) as a ratio to the 1,000-passport source's tab,
   and the heap peak of one view as a ratio to that tab's (target <= 1.2: one page of passports each).

The sites (``support.mr_site``) are generated in a temporary folder: one sixth each of ``meta.json``, ``meta.xml``,
``meta.csv`` (UTF-8), ``meta.csv`` in Windows-1251, MR 2.3 three-column CSV and RDFa pages, written by the project's
own MR writers (the MR 2.3 CSV and the RDFa page from small templates), with a ``list.csv`` registry. They are
served by the suite's real HTTP server (``tests/support/http_site.py``: Last-Modified, 304 on If-Modified-Since).

Each in-process harvest runs in a fresh child process (``--run``) that calls the harvest stages the way
``ckanext.harvest.tests.lib.run_harvest_job`` does (gather, then fetch + import per object, then
``harvest_jobs_run``), so each process's memory is its own: it does what ``ckan harvester gather-consumer`` and
``fetch-consumer`` would do for one job. All harvesters run with the same plugins, site config, database
``ckan_bench`` (emptied before each first harvest) and Solr core (this site id's documents cleared); times
exclude process start and setup.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Optional

from support import ROOT
from support.conformance_tab import conformance_tab
from support.database import DATABASE, bench_env, empty_database, ensure_database
from support.harvest import (
    FETCH_CONSUMERS,
    configured,
    create_source,
    dcat_harvester,
    landed,
    passport_harvester,
    run_job,
    through_consumers,
)
from support.measure import memory_kib, reset_peak
from support.mr_site import DATASETS, FILES_HOST, Site, build_site

from ckanext.passport.mr.model import Passport

LARGE = int(os.environ.get("BENCH_HARVEST_LARGE", "6692"))  # fedstat's registry; 0 skips the large site
TARGET_FLOOR = 0.85  # ours / package_create floor, datasets per second: at least
TARGET_REHARVEST = 0.2  # re-harvest / first harvest, wall time: at most
TARGET_LARGE_TIME = 1.1  # large site / 1,000 site, seconds per dataset: at most
TARGET_LARGE_MEMORY = 1.2  # large site / 1,000 site, peak RSS: at most
TARGET_LARGE_REHARVEST = 0.04  # large site re-harvest / its first harvest: at most (one conditional request each)
TARGET_LARGE_TAB = 1.0  # the large source's Conformance tab, p50 of one view in seconds: at most
TARGET_LARGE_TAB_MEMORY = 1.2  # the heap peak of one view of that tab / the 1,000 site's: at most (one page each)
COMMITS = {  # what each run does with the site's ckan.search.solr_commit = true
    "dcat": "CKAN's: 2 index passes, 2 hard commits per new dataset",
    "passport": "index_commit=soft: 1 index pass after the database commit, 1 soft commit",
    "passport-hard": "index_commit=hard: 1 index pass after the database commit, 1 hard commit",
}
# Where the 1,000-passport first harvest writes the dicts it gave package_create, for the floor's run.
FLOOR_DICTS = "BENCH_FLOOR_DICTS"


# -- the same datasets as one DCAT catalog ------------------------------------------------------------------

def dcat_catalog(passports: list[Passport], path: Path) -> int:
    """One dcat:Dataset per passport; one dcat:Distribution per data version and per structure version, so
    both harvesters land the same number of resources. Returns the number of distributions."""
    from rdflib import BNode, Graph, Literal, Namespace, URIRef
    from rdflib.namespace import DCAT, DCTERMS, FOAF, RDF, XSD

    vcard = Namespace("http://www.w3.org/2006/vcard/ns#")
    graph = Graph()
    graph.bind("dcat", DCAT), graph.bind("dct", DCTERMS), graph.bind("foaf", FOAF), graph.bind("vcard", vcard)
    catalog = URIRef(f"{FILES_HOST}/catalog")
    graph.add((catalog, RDF.type, DCAT.Catalog))
    graph.add((catalog, DCTERMS.title, Literal("Bench MR site", lang="ru")))
    distributions = 0
    for passport in passports:
        dataset = URIRef(f"{FILES_HOST}/opendata/{passport.identifier}")
        graph.add((catalog, DCAT.dataset, dataset))
        graph.add((dataset, RDF.type, DCAT.Dataset))
        graph.add((dataset, DCTERMS.identifier, Literal(passport.identifier)))
        graph.add((dataset, DCTERMS.title, Literal(passport.title)))
        graph.add((dataset, DCTERMS.description, Literal(passport.description)))
        graph.add((dataset, DCTERMS.issued, Literal(passport.created.value.isoformat(), datatype=XSD.date)))
        graph.add((dataset, DCTERMS.modified, Literal(passport.modified.value.isoformat(), datatype=XSD.date)))
        publisher = BNode()
        graph.add((dataset, DCTERMS.publisher, publisher))
        graph.add((publisher, RDF.type, FOAF.Organization))
        graph.add((publisher, FOAF.name, Literal(passport.creator)))
        contact = BNode()
        graph.add((dataset, DCAT.contactPoint, contact))
        graph.add((contact, RDF.type, vcard.Kind))
        graph.add((contact, vcard.fn, Literal(passport.publisher.name)))
        graph.add((contact, vcard.hasEmail, URIRef(f"mailto:{passport.publisher.mbox}")))
        for keyword in passport.subject:
            graph.add((dataset, DCAT.keyword, Literal(keyword)))
        files = [(v.source, f"data-{v.version}-structure-{v.structure_version}", v.created) for v in passport.data_versions]
        files += [(s.source, f"structure-{s.version}", s.created) for s in passport.structure_versions]
        for source, name, created in files:
            distribution = URIRef(source)
            graph.add((dataset, DCAT.distribution, distribution))
            graph.add((distribution, RDF.type, DCAT.Distribution))
            graph.add((distribution, DCTERMS.title, Literal(name)))
            graph.add((distribution, DCAT.accessURL, URIRef(source)))
            graph.add((distribution, DCAT.downloadURL, URIRef(source)))
            graph.add((distribution, DCTERMS.format, Literal("CSV")))
            if created is not None and created.value is not None:
                day = created.value.date() if isinstance(created.value, datetime) else created.value
                graph.add((distribution, DCTERMS.issued, Literal(day.isoformat(), datatype=XSD.date)))
            distributions += 1
    graph.serialize(destination=str(path), format="turtle")
    return distributions


# -- one harvest job, in a child process --------------------------------------------------------------------

@contextmanager
def lenient_validation(active: bool) -> Iterator[None]:
    from ckanext.passport.catalog.record import validators

    original = validators.harvesting
    if active:
        validators.harvesting = lambda context: True
    try:
        yield
    finally:
        validators.harvesting = original


@contextmanager
def created_dicts(path: Optional[str]) -> Iterator[None]:
    """Inside the block every dict the harvest gives ``package_create`` is written to ``path``, a JSON line each,
    as it was given (less the id the harvest makes), with the harvest's context less its user; nothing without a
    path. Written as they come, not kept, so the run's peak memory stays its own."""
    if not path:
        yield
        return
    import copy

    from ckanext.passport.harvest import records

    create_record = records.create_record
    with open(path, "w", encoding="utf-8") as lines:

        def writing(harvested: dict, harvest_object: Any, previous: Any, config: Any, context: dict) -> None:
            given = copy.deepcopy(harvested)
            create_record(harvested, harvest_object, previous, config, context)  # sets the new record's state
            given["editorial_state"] = harvested.get("editorial_state")
            flags = {key: value for key, value in context.items() if key != "user"}
            lines.write(json.dumps({"context": flags, "dataset": given}, ensure_ascii=False, default=str) + "\n")

        records.create_record = writing
        try:
            yield
        finally:
            records.create_record = create_record


def child(kind: str, url: str) -> dict[str, Any]:
    """Harvest ``url`` in this process: first harvest, then (ours) the re-harvest of the unchanged site."""
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    app = make_app(configured())
    with app._wsgi_app.test_request_context():
        clear_all()
        source_id = create_source(kind, url)
        harvester = dcat_harvester() if kind == "dcat" else passport_harvester()
        before = memory_kib("VmRSS")
        reset_peak()
        with lenient_validation(kind == "dcat"), created_dicts(os.environ.get(FLOOR_DICTS)):
            result: dict[str, Any] = {"first": run_job(source_id, harvester)}
            result["peak_kib"], result["before_kib"] = memory_kib("VmHWM"), before
            result["landed"] = landed()
            if kind == "passport":
                result["again"] = run_job(source_id, harvester)
                result["tab"] = conformance_tab(app, source_id)
    return result


def consumers_child(broker: str, url: str) -> dict[str, Any]:
    """Harvest ``url`` through real consumer processes on ``broker`` (:func:`through_consumers`)."""
    from tests.support.brokers import BROKERS
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    config = configured()
    config.update(BROKERS[broker])
    app = make_app(config)
    with app._wsgi_app.test_request_context():
        clear_all()
        return {**through_consumers(create_source("passport", url), broker), "landed": landed()}


def floor_child(path: str) -> dict[str, Any]:
    """The floor: the dicts of ``path`` (what the first harvest gave ``package_create``) written again by bare
    ``package_create`` calls, each in the harvest's own context, into an organization of their own; the index committed
    as the harvest's default ``index_commit: "soft"`` does (CKAN's index pass without its commit, then one soft
    commit per dataset)."""
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all
    from ckan.lib.search.common import make_connection

    app = make_app(configured())
    tk.config["ckan.search.solr_commit"] = False
    with app._wsgi_app.test_request_context():
        clear_all()
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        owner = tk.get_action("organization_create")({"user": user, "ignore_auth": True}, {"name": "bench-floor"})
        with open(path, encoding="utf-8") as lines:
            created = [json.loads(line) for line in lines]
        solr = make_connection()
        started = time.perf_counter()
        for given in created:
            tk.get_action("package_create")({**given["context"], "user": user, "return_id_only": True},
                                            {**given["dataset"], "owner_org": owner["id"]})
            solr.commit(softCommit=True)
        seconds = time.perf_counter() - started
        return {"first": {"seconds": seconds}, "landed": landed()}


def run_child(kind: str, url: str, env: Optional[dict[str, str]] = None) -> dict[str, Any]:
    empty_database()
    mode = {"redis": "--consumers", "amqp": "--consumers", "floor": "--floor"}.get(kind, "--run")
    process = subprocess.run([sys.executable, __file__, mode, kind, url], cwd=ROOT,
                             env={**bench_env(), **(env or {})}, capture_output=True, text=True)
    if process.returncode != 0:
        raise RuntimeError(f"the {kind} harvest failed:\n{process.stderr[-5000:]}")
    return json.loads(process.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------------------------------

def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def rate(side: dict[str, Any]) -> float:
    return side["landed"]["datasets"] / side["first"]["seconds"]


def row(name: str, ours: float, baseline: float, ratio: Optional[float] = None, target: str = "",
        ok: bool = True, digits: int = 1) -> None:
    ratio_text = f"{ratio:>8.2f}" if ratio is not None else " " * 8
    verdict_text = f"  {target}  {verdict(ok)}" if target else ("  (no target)" if ratio is not None else "")
    print(f"{name:<52}{ours:>12.{digits}f}{baseline:>12.{digits}f}{ratio_text}{verdict_text}")


def report(site: Site, distributions: int, runs: dict[str, dict[str, Any]], large: Optional[Site]) -> None:
    ours, dcat, hard = runs["passport"], runs["dcat"], runs["passport-hard"]
    first, again = ours["first"], ours["again"]
    print(f"site: {DATASETS} passports, " + ", ".join(f"{n} {form}" for form, n in site.forms.items()))
    print(f"DCAT catalog: {DATASETS} dcat:Dataset, {distributions} dcat:Distribution (Turtle)")
    print("site config for every run: ckan.search.solr_commit = true (CKAN's default)")
    for kind, name in (("passport", "passport"), ("dcat", "dcat_rdf"), ("passport-hard", "passport hard")):
        side = runs[kind]
        print(f"  {name:<14} landed {side['landed']['datasets']} datasets, {side['landed']['resources']} resources;"
              f" objects {side['first']['statuses']}; commits: {COMMITS[kind]}")
    print(f"  passport re-harvest objects {again['statuses']}")
    print(f"  floor          wrote {runs['floor']['landed']['datasets']} datasets, "
          f"{runs['floor']['landed']['resources']} resources by bare package_create (one soft commit each)")
    for broker in ("redis", "amqp"):
        side = runs[broker]
        print(f"  consumers on {broker:<6} landed {side['landed']['datasets']} datasets, "
              f"{side['landed']['resources']} resources (1 gather, {FETCH_CONSUMERS} fetch consumers)")
    for name, job in (("passport", first), ("dcat_rdf", dcat["first"]), ("passport re-harvest", again)):
        for message in job["errors"]:
            print(f"  {name} object error: {message}")
    print()
    print(f"{'figure':<52}{'ours':>12}{'baseline':>12}{'ratio':>8}  target")
    floor = runs["floor"]
    speed = rate(ours) / rate(floor)
    row("first harvest, datasets/s (vs package_create floor)", rate(ours), rate(floor), speed,
        f">= {TARGET_FLOOR}", speed >= TARGET_FLOOR)
    row("first harvest, datasets/s (vs dcat_rdf)", rate(ours), rate(dcat), rate(ours) / rate(dcat))
    row("  with index_commit=hard (one hard commit)", rate(hard), rate(dcat), rate(hard) / rate(dcat))
    print(f"{'  wall time, s (gather part)':<52}{first['seconds']:>6.1f} ({first['gather_seconds']:>3.1f})"
          f"{dcat['first']['seconds']:>6.1f} ({dcat['first']['gather_seconds']:>3.1f})")
    reharvest = again["seconds"] / first["seconds"]
    row("re-harvest unchanged, s (vs our first)", again["seconds"], first["seconds"], reharvest,
        f"<= {TARGET_REHARVEST}", reharvest <= TARGET_REHARVEST)
    print(f"{'  re-harvest gather part, s':<52}{again['gather_seconds']:>12.1f}")
    row("harvest process peak RSS (VmHWM), MiB", ours["peak_kib"] / 1024, dcat["peak_kib"] / 1024,
        ours["peak_kib"] / dcat["peak_kib"])
    print(f"{'  growth over RSS before the job, MiB':<52}{(ours['peak_kib'] - ours['before_kib']) / 1024:>12.1f}"
          f"{(dcat['peak_kib'] - dcat['before_kib']) / 1024:>12.1f}")
    redis, amqp = runs["redis"], runs["amqp"]
    redis_rate, amqp_rate = (side["landed"]["datasets"] / side["seconds"] for side in (redis, amqp))
    row(f"consumers (1+{FETCH_CONSUMERS}), datasets/s: RabbitMQ (vs Redis)", amqp_rate, redis_rate,
        amqp_rate / redis_rate)
    row("  vs in-process first harvest (Redis / ours)", redis_rate, rate(ours), redis_rate / rate(ours))
    row("  fetch consumer peak RSS, MiB: RabbitMQ (vs Redis)", amqp["peak_kib"] / 1024, redis["peak_kib"] / 1024,
        amqp["peak_kib"] / redis["peak_kib"])
    if large is None:
        return
    big = runs["large"]
    print()
    print(f"large site: {LARGE} passports, " + ", ".join(f"{n} {form}" for form, n in large.forms.items()))
    print(f"  passport landed {big['landed']['datasets']} datasets, {big['landed']['resources']} resources;"
          f" objects {big['first']['statuses']}; re-harvest objects {big['again']['statuses']}")
    for message in big["first"]["errors"] + big["again"]["errors"]:
        print(f"  large site object error: {message}")
    per_dataset = big["first"]["seconds"] / big["landed"]["datasets"] * 1000
    baseline = first["seconds"] / ours["landed"]["datasets"] * 1000
    row(f"{LARGE} first harvest, ms/dataset (vs {DATASETS})", per_dataset, baseline, per_dataset / baseline,
        f"<= {TARGET_LARGE_TIME}", per_dataset / baseline <= TARGET_LARGE_TIME)
    print(f"{'  wall time, s (gather part)':<52}{big['first']['seconds']:>6.1f} ({big['first']['gather_seconds']:>3.1f})")
    memory = big["peak_kib"] / ours["peak_kib"]
    row(f"  peak RSS, MiB (vs {DATASETS})", big["peak_kib"] / 1024, ours["peak_kib"] / 1024, memory,
        f"<= {TARGET_LARGE_MEMORY}", memory <= TARGET_LARGE_MEMORY)
    reharvest = big["again"]["seconds"] / big["first"]["seconds"]
    row(f"{LARGE} re-harvest unchanged, s (vs its first)", big["again"]["seconds"], big["first"]["seconds"],
        reharvest, f"<= {TARGET_LARGE_REHARVEST}", reharvest <= TARGET_LARGE_REHARVEST)
    tab, small_tab = big["tab"], ours["tab"]
    row(f"{LARGE} Conformance tab, p50 view, s (vs {DATASETS})", tab["p50"], small_tab["p50"],
        tab["p50"] / small_tab["p50"], f"p50 <= {TARGET_LARGE_TAB:g} s", tab["p50"] <= TARGET_LARGE_TAB, digits=3)
    heap = tab["peak"] / small_tab["peak"]
    row(f"  heap peak of one view, MiB (vs {DATASETS})", tab["peak"] / 2**20, small_tab["peak"] / 2**20, heap,
        f"<= {TARGET_LARGE_TAB_MEMORY}", heap <= TARGET_LARGE_TAB_MEMORY)


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--run":
        print(json.dumps(child(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--consumers":
        print(json.dumps(consumers_child(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--floor":
        print(json.dumps(floor_child(sys.argv[3])))
        return 0
    from tests.support.http_site import Site as HttpSite

    print(f"database {DATABASE}…", flush=True)
    ensure_database()
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-harvest-") as folder:
        started = time.perf_counter()
        site = build_site(Path(folder))
        distributions = dcat_catalog(site.passports, Path(folder) / "catalog.ttl")
        print(f"site generated in {time.perf_counter() - started:.0f} s", flush=True)
        server = HttpSite(Path(folder)).start()
        try:
            print("dcat_rdf first harvest…", flush=True)
            runs["dcat"] = run_child("dcat", f"{server.url}/catalog.ttl")
            dicts = str(Path(folder) / "created.jsonl")
            print("passport first harvest and re-harvest…", flush=True)
            runs["passport"] = run_child("passport", f"{server.url}/opendata/list.csv", {FLOOR_DICTS: dicts})
            print("the floor: the same dicts by bare package_create…", flush=True)
            runs["floor"] = run_child("floor", dicts)
            for kind, what in (("passport-hard", "first harvest with index_commit=hard"),
                               ("redis", "first harvest by consumers on Redis"),
                               ("amqp", "first harvest by consumers on RabbitMQ")):
                print(f"passport {what}…", flush=True)
                runs[kind] = run_child(kind, f"{server.url}/opendata/list.csv")
        finally:
            server.stop()
    large = None
    if LARGE:
        with tempfile.TemporaryDirectory(prefix="bench-harvest-large-") as folder:
            started = time.perf_counter()
            large = build_site(Path(folder), LARGE)
            print(f"large site ({LARGE} passports) generated in {time.perf_counter() - started:.0f} s", flush=True)
            server = HttpSite(Path(folder)).start()
            try:
                print("passport first harvest and re-harvest of the large site…", flush=True)
                runs["large"] = run_child("passport", f"{server.url}/opendata/list.csv")
            finally:
                server.stop()
    report(site, distributions, runs, large)
    return 0


if __name__ == "__main__":
    sys.exit(main())
