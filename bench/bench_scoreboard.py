"""The publishers' scoreboard over 200 publishers × 30 jobs × 50 passports, against ckanext-harvest's
``harvest_source_list`` of the same portal.

Run from the repository root: ``.venv/bin/python bench/bench_scoreboard.py`` (``make bench`` starts the services).
The database is test.ini's unless CKAN_SQLALCHEMY_URL says otherwise (``make bench``: ``ckan_bench``); its rows are
emptied first (``support.database.prepare_database``), so point it at a test or bench database.

The portal is written in bulk, not harvested: 200 ``passport`` sources (each its harvest source and its dataset, one
publisher each, its organization, every tenth private), their finished harvest jobs
and each job's summary (``passport_job_summary``: 50 passports listed, a mean score, eight finding codes). The
summaries are what the scoreboard reads (``conformance.scoreboard.summary`` writes one when a job finishes), so no
harvest object is written: the 300,000 passports are only the summaries' counts.

1. ``passport_scoreboard``, one page (50 rows, sorted by score): p50 wall time as a ratio to
   ``harvest_source_list`` (its first 100 sources, ckanext-harvest's default limit) of the same portal, both
   in-process as a sysadmin calls them through the API (no HTTP time counted). Target: p50 ≤ 1 s.
2. Memory flat in the number of jobs: the Python heap's peak during one scoreboard call (tracemalloc) and its p50,
   with 10 jobs per publisher, then with 30.
3. ``passport_scoreboard_history`` of one publisher and of the portal (per day), p50.
4. The page a person opens, ``GET /passport/scoreboard`` through the whole application (its first page with each
   row's trend and the portal's chart; a sysadmin's with the harvest health), p50 against the same baseline.
   Target: p50 ≤ 1 s.

It is a benchmark, not a test: it prints a table and exits 0 whatever the figures.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import sys
import time
import tracemalloc
import uuid
from typing import Any, Callable

from support.database import database_url, prepare_database, review_free_config
from support.measure import p50

PUBLISHERS = 200
JOBS = 30
FIRST_JOBS = 10
PASSPORTS = 50
SAMPLES = int(os.environ.get("BENCH_SCOREBOARD_SAMPLES", "15"))
CODES = [f"check.code_{n}" for n in range(8)]
NOW = dt.datetime.utcnow()


def add_sources() -> list[dict[str, Any]]:
    """The 200 sources (a dataset of type harvest and a harvest_source each, in two statements), each of its own
    organization (the publisher: the scoreboard names a row by its organization's title)."""
    import ckan.model as model
    import sqlalchemy as sa

    sources = []
    for n in range(PUBLISHERS):
        organization = model.Group(name=f"bench-publisher-{n:03d}", title=f"Publisher {n:03d}", type="organization",
                                   is_organization=True)
        organization.id, organization.state = str(uuid.uuid4()), "active"
        model.Session.add(organization)
        sources.append({"id": str(uuid.uuid4()), "name": f"bench-source-{n:03d}", "title": f"Publisher {n:03d}",
                        "private": n % 10 == 0, "organization": organization.id,
                        "publisher": f"org:{organization.id}"})
    model.Session.flush()
    model.Session.execute(sa.text(
        "INSERT INTO package (id, name, title, url, type, state, private, owner_org, metadata_modified, "
        "metadata_created) VALUES (:id, :name, :title, 'http://example.org/' || :name || '/', 'harvest', 'active', "
        ":private, :organization, now(), now())"), sources)
    model.Session.execute(sa.text(
        "INSERT INTO harvest_source (id, url, title, type, active, created, frequency) "
        "VALUES (:id, 'http://example.org/' || :name || '/', :title, 'passport', true, now(), 'MANUAL')"), sources)
    model.Session.commit()
    return sources


def add_jobs(sources: list[dict[str, Any]], first: int, last: int) -> None:
    """Jobs ``first``..``last - 1`` of every source (job 0 the oldest, one a day), finished, with their summaries."""
    import ckan.model as model
    import sqlalchemy as sa

    jobs, summaries = [], []
    for number, source in enumerate(sources):
        for n in range(first, last):
            job_id = str(uuid.uuid4())
            finished = NOW - dt.timedelta(days=JOBS - n, hours=number % 24)
            jobs.append({"id": job_id, "source_id": source["id"], "finished": finished})
            mean = 40 + (number * 7 + n * 3) % 60
            codes = {code: (number + n + k) % 25 + 1 for k, code in enumerate(CODES)}
            summaries.append({
                "job_id": job_id, "source_id": source["id"], "organization_id": source["organization"],
                "publisher_key": source["publisher"],
                "publisher_name": source["title"], "finished": finished, "status": "finished", "listed": PASSPORTS,
                "read": PASSPORTS - 2, "conformant": PASSPORTS // 3, "refused": 0, "mean_score": float(mean),
                "errors": n % 9, "codes": codes})
    model.Session.execute(sa.text(
        "INSERT INTO harvest_job (id, created, gather_started, gather_finished, finished, source_id, status) "
        "VALUES (:id, :finished, :finished, :finished, :finished, :source_id, 'Finished')"), jobs)
    model.Session.execute(sa.text(
        "INSERT INTO passport_job_summary (job_id, source_id, organization_id, publisher_key, publisher_name, "
        "finished, status, listed, read, conformant, refused, mean_score, errors, codes) VALUES (:job_id, "
        ":source_id, :organization_id, :publisher_key, :publisher_name, :finished, :status, :listed, :read, "
        ":conformant, :refused, :mean_score, :errors, CAST(:codes AS jsonb))"), [{**row, "codes": _json(row["codes"])} for row in summaries])
    model.Session.commit()
    model.Session.execute(sa.text("ANALYZE passport_job_summary; ANALYZE harvest_job"))
    model.Session.commit()


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def peak_bytes(call: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def page_view(client: Any, headers: dict[str, str]) -> tuple[float, int]:
    """p50 of ``GET /passport/scoreboard`` (its first page, the trends and the portal's chart; a sysadmin's with the
    harvest health) through the whole application, and the answer's status."""
    seconds, response = p50(lambda: client.get("/passport/scoreboard", headers=headers), SAMPLES)
    return seconds, response.status_code


def measure() -> dict[str, Any]:
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app

    app = make_app(review_free_config())
    for name in ("ckan", "ckanext"):
        logging.getLogger(name).setLevel(logging.ERROR)
    figures: dict[str, Any] = {}
    with app._wsgi_app.test_request_context():
        user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": user}  # noqa: E731 (a fresh context per call, as each API request has)
        visitor = lambda: {"user": ""}  # noqa: E731
        board = lambda: tk.get_action("passport_scoreboard")(context(), {"limit": 50})  # noqa: E731
        sources = add_sources()
        for jobs in (FIRST_JOBS, JOBS):
            add_jobs(sources, JOBS - jobs, JOBS - (FIRST_JOBS if jobs == JOBS else 0))
            seconds, page = p50(board, SAMPLES)
            figures[jobs] = {"ours": seconds, "peak": peak_bytes(board), "rows": len(page["rows"]),
                             "count": page["count"],
                             "visitor": p50(lambda: tk.get_action("passport_scoreboard")(
                                 visitor(), {"limit": 50}), SAMPLES)[0]}
        token = tk.get_action("api_token_create")({"user": user, "ignore_auth": True},
                                                  {"user": user, "name": "bench"})["token"]
        figures["theirs"], listed = p50(
            lambda: tk.get_action("harvest_source_list")(context(), {}), SAMPLES)
        figures["listed"] = len(listed)
        publisher = sources[1]["publisher"]
        figures["publisher_history"], history = p50(
            lambda: tk.get_action("passport_scoreboard_history")(context(), {"publisher": publisher}), SAMPLES)
        figures["publisher_jobs"] = len(history["jobs"])
        figures["portal_history"], days = p50(
            lambda: tk.get_action("passport_scoreboard_history")(context(), {}), SAMPLES)
        figures["days"] = len(days["days"])
    # Each page view is a request of its own through the whole application (CKAN's middleware included), outside
    # the actions' request context.
    from werkzeug.test import Client
    from werkzeug.wrappers import Response

    client = Client(app, Response)
    figures["page_visitor"], figures["page_status"] = page_view(client, {})
    figures["page_sysadmin"], _ = page_view(client, {"Authorization": token})
    return figures


def main() -> int:
    print(f"database {database_url().rsplit('/', 1)[-1]}, emptied…", flush=True)
    prepare_database()
    started = time.perf_counter()
    figures = measure()
    print(f"{PUBLISHERS} publishers × {JOBS} jobs × {PASSPORTS} passports written as summaries and measured in "
          f"{time.perf_counter() - started:.0f} s; p50 of {SAMPLES} calls each, in-process actions as a sysadmin")
    print()
    theirs = figures["theirs"]
    print(f"{'figure':<66}{'ours, s':>10}{'baseline, s':>13}{'ratio':>8}")
    for jobs in (FIRST_JOBS, JOBS):
        side = figures[jobs]
        label = f"passport_scoreboard, {side['rows']} of {side['count']} rows, {jobs} jobs per publisher"
        print(f"{label:<66}{side['ours']:>10.4f}{theirs:>13.4f}{side['ours'] / theirs:>8.2f}")
    print(f"  baseline: harvest_source_list of the same portal ({figures['listed']} sources, its default limit)")
    target = figures[JOBS]["ours"]
    print(f"  target p50 <= 1 s with {JOBS} jobs per publisher: {target:.4f} s, {'met' if target <= 1 else 'MISSED'}")
    for who in ("visitor", "sysadmin"):
        label = f"GET /passport/scoreboard as a {who}, {JOBS} jobs each (HTTP {figures['page_status']})"
        seconds = figures[f"page_{who}"]
        print(f"{label:<66}{seconds:>10.4f}{theirs:>13.4f}{seconds / theirs:>8.2f}"
              f"  target p50 <= 1 s: {'met' if seconds <= 1 else 'MISSED'}")
    print(f"{'passport_scoreboard as a visitor (public sources), 10 / 30 jobs':<66}"
          f"{figures[FIRST_JOBS]['visitor']:>10.4f}{figures[JOBS]['visitor']:>13.4f}")
    print(f"{'Python heap peak of one call, KiB, 10 / 30 jobs per publisher':<66}"
          f"{figures[FIRST_JOBS]['peak'] / 1024:>10.0f}{figures[JOBS]['peak'] / 1024:>13.0f}"
          f"{figures[JOBS]['peak'] / figures[FIRST_JOBS]['peak']:>8.2f}")
    print(f"{'passport_scoreboard_history of a publisher (' + str(figures['publisher_jobs']) + ' jobs)':<66}"
          f"{figures['publisher_history']:>10.4f}")
    print(f"{'passport_scoreboard_history of the portal (' + str(figures['days']) + ' days)':<66}"
          f"{figures['portal_history']:>10.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
