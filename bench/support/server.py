"""This CKAN served by werkzeug in a child process, so that its memory is its own, and what the benchmarks that
request pages of it share: the records they create and the baseline that pages through ``package_search``.

:func:`start_server` runs this module (``python -m support.server <port> <options>``) as the server's process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from support import INI, ROOT
from support.measure import free_port

BENCH = str(Path(__file__).resolve().parent.parent)
PAGE_ROWS = 1000


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


def serve(port: int, options: dict[str, str] | None = None) -> None:
    from ckan.config.middleware import make_app
    from werkzeug.serving import make_server

    make_server("127.0.0.1", port, make_app(configured(port, options))).serve_forever()


def start_server(options: dict[str, str] | None = None,
                 env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """This CKAN on a free port in a child process (``configured``, with a benchmark's own ``options`` over it;
    ``env``, this process's variables by default)."""
    port = free_port()
    env = dict(env or os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (BENCH, env.get("PYTHONPATH"))))
    server = subprocess.Popen([sys.executable, "-m", "support.server", str(port), json.dumps(options or {})],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            requests.get(f"{base}/api/3/action/status_show", timeout=5)
            return server, base
        except requests.ConnectionError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the benchmark server did not start")


def fetched(session: requests.Session, url: str, **params: Any) -> requests.Response:
    response = session.get(url, params=params, timeout=600)
    response.raise_for_status()
    return response


def page_through_search(session: requests.Session, base: str, fq: str) -> int:
    """The baseline: every record ``fq`` selects through package_search, a page of 1,000 at a time."""
    seen, start = 0, 0
    while True:
        result = fetched(session, f"{base}/api/3/action/package_search", q="*:*", fq=fq,
                         sort="name asc", rows=PAGE_ROWS, start=start).json()["result"]
        seen += len(result["results"])
        start += PAGE_ROWS
        if start >= result["count"]:
            return seen


def dataset(number: int, owner_org: str) -> dict:
    """A record with MR resources, as bench_publish.py creates 10,000 of them and bench_pages.py its two."""
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


if __name__ == "__main__":
    serve(int(sys.argv[1]), json.loads(sys.argv[2]))
