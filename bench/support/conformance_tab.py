"""The Conformance tab ``/harvest/<source>/conformance`` as a sysadmin opens it, timed through CKAN's Flask app
(bench_conformance.py, and bench_harvest.py and bench_portal_scale.py for their sources), and the sysadmin whose
API token signs the benchmarks' page requests in (bench_pages.py's too)."""
from __future__ import annotations

import statistics
import time
import tracemalloc
from typing import Any, Callable

SYSADMIN = "bench-pages-admin"
TAB_SAMPLES = 5


def sysadmin_token() -> str:
    import ckan.model as model
    from ckan.plugins import toolkit as tk

    site = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
    if model.User.get(SYSADMIN) is None:
        tk.get_action("user_create")(dict(site), {"name": SYSADMIN, "email": "bench-pages@example.com",
                                                  "password": "bench-pages-password"})
    user = model.User.get(SYSADMIN)
    if not user.sysadmin:
        user.sysadmin = True
        model.Session.commit()
    return tk.get_action("api_token_create")({"user": SYSADMIN}, {"user": SYSADMIN, "name": "bench"})["token"]


def tab_figures(app: Any, source_name: str, samples: int) -> dict[str, float]:
    """The Conformance tab of harvest source ``source_name`` (its last finished job) as a sysadmin opens it.

    ``app`` is what ``ckan.config.middleware.make_app`` returns; the pages are requested of it (its middleware
    included: the language) by werkzeug's test client with the API token of :func:`sysadmin_token`, so no HTTP
    server is needed and the time is the view's. The tab and ckanext-harvest's page of the same source ``/harvest/<source>`` (the baseline) are
    requested in turn, once each to warm up and then ``samples`` times. Returns ``{"p50": seconds of the tab,
    "page_p50": seconds of the source page, "peak": bytes}``: ``peak`` is the peak of Python's heap during one
    more view of the tab (tracemalloc, started just before it), what the view itself holds at once.
    """
    from werkzeug.test import Client

    with app._wsgi_app.test_request_context():
        token = sysadmin_token()
    client = Client(app)

    def view(path: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(path, headers={"Authorization": token})
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")
        return get

    tab, page = view(f"/harvest/{source_name}/conformance"), view(f"/harvest/{source_name}")
    tab(), page()
    timings: dict[Callable[[], None], list[float]] = {tab: [], page: []}
    for _ in range(samples):
        for get, taken in timings.items():
            started = time.perf_counter()
            get()
            taken.append(time.perf_counter() - started)
    tracemalloc.start()
    try:
        tab()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"p50": statistics.median(timings[tab]), "page_p50": statistics.median(timings[page]), "peak": peak}


def conformance_tab(app: Any, source_id: str) -> dict[str, float]:
    """The Conformance tab of the source with id ``source_id`` (:func:`tab_figures`, TAB_SAMPLES views)."""
    import ckan.plugins.toolkit as tk

    name = tk.get_action("harvest_source_show")({"ignore_auth": True}, {"id": source_id})["name"]
    return tab_figures(app, name, TAB_SAMPLES)
