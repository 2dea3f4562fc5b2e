"""A harvest's cost per passport as the portal grows and as the job grows (issue 42).

Run from the repository root: ``.venv/bin/python bench/bench_portal_scale.py`` (``make bench`` starts the services
and gives it its own Solr core, ``ckan-bench``).

1. The same 1,000-passport site (``support.mr_site``'s, served by tests/support/http_site.py) harvested into three
   portals: an empty one, and ones already holding 20,000 and 50,000 records of other sources. Those are written in bulk
   (:func:`fill_statements`: multi-row ``INSERT … SELECT generate_series`` for the records, their extras and
   resources, organizations, harvest sources, a hundred finished jobs a source, three harvest objects a record, one
   current, with their extras, their error rows and findings (:data:`ERRORS_EVERY`), a gather error every
   :data:`GATHER_ERRORS_EVERY` jobs, each finished job's summary, and an activity each; then Solr's JSON update in
   batches of :data:`SOLR_BATCH` documents of the size CKAN indexes), so no 20,000-record harvest is needed. The
   fill's time is printed.
2. One 5,000-passport job in the empty portal.
3. For each: ms per dataset as a ratio to the empty portal's 1,000 (targets: the 20,000 portal and the 5,000 job
   <= 1.1), the time by stage, timed in the harvest process by wrapping the stages' entry points (gather; fetch;
   import bookkeeping, which is the import stage less the three that follow; CKAN's ``package_create``; the index
   pass, ``search.rebuild`` of each record after its commit; the Solr commit; ``harvest_jobs_run`` with the job
   summary), and the process's RSS before and after the job (memory flat).
4. In the largest portal, every SQL statement a harvest of ours sends (first harvest and re-harvest of a small site
   of its own, the index check, the drift and deletion guard queries, the job summary and the Conformance tab) is
   captured with the code that sent it, then run again under ``EXPLAIN (ANALYZE)``: the plans are written to
   ``BENCH_SCALE_PLANS`` (default ``test-output/portal-scale-plans.txt``) and every sequential scan over a portal
   table is printed, said to be ours or CKAN's (a statement sent inside CKAN or ckanext-harvest code is theirs).

``BENCH_SCALE_QUICK=1`` runs the same at toy sizes (a 30-passport site, a 60-passport job, portals of 300 and 600)
for a smoke test; tests/test_bench_portal_scale.py runs its pure parts. It is a benchmark, not a test: it prints a
table and exits 0 whatever the figures.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from support import ROOT, database, harvest, measure, mr_site
from support.conformance_tab import conformance_tab

QUICK = os.environ.get("BENCH_SCALE_QUICK") == "1"
SOLR_URL = os.environ.get("BENCH_SOLR_URL", "http://127.0.0.1:8983/solr/ckan-bench")
SITE_SIZE = int(os.environ.get("BENCH_SCALE_SITE", 30 if QUICK else 1000))
JOB_SIZE = int(os.environ.get("BENCH_SCALE_JOB", 60 if QUICK else 5000))  # 0: no job run
PLAN_SITE_SIZE = 12
PORTALS = tuple(int(size) for size in os.environ.get("BENCH_SCALE_PORTALS", "0 300 600" if QUICK else
                                                     "0 20000 50000").split())
# Only the largest portal's fill and its plans (no timed harvest): the plans before and after an index is added.
PLANS_ONLY = os.environ.get("BENCH_SCALE_PLANS_ONLY") == "1"
PLANS = Path(os.environ.get("BENCH_SCALE_PLANS", ROOT / "test-output" / "portal-scale-plans.txt"))
TARGET = 1.1
RECORDS_PER_SOURCE = 1000
JOBS_PER_SOURCE = 100  # a hundred finished jobs a source: months of daily harvests
OBJECTS_PER_RECORD = 3  # the last three jobs wrote each record; the last one's object is current
SOLR_BATCH = 1000
ERRORS_EVERY = 5  # every fifth record's objects carry two error rows, each with its finding
GATHER_ERRORS_EVERY = 10  # every tenth finished job has a gather error
FILL_CODE = "fetch.not_found"
STAGES = ("gather", "fetch", "import bookkeeping", "package_create", "index pass", "commit", "jobs_run")
# The tables a portal's size grows: a sequential scan over one of them costs in proportion to the portal.
PORTAL_TABLES = ("package", "package_extra", "resource", "harvest_object", "harvest_object_extra",
                 "harvest_object_error", "harvest_gather_error", "harvest_job", "activity", "member", "package_tag",
                 "passport_job_summary", "passport_harvest_finding")


# -- the portal filled in bulk ------------------------------------------------------------------------------

def fill_statements(records: int) -> list[str]:
    """SQL that writes ``records`` records of other ``passport`` sources (RECORDS_PER_SOURCE each), as a harvest
    would have left them, server side in a few multi-row inserts."""
    if records <= 0:
        return []
    sources = -(-records // RECORDS_PER_SOURCE)  # the last one may hold fewer
    errors_per_job = 2 * RECORDS_PER_SOURCE // ERRORS_EVERY
    padding = "Перечень объектов и их характеристик. " * 8
    finding = json.dumps({"code": FILL_CODE, "severity": "warning", "params": {"url": "https://fill.example.ru/"},
                          "message": "", "location": {}}).replace("'", "''")
    content = json.dumps({"passport": {"title": "Набор", "description": padding}, "conformance": {"score": 87}},
                         ensure_ascii=False).replace("'", "''")
    return [
        f"""INSERT INTO "group" (id, name, title, created, state, type, approval_status, is_organization)
            SELECT 'fill-org-' || s, 'fill-org-' || s, 'Fill office ' || s, now(), 'active', 'organization',
                   'approved', true FROM generate_series(0, {sources - 1}) s""",
        f"""INSERT INTO package (id, name, title, url, type, state, owner_org, private, metadata_created,
                                 metadata_modified)
            SELECT 'fill-source-' || s, 'fill-source-' || s, 'Fill source ' || s,
                   'https://fill' || s || '.example.ru/opendata/list.csv', 'harvest', 'active',
                   'fill-org-' || s, false, now(), now() FROM generate_series(0, {sources - 1}) s""",
        f"""INSERT INTO harvest_source (id, url, title, config, created, type, active)
            SELECT 'fill-source-' || s, 'https://fill' || s || '.example.ru/opendata/list.csv', 'Fill source ' || s,
                   '{{}}', now(), 'passport', true FROM generate_series(0, {sources - 1}) s""",
        f"""INSERT INTO harvest_job (id, created, gather_started, gather_finished, finished, source_id, status)
            SELECT 'fill-job-' || s || '-' || j, t, t, t, t + interval '10 minutes', 'fill-source-' || s, 'Finished'
            FROM generate_series(0, {sources - 1}) s, generate_series(0, {JOBS_PER_SOURCE - 1}) j,
                 LATERAL (SELECT now() - interval '1 day' * ({JOBS_PER_SOURCE} - j) AS t) at""",
        f"""INSERT INTO package (id, name, title, notes, type, state, owner_org, private, license_id,
                                 metadata_created, metadata_modified)
            SELECT 'fill-' || n, 'fill-record-' || n, 'Реестр объектов, запись ' || n, '{padding}' || n, 'dataset',
                   'active', 'fill-org-' || (n / {RECORDS_PER_SOURCE}), false, 'cc-by',
                   now() - interval '1 second' * n, now() - interval '1 second' * n
            FROM generate_series(0, {records - 1}) n""",
        # The extras where the running CKAN keeps them: package_extra rows (2.11) or package.extras (2.12).
        f"""DO $$ BEGIN
            IF to_regclass('package_extra') IS NOT NULL THEN
              INSERT INTO package_extra (id, key, value, state, package_id)
              SELECT 'fill-' || n || '-' || k, k, CASE k WHEN 'mr_identifier' THEN '7708234640-fill' || n
                     ELSE '2024-01-01' END, 'active', 'fill-' || n
              FROM generate_series(0, {records - 1}) n,
                   unnest(ARRAY['mr_identifier', 'mr_created', 'mr_modified', 'mr_valid']) k;
            ELSE
              UPDATE package SET extras = jsonb_build_object('mr_identifier', '7708234640-' || replace(id, '-', ''),
                     'mr_created', '2024-01-01', 'mr_modified', '2024-01-01', 'mr_valid', '2024-01-01')
              WHERE id LIKE 'fill-%' AND type = 'dataset';
            END IF;
          END $$""",
        f"""INSERT INTO resource (id, url, format, name, position, state, package_id, created, metadata_modified)
            SELECT 'fill-' || n || '-' || r, 'https://fill.example.ru/opendata/' || n || '/data-' || r || '.csv',
                   'CSV', 'data-' || r, r, 'active', 'fill-' || n, now(), now()
            FROM generate_series(0, {records - 1}) n, generate_series(0, 2) r""",
        f"""INSERT INTO harvest_object (id, guid, current, gathered, fetch_started, fetch_finished, import_started,
                                        import_finished, content, state, report_status, harvest_job_id,
                                        harvest_source_id, package_id)
            SELECT 'fill-' || n || '-' || o, '7708234640-fill' || n, o = {OBJECTS_PER_RECORD - 1}, now(), now(),
                   now(), now(), now(), '{content}', 'COMPLETE', CASE o WHEN 0 THEN 'added' ELSE 'not modified' END,
                   'fill-job-' || (n / {RECORDS_PER_SOURCE}) || '-' || ({JOBS_PER_SOURCE - OBJECTS_PER_RECORD} + o),
                   'fill-source-' || (n / {RECORDS_PER_SOURCE}), 'fill-' || n
            FROM generate_series(0, {records - 1}) n, generate_series(0, {OBJECTS_PER_RECORD - 1}) o""",
        f"""INSERT INTO harvest_object_extra (id, harvest_object_id, key, value)
            SELECT 'fill-' || n || '-' || o || '-' || k, 'fill-' || n || '-' || o, k,
                   CASE k WHEN 'status' THEN 'new' WHEN 'conformance_score' THEN '87' ELSE 'W/"' || n || '"' END
            FROM generate_series(0, {records - 1}) n, generate_series(0, {OBJECTS_PER_RECORD - 1}) o,
                 unnest(ARRAY['status', 'conformance_score', 'etag']) k""",
        # Every ERRORS_EVERY-th record's objects carry two error rows (a fetch warning and an import finding),
        # each with its finding beside it, as findings.save_object_error writes them.
        f"""INSERT INTO harvest_object_error (id, harvest_object_id, message, stage, created)
            SELECT 'fill-' || n || '-' || o || '-' || e, 'fill-' || n || '-' || o,
                   '[{FILL_CODE}] ' || e || ': ' || n, e, now() - interval '1 second' * n
            FROM generate_series(0, {records - 1}, {ERRORS_EVERY}) n, generate_series(0, {OBJECTS_PER_RECORD - 1}) o,
                 unnest(ARRAY['Fetch', 'Import']) e""",
        f"""INSERT INTO passport_harvest_finding (error_id, code, finding, repeats)
            SELECT id, '{FILL_CODE}', '{finding}', 1 FROM harvest_object_error WHERE id LIKE 'fill-%'""",
        # Every GATHER_ERRORS_EVERY-th job failed its gather once, with the finding beside its error row.
        f"""INSERT INTO harvest_gather_error (id, harvest_job_id, message, created)
            SELECT 'fill-gather-' || s || '-' || j, 'fill-job-' || s || '-' || j, '[{FILL_CODE}] gather', now()
            FROM generate_series(0, {sources - 1}) s,
                 generate_series(0, {JOBS_PER_SOURCE - 1}, {GATHER_ERRORS_EVERY}) j""",
        f"""INSERT INTO passport_harvest_finding (error_id, code, finding, repeats)
            SELECT id, '{FILL_CODE}', '{finding}', 1 FROM harvest_gather_error WHERE id LIKE 'fill-gather-%'""",
        # Each finished job summarized once (scoreboard.summary), as harvest_jobs_run leaves it.
        f"""INSERT INTO passport_job_summary (job_id, source_id, organization_id, publisher_key, publisher_name,
                                              finished, status, listed, read, conformant, refused, mean_score,
                                              errors, codes)
            SELECT j.id, j.source_id, o.id, 'org:' || o.id, o.title, j.finished, 'finished', {RECORDS_PER_SOURCE},
                   {RECORDS_PER_SOURCE}, {RECORDS_PER_SOURCE - RECORDS_PER_SOURCE // ERRORS_EVERY}, 0, 87,
                   {errors_per_job}, '{{"{FILL_CODE}": {errors_per_job}}}'
            FROM harvest_job j JOIN package p ON p.id = j.source_id JOIN "group" o ON o.id = p.owner_org
            WHERE j.id LIKE 'fill-job-%'""",
        f"""INSERT INTO activity (id, timestamp, object_id, activity_type, data)
            SELECT 'fill-' || n, now(), 'fill-' || n, 'new package', '{{}}' FROM generate_series(0, {records - 1}) n""",
        "ANALYZE",
    ]


def solr_documents(first: int, count: int, site_id: str) -> list[dict[str, Any]]:
    """Index documents for the filled records ``first`` … ``first + count - 1``, the fields and about the size of
    what CKAN indexes for a harvested record (its data dicts stored whole)."""
    documents = []
    for n in range(first, first + count):
        package_id, organization = f"fill-{n}", f"fill-org-{n // RECORDS_PER_SOURCE}"
        data = {"id": package_id, "name": f"fill-record-{n}", "title": f"Реестр объектов, запись {n}",
                "notes": "Перечень объектов и их характеристик. " * 8, "owner_org": organization,
                "mr_identifier": f"7708234640-fill{n}",
                "resources": [{"url": f"https://fill.example.ru/opendata/{n}/data-{r}.csv", "format": "CSV"}
                              for r in range(3)]}
        documents.append({
            "id": package_id, "site_id": site_id,
            "index_id": hashlib.md5(f"{site_id}{package_id}".encode()).hexdigest(),
            "entity_type": "package", "dataset_type": "dataset", "state": "active", "capacity": "public",
            "name": data["name"], "title": data["title"], "notes": data["notes"], "owner_org": organization,
            "organization": organization, "harvest_source_id": f"fill-source-{n // RECORDS_PER_SOURCE}",
            "metadata_created": "2024-01-01T00:00:00Z", "metadata_modified": "2024-01-01T00:00:00Z",
            "res_url": [r["url"] for r in data["resources"]], "res_format": ["CSV"] * 3,
            "extras_mr_identifier": data["mr_identifier"],
            "data_dict": json.dumps(data, ensure_ascii=False),
            "validated_data_dict": json.dumps(data, ensure_ascii=False),
        })
    return documents


def solr_update(payload: Any, query: str = "") -> None:
    request = urllib.request.Request(f"{SOLR_URL}/update{query}", data=json.dumps(payload).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        response.read()


def empty_portal() -> None:
    database.empty_database()
    solr_update({"delete": {"query": f'site_id:"{database.SITE_ID}"'}}, "?commit=true")


def fill_portal(records: int) -> dict[str, float]:
    """The portal emptied, then ``records`` records written in bulk; seconds of the database and the index part."""
    import psycopg2

    empty_portal()
    started = time.perf_counter()
    connection = psycopg2.connect(database.DB_URL)
    with connection, connection.cursor() as cursor:
        for statement in fill_statements(records):
            cursor.execute(statement)
    connection.close()
    written = time.perf_counter() - started
    for first in range(0, records, SOLR_BATCH):
        solr_update(solr_documents(first, min(SOLR_BATCH, records - first), database.SITE_ID))
    solr_update({"commit": {}})
    return {"database": written, "index": time.perf_counter() - started - written}


# -- one harvest, in a child process, timed by stage ----------------------------------------------------------

def configured() -> Any:
    config = harvest.configured()
    config["solr_url"] = SOLR_URL
    return config


@contextmanager
def wrapped(owner: Any, name: str, spent: dict[str, float], stage: str) -> Iterator[None]:
    original = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[stage] += time.perf_counter() - started

    setattr(owner, name, timed)
    try:
        yield
    finally:
        setattr(owner, name, original)


@contextmanager
def action_timed(logic: Any, name: str, spent: dict[str, float]) -> Iterator[None]:
    """CKAN's action ``name`` timed: ``get_action`` answers from ``ckan.logic._actions``, one entry replaced."""
    original = logic._actions[name]

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - started

    logic._actions[name] = timed
    try:
        yield
    finally:
        logic._actions[name] = original


def stage_split(spent: dict[str, float]) -> dict[str, float]:
    """The stages as printed: the import stage's own bookkeeping is what it spent outside CKAN's package_create,
    the index pass and the commit, which it contains."""
    split = dict(spent)
    split["import bookkeeping"] = spent["import"] - spent["package_create"] - spent["index pass"] - spent["commit"]
    del split["import"]
    return split


def timed_job(source_id: str, harvester: Any) -> dict[str, Any]:
    """One job through the stages (as support.harvest.run_job), each stage's time summed in this process."""
    import ckan.logic
    import ckan.plugins.toolkit as tk
    import pysolr
    from ckan.lib import search
    from ckanext.harvest import queue
    from ckanext.harvest.model import HarvestObject, HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj

    spent = dict.fromkeys(("gather", "fetch", "import", "package_create", "index pass", "commit", "jobs_run"), 0.0)
    tk.get_action("package_create")  # loads the action table the wrapper replaces an entry of
    job = HarvestJobObj(source=HarvestSource.get(source_id), run=False)
    job.status = "Running"
    job.save()
    with wrapped(harvester, "fetch_stage", spent, "fetch"), wrapped(harvester, "import_stage", spent, "import"), \
            action_timed(ckan.logic, "package_create", spent), wrapped(search, "rebuild", spent, "index pass"), \
            wrapped(pysolr.Solr, "commit", spent, "commit"):
        started = time.perf_counter()
        ids = queue.gather_stage(harvester, job)
        spent["gather"] = time.perf_counter() - started
        for object_id in ids if isinstance(ids, list) else []:
            queue.fetch_and_import_stages(harvester, HarvestObject.get(object_id))
        jobs_run = time.perf_counter()
        tk.get_action("harvest_jobs_run")({"ignore_auth": True}, {})
        spent["jobs_run"] = time.perf_counter() - jobs_run
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "stages": stage_split(spent), "objects": len(ids) if isinstance(ids, list) else 0}


def harvest_child(url: str, name: str) -> dict[str, Any]:
    """A new source ``name`` on ``url`` harvested once, in this process, into the portal as it stands."""
    from ckan.config.middleware import make_app

    app = make_app(configured())
    with app._wsgi_app.test_request_context():
        source_id = create_source(name, url)
        harvester = harvest.passport_harvester()
        before = measure.memory_kib("VmRSS")
        measure.reset_peak()
        result = timed_job(source_id, harvester)
        result.update(rss_before_kib=before, rss_after_kib=measure.memory_kib("VmRSS"),
                      peak_kib=measure.memory_kib("VmHWM"), landed=landed(source_id))
    return result


def create_source(name: str, url: str) -> str:
    import ckan.plugins.toolkit as tk

    context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
    organization = tk.get_action("organization_create")(dict(context), {"name": f"bench-{name}"})
    return tk.get_action("harvest_source_create")(dict(context), {
        "name": f"bench-{name}-source", "title": f"Bench {name}", "url": url, "owner_org": organization["id"],
        "source_type": "passport", "config": json.dumps({"allow_private_addresses": True, "registry_url": url}),
    })["id"]


def landed(source_id: str) -> int:
    """The source's records (its current objects')."""
    import ckan.model as model
    from ckanext.harvest.model import HarvestObject

    return (model.Session.query(HarvestObject).filter(HarvestObject.harvest_source_id == source_id,
                                                      HarvestObject.current == True).count())  # noqa: E712


# -- the statements of ours and their plans -----------------------------------------------------------------

OURS = f"{os.sep}ckanext{os.sep}passport{os.sep}"
THEIRS = (f"{os.sep}ckan{os.sep}", f"{os.sep}ckanext{os.sep}harvest{os.sep}")
SKIPPED = re.compile(r"^\s*(SET|SAVEPOINT|RELEASE|ROLLBACK|SHOW|BEGIN|COMMIT|INSERT|SELECT pg_advisory|"
                     r"SELECT pg_catalog|select pg_catalog|select current_schema|SELECT 1\b)", re.IGNORECASE)


def origin(frames: list[traceback.FrameSummary]) -> Optional[str]:
    """Who sent a statement: ``ours module:function`` when our code sent it, ``CKAN's (via module:function)`` when
    CKAN or ckanext-harvest code our code called sent it; ``None`` when no code of ours is on the stack."""
    ours = [i for i, frame in enumerate(frames) if OURS in frame.filename]
    if not ours:
        return None
    frame = frames[ours[-1]]
    where = f"{Path(frame.filename).stem}:{frame.name}"
    inner = frames[ours[-1] + 1:]
    if any(any(part in f.filename for part in THEIRS) and "sqlalchemy" not in f.filename for f in inner):
        return f"CKAN's (via {where})"
    return f"ours {where}"


def seq_scans(plan: str) -> list[str]:
    """The portal tables a plan reads by a sequential scan."""
    return sorted({table for table in re.findall(r"Seq Scan on (\w+)", plan) if table in PORTAL_TABLES})


@contextmanager
def captured(found: dict[str, dict[str, Any]]) -> Iterator[None]:
    """Every statement sent inside the block with code of ours on the stack, by text: its first parameters, its
    origin and how often it ran."""
    import ckan.model as model
    import sqlalchemy as sa

    def before(connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if many or SKIPPED.match(statement):
            return
        sent_by = origin(traceback.extract_stack()[:-1])
        if sent_by is None:
            return
        entry = found.setdefault(statement, {"parameters": parameters, "origin": sent_by, "runs": 0})
        entry["runs"] += 1

    engine = model.meta.engine
    sa.event.listen(engine, "before_cursor_execute", before)
    try:
        yield
    finally:
        sa.event.remove(engine, "before_cursor_execute", before)


def explained(found: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each captured statement's plan, ``EXPLAIN (ANALYZE)`` in a transaction rolled back (a write's plan changes
    nothing)."""
    import ckan.model as model

    plans = []
    connection = model.meta.engine.raw_connection()
    try:
        for statement, entry in found.items():
            cursor = connection.cursor()
            try:
                cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + statement, entry["parameters"])
                plan = "\n".join(line for (line,) in cursor.fetchall())
            except Exception as error:  # a statement that needs its transaction's state: its plan alone
                connection.rollback()
                cursor = connection.cursor()
                cursor.execute("EXPLAIN (COSTS OFF) " + statement, entry["parameters"])
                plan = f"(plan only: {type(error).__name__})\n" + "\n".join(line for (line,) in cursor.fetchall())
            connection.rollback()
            time_ms = re.search(r"Execution Time: ([\d.]+) ms", plan)
            plans.append({**entry, "statement": statement, "plan": plan, "seq_scans": seq_scans(plan),
                          "ms": float(time_ms.group(1)) if time_ms else None})
    finally:
        connection.close()
    return sorted(plans, key=lambda p: (not p["origin"].startswith("ours"), p["origin"], p["statement"]))


def plans_child(url: str, drop_url: str, out: str) -> dict[str, Any]:
    """In the portal as it stands: a small source's first harvest, its re-harvest from a listing one entry short
    (the deletion guard), the index check and drift of it, its job summary and its Conformance tab, every statement
    of ours captured, then explained."""
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app

    from ckanext.passport.harvest import deletion_guard, index_check, records

    app = make_app(configured())
    found: dict[str, dict[str, Any]] = {}
    with app._wsgi_app.test_request_context():
        source_id = create_source("plans", url)
        harvester = harvest.passport_harvester()
        with captured(found):
            harvest.run_job(source_id, harvester)
            context = {"ignore_auth": True,
                       "user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]}
            config = json.loads(tk.get_action("harvest_source_show")(dict(context), {"id": source_id})["config"])
            tk.get_action("harvest_source_patch")(dict(context), {
                "id": source_id, "url": drop_url, "config": json.dumps({**config, "registry_url": drop_url,
                                                                         "delete_missing": True})})
            harvest.run_job(source_id, harvester)
            index_check.differences(source_id=source_id)
            records.drift(source_id)
            deletion_guard._largest_listing(source_id)
            conformance_tab(app, source_id)
        plans = explained(found)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as text:
        for plan in plans:
            text.write(f"-- {plan['origin']}  (ran {plan['runs']}x)  seq scans: {plan['seq_scans'] or 'none'}\n")
            text.write(plan["statement"].strip() + "\n" + plan["plan"] + "\n\n")
    return {"plans": [{key: plan[key] for key in ("origin", "runs", "seq_scans", "ms")} for plan in plans]}


def run(mode: str, *arguments: str) -> dict[str, Any]:
    env = {**database.bench_env(), "CKAN_SOLR_URL": SOLR_URL}
    process = subprocess.run([sys.executable, __file__, mode, *arguments], cwd=ROOT, env=env, capture_output=True,
                             text=True)
    if process.returncode != 0:
        raise RuntimeError(f"{mode} {arguments} failed:\n{process.stderr[-5000:]}")
    return json.loads(process.stdout.strip().splitlines()[-1])


# -- the report ---------------------------------------------------------------------------------------------

def per_dataset(result: dict[str, Any]) -> float:
    return result["seconds"] / max(1, result["landed"]) * 1000


def report_lines(runs: dict[str, dict[str, Any]], baseline: str) -> list[str]:
    """The table: ms per dataset and its ratio to ``baseline``'s, each stage in ms per dataset, RSS before → after."""
    base = per_dataset(runs[baseline]) if runs else 0.0
    lines = [f"{'run':<30}{'landed':>7}{'ms/ds':>8}{'ratio':>7}" + "".join(f"{s[:10]:>11}" for s in STAGES)
             + "   RSS before→after MiB"]
    for name, result in runs.items():
        landed_count = max(1, result["landed"])
        ratio = per_dataset(result) / base
        target = "" if name == baseline else ("  ok" if ratio <= TARGET else "  MISSED")
        stages = "".join(f"{result['stages'][s] / landed_count * 1000:>11.1f}" for s in STAGES)
        lines.append(f"{name:<30}{result['landed']:>7}{per_dataset(result):>8.1f}{ratio:>7.2f}{stages}"
                     f"   {result['rss_before_kib'] / 1024:.0f}→{result['rss_after_kib'] / 1024:.0f}"
                     f" (peak {result['peak_kib'] / 1024:.0f}){target}")
    return lines


def plan_lines(plans: list[dict[str, Any]]) -> list[str]:
    lines = []
    for plan in plans:
        ms = f"{plan['ms']:.2f} ms" if plan["ms"] is not None else "plan only"
        scans = ", ".join(plan["seq_scans"]) or "no seq scan of a portal table"
        lines.append(f"  {plan['origin']:<58} x{plan['runs']:<5} {ms:>11}  {scans}")
    return lines


def shortened(lines: list[bytes]) -> list[bytes]:
    """A registry's lines less its last entry."""
    last = max(i for i, line in enumerate(lines) if line.strip())
    return lines[:last] + lines[last + 1:]


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--harvest":
        print(json.dumps(harvest_child(sys.argv[2], sys.argv[3])))
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "--plans":
        print(json.dumps(plans_child(*sys.argv[2:])))
        return 0
    from tests.support.http_site import Site as HttpSite

    database.ensure_database()
    runs: dict[str, dict[str, Any]] = {}
    fills: dict[int, dict[str, float]] = {}
    plans: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        root = Path(folder)
        for name, size, series in (("site", SITE_SIZE, "scale"), ("job", JOB_SIZE if JOB_SIZE and not PLANS_ONLY else PLAN_SITE_SIZE, "job"),
                                   ("plans", PLAN_SITE_SIZE, "plans")):
            mr_site.build_site(root / name, size, series)
        # The plans' re-harvest reads a listing one entry short: the deletion guard weighs deleting it.
        listed = root / "plans" / "opendata"
        (listed / "short.csv").write_bytes(b"\n".join(shortened((listed / "list.csv").read_bytes().splitlines())))
        servers = {name: HttpSite(root / name).start() for name in ("site", "job", "plans")}
        baseline = f"{SITE_SIZE} site, portal of {PORTALS[0]}"

        def harvested(name: str, listing: str, source: str) -> None:
            # Each run's row as it lands: a run cut short still shows the runs before it.
            runs[name] = run("--harvest", listing, source)
            print("\n".join(report_lines(runs, baseline)[-1:]), flush=True)

        try:
            print(f"stages in ms per dataset; ratio target <= {TARGET} against the first row")
            print(report_lines({}, baseline)[0], flush=True)
            for size in PORTALS[-1:] if PLANS_ONLY else PORTALS:
                fills[size] = fill_portal(size)
                print(f"portal of {size}: filled in {fills[size]['database']:.1f} s (database)"
                      f" + {fills[size]['index']:.1f} s (Solr)", flush=True)
                if not PLANS_ONLY:
                    harvested(f"{SITE_SIZE} site, portal of {size}", f"{servers['site'].url}/opendata/list.csv",
                              f"scale-{size}")
                if size == PORTALS[-1]:
                    plans_url = f"{servers['plans'].url}/opendata"
                    plans = run("--plans", f"{plans_url}/list.csv", f"{plans_url}/short.csv", str(PLANS))["plans"]
            if JOB_SIZE and not PLANS_ONLY:
                empty_portal()
                harvested(f"{JOB_SIZE} job, portal of 0", f"{servers['job'].url}/opendata/list.csv", "job")
        finally:
            for server in servers.values():
                server.stop()
    print()
    ours = [p for p in plans if p["origin"].startswith("ours")]
    print(f"statements on the harvest path at {PORTALS[-1]} records: {len(plans)} ({len(ours)} ours); plans in {PLANS}")
    print("\n".join(plan_lines(plans)))
    scanned = [p for p in ours if p["seq_scans"]]
    print(f"ours with a sequential scan of a portal table: {len(scanned)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
