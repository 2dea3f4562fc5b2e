"""Fixtures of the service-fault tests: one MR site harvested once for the module, and a round of harvest processes
with a fault injected mid-job for each test (fault_rounds.py).

These tests kill and restart the PostgreSQL, Solr, Redis and RabbitMQ they run on: `make test` runs them in one
process (``-m service_faults -n 0``) on a set of services of their own, beside the parallel suite.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import pytest

from tests.support.brokers import BROKERS
from tests.support.fault_rounds import SOURCE_CONFIG, Harvested, PassportSite, Round, harvest_through
from tests.support.service_control import Fault, start_services


@pytest.fixture(scope="module")
def harvested(stack_once, tmp_path_factory: pytest.TempPathFactory, serve_site, harvest_source,
              run_harvest) -> Iterator[Harvested]:
    """The site served and its source harvested once, in process: each round then changes records that exist.
    Afterwards every service is up again, even one a failed round left down, for whatever runs next."""
    site = PassportSite(tmp_path_factory.mktemp("mr-site"))
    site.publish("first harvest")
    served = serve_site(site.root)
    source = harvest_source(f"{served.url}/opendata/list.csv", SOURCE_CONFIG, name="service-faults")
    results, job = run_harvest(source)
    assert {result["report_status"] for result in results.values()} == {"added"}, job
    yield Harvested(site, source)
    start_services()


@pytest.fixture
def harvest_round(harvested: Harvested, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  ckan_config) -> Callable[..., Round]:
    """``harvest_round(fault, broker="redis")``: one round of fault_rounds.harvest_through on the module's site."""

    def run(fault: Fault, broker: str = "redis") -> Round:
        # The test process publishes the jobs: it names the broker the processes consume from.
        for key, value in BROKERS[broker].items():
            monkeypatch.setitem(ckan_config, key, value)
        return harvest_through(fault, harvested.site, harvested.source, broker, tmp_path)

    return run
