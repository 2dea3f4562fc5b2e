"""What keeps parallel pytest-xdist workers out of each other's way: each worker's own services and ports.

A worker (``PYTEST_XDIST_WORKER``: gw0, gw1, …) gets its own PostgreSQL database, Solr core, site id (ckanext-harvest's
queue names, CKAN's job queues and the rate limits' Redis keys carry it) and storage folder, named after the
configured ones (``ckan_test`` → ``ckan_test_gw0``, core ``ckan`` → ``ckan-gw0``); the Makefile makes them. They are
set as the environment variables CKAN reads over its configuration file, before CKAN's pytest plugin loads it at
session start, so the worker's live servers and consumer processes inherit them. One process (``-n 0``, or plain
pytest) keeps the configured names.
"""
from __future__ import annotations

import configparser
import os
import socket
from pathlib import Path

# Environment variable CKAN reads over its configuration (ckan.config.environment.CONFIG_FROM_ENV_VARS) → the option.
_OPTIONS = {
    "CKAN_SQLALCHEMY_URL": "sqlalchemy.url",
    "CKAN_SOLR_URL": "solr_url",
    "CKAN_SITE_ID": "ckan.site_id",
    "CKAN_STORAGE_PATH": "ckan.storage_path",
}
_SEPARATORS = {"CKAN_SQLALCHEMY_URL": "_", "CKAN_SOLR_URL": "-", "CKAN_SITE_ID": "-", "CKAN_STORAGE_PATH": "-"}
# Ports a worker's servers listen on, below Linux's ephemeral range (32768+) so no client socket ever holds one.
_PORT_BASE = 20000
_PORTS_PER_WORKER = 200


def worker_id() -> str:
    """``gw0``, ``gw1``, … in an xdist worker; empty in a single process."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def _configured(ini: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(defaults={"here": str(ini.resolve().parent)}, strict=False)
    parser.read(ini)
    return {option: parser.get("app:main", option, fallback="") for option in _OPTIONS.values()}


def isolate(ini: Path) -> None:
    """Point this worker's CKAN (and every process it starts) at the worker's own database, core, site id, storage."""
    worker = worker_id()
    if not worker:
        return
    configured = _configured(ini)
    for variable, option in _OPTIONS.items():
        base = os.environ.get(variable) or configured[option]
        if base:
            os.environ[variable] = f"{base}{_SEPARATORS[variable]}{worker}"


def free_port() -> int:
    """A free port of this worker's own block (any free port in a single process)."""
    worker = worker_id()
    if not worker:
        return _bind_probe(0)
    start = _PORT_BASE + int(worker.removeprefix("gw")) * _PORTS_PER_WORKER
    for port in range(start, start + _PORTS_PER_WORKER):
        try:
            return _bind_probe(port)
        except OSError:
            continue
    raise RuntimeError(f"no free port in {start}-{start + _PORTS_PER_WORKER - 1} for worker {worker}")


def _bind_probe(port: int) -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))
        return probe.getsockname()[1]
