"""mr.fetch's hard deadline: no phase of a fetch outlasts it, however slowly a server drips its bytes.

Each server below sends one byte every 0.1 s, well inside the per-wait read timeout, for up to 12 s; the
fetch's deadline is 1 s and every fetch must end well before the server would (the bound is generous: the
machine is shared and loaded). Servers are raw sockets on loopback; the slow resolver is ``getaddrinfo``
made slow for one made-up host name.
"""
from __future__ import annotations

import socket
import threading
import time
from typing import Callable

import pytest

from ckanext.passport.mr import addresses
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchPolicy, fetch, make_session

from tests.support.loopback import raw_server

DEADLINE = 1.0
# Far below the 12 s a server keeps dripping, far above the deadline.
BOUND = DEADLINE + 5
DRIPPING = FetchPolicy(allow_private_addresses=True, retries=2, backoff_factor=0.01, connect_timeout=2,
                       read_timeout=2, total_timeout=DEADLINE)


def drip(head: bytes, byte: bytes) -> Callable[[socket.socket, threading.Event], None]:
    """Send ``head`` at once, then ``byte`` every 0.1 s for at most 12 s."""

    def handle(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head)
        ends = time.monotonic() + 12
        while not stop.is_set() and time.monotonic() < ends:
            conn.sendall(byte)
            stop.wait(0.1)

    return handle


def timed_fetch(url: str, policy: FetchPolicy = DRIPPING, **kwargs) -> tuple[object, float]:
    started = time.monotonic()
    result = fetch(url, policy, **kwargs)
    return result, time.monotonic() - started


@pytest.mark.parametrize(
    "phase, head, byte",
    [
        ("status line", b"HTTP/1.1 200 ", b"O"),
        ("headers", b"HTTP/1.1 200 OK\r\nX-Slow: ", b"a"),
        ("chunk-size line", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", b"0"),
        # A gzip header whose file name never ends: the decoder gives nothing back, so the read never returns.
        ("gzip body", b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
                      b"\x1f\x8b\x08\x08\x00\x00\x00\x00\x00\x03", b"a"),
    ],
)
def test_a_server_dripping_any_phase_of_the_answer_is_cut_at_the_deadline(phase, head, byte):
    with raw_server(drip(head, byte)) as url:
        result, took = timed_fetch(url)

    assert result.problem is not None and result.problem.code == "fetch.timeout", phase
    assert result.content == b""
    assert took < BOUND, phase


@pytest.fixture
def slow_resolver(monkeypatch):
    """``slow-dns.test`` takes 8 s to resolve (to loopback); every other name resolves as usual."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "slow-dns.test":
            time.sleep(8)
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)


def test_a_host_lookup_that_never_ends_is_given_up_at_the_deadline_by_the_guard(slow_resolver):
    result, took = timed_fetch("http://slow-dns.test/opendata/", FetchPolicy(retries=0, total_timeout=DEADLINE))

    assert result.problem.code == "fetch.timeout"
    assert took < BOUND


def test_a_host_lookup_that_never_ends_is_given_up_at_the_deadline_when_connecting(slow_resolver):
    result, took = timed_fetch("http://slow-dns.test/opendata/", DRIPPING)

    assert result.problem.code == "fetch.timeout"
    assert took < BOUND


def test_a_kept_alive_connection_is_watched_by_the_next_fetch_too():
    """The second fetch reuses the first one's connection; the server drips the second answer's headers."""
    answers = iter([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", b"HTTP/1.1 200 OK\r\nX-Slow: "])

    def keep_alive(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(next(answers))
        conn.recv(65536)
        drip(next(answers), b"a")(conn, stop)

    with raw_server(keep_alive) as url, make_session(DRIPPING) as session:
        first = fetch(url, DRIPPING, session=session)
        second, took = timed_fetch(url, session=session)

    assert first.content == b"ok"
    assert second.problem.code == "fetch.timeout"
    assert took < BOUND


def test_a_fetch_ends_when_its_budget_does_though_its_own_deadline_is_later():
    budget = Deadline.after(DEADLINE)
    with raw_server(drip(b"HTTP/1.1 200 ", b"O")) as url:
        result, took = timed_fetch(url, FetchPolicy(allow_private_addresses=True, retries=0, total_timeout=60),
                                   deadline=budget)

    assert result.problem.code == "fetch.timeout"
    assert result.problem.params["seconds"] == f"{DEADLINE:g}"  # the budget's, not the fetch's own 60 s
    assert took < BOUND


def test_fetches_sharing_a_budget_end_together_by_it():
    budget = Deadline.after(1.5)
    policy = FetchPolicy(allow_private_addresses=True, retries=0, total_timeout=60)
    started = time.monotonic()
    with raw_server(drip(b"HTTP/1.1 200 OK\r\nX-Slow: ", b"a")) as url:
        codes = [fetch(url, policy, deadline=budget).problem.code for _ in range(3)]

    assert codes == ["fetch.timeout"] * 3
    assert time.monotonic() - started < 1.5 + 5
    assert budget.expired and budget.remaining() == 0


def test_a_spent_budget_ends_the_fetch_before_any_request(httpserver):
    httpserver.expect_request("/").respond_with_data("x")

    result = fetch(httpserver.url_for("/"), FetchPolicy(allow_private_addresses=True), deadline=Deadline.after(0))

    assert result.problem.code == "fetch.timeout"
    assert httpserver.log == []


def test_a_fetch_within_its_budget_reads_as_usual(httpserver):
    httpserver.expect_request("/").respond_with_data("x")
    budget = Deadline.after(30)

    result = fetch(httpserver.url_for("/"), FetchPolicy(allow_private_addresses=True), deadline=budget)

    assert result.ok and result.content == b"x"
    assert 0 < budget.remaining() <= 30
