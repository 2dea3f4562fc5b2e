"""One link of a record asked for its status through the fetch guard: HEAD, then GET for one byte when HEAD is
refused; each failure a ``links.*`` finding. On a real local HTTP server with faults; no database."""
from __future__ import annotations

import time

import pytest
from tests.support.link_site import link_site  # noqa: F401 (fixture)

from ckanext.passport import settings
from ckanext.passport.lkod.links.probe import probe


@pytest.fixture
def policy(ckan_config):
    """The link check's fetch policy under these site options (text, as an ini file gives them)."""

    def make(**options: str):
        # The local server is on loopback: an intranet portal's option lets link checks ask it.
        ckan_config.update({settings.LINK_CHECK_TIMEOUT: "10", settings.LINK_CHECK_PRIVATE_ADDRESSES: "true",
                            **options})
        return settings.link_check_fetch_policy()

    return make


def test_a_link_that_answers_is_ok_from_its_head_alone(link_site, policy):
    outcome = probe(f"{link_site.url}/data.csv", policy())

    assert (outcome.status, outcome.http_status, outcome.code) == ("ok", 200, None)
    assert ("HEAD", "/data.csv") in link_site.requests and ("GET", "/data.csv") not in link_site.requests


def test_a_missing_file_is_broken_not_found_with_its_http_status(link_site, policy):
    outcome = probe(f"{link_site.url}/gone.csv", policy())

    assert (outcome.status, outcome.http_status, outcome.code) == ("broken", 404, "links.not_found")
    assert outcome.finding.message() == "nothing is there (HTTP 404)"


def test_a_server_refusing_head_is_asked_with_get_and_the_link_is_ok(link_site, policy):
    outcome = probe(f"{link_site.url}/no-head.csv", policy())

    assert outcome.status == "ok"
    asked = [request for request in link_site.requests if request[1] == "/no-head.csv"]
    assert asked == [("HEAD", "/no-head.csv"), ("GET", "/no-head.csv")]


def test_a_server_closing_the_connection_on_head_is_asked_with_get(link_site, policy):
    outcome = probe(f"{link_site.url}/drops-head.csv", policy())

    assert outcome.status == "ok"
    asked = [request for request in link_site.requests if request[1] == "/drops-head.csv"]
    assert asked == [("HEAD", "/drops-head.csv"), ("GET", "/drops-head.csv")]


def test_a_link_that_does_not_answer_is_broken_by_its_timeout_within_it(link_site, policy):
    started = time.monotonic()
    outcome = probe(f"{link_site.url}/slow.csv", policy(**{settings.LINK_CHECK_TIMEOUT: "1"}))

    assert (outcome.status, outcome.code) == ("broken", "links.timeout")
    assert time.monotonic() - started < 3


def test_a_private_address_is_refused_and_never_asked_although_harvests_may_read_it(link_site, policy):
    before = len(link_site.requests)
    outcome = probe(f"{link_site.url}/data.csv", policy(**{settings.ALLOW_PRIVATE_ADDRESSES: "true",
                                                           settings.LINK_CHECK_PRIVATE_ADDRESSES: "false"}))

    assert (outcome.status, outcome.code) == ("broken", "links.refused_private")
    assert "127.0.0.1" in outcome.finding.message()
    assert len(link_site.requests) == before


def test_a_refused_host_name_is_named_without_the_address_it_resolves_to(link_site, policy):
    port = link_site.url.rsplit(":", 1)[1]
    outcome = probe(f"http://localhost:{port}/data.csv", policy(**{settings.LINK_CHECK_PRIVATE_ADDRESSES: "false"}))

    assert outcome.code == "links.refused_private"
    assert outcome.finding.message() == ("localhost is not a public address (a private, local or special-purpose "
                                         "network): the portal does not check links there")


def test_a_link_that_is_no_web_address_is_broken_as_invalid(policy):
    assert probe("ftp://data.example.cz/a.csv", policy()).code == "links.invalid_url"


def test_a_host_that_refuses_connections_is_unreachable_saying_why(policy):
    outcome = probe("http://127.0.0.1:9/data.csv", policy())

    assert (outcome.status, outcome.code) == ("broken", "links.unreachable")
    assert "refused the connection" in outcome.finding.message()
