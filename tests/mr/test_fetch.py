"""mr.fetch against real HTTP servers on loopback: limits, retries, redirects, conditional GET and the guard.

Servers are pytest-httpserver's, or a raw socket server below when the test needs byte-level control
(slow drip, chunked bodies, stalls). No traffic is ever sent to a non-loopback address: refusals of
private ranges are tested on IP literals, which resolve without a network.
"""
from __future__ import annotations

import gzip
import ipaddress
import json
import socket
import threading
import time

import pytest
from werkzeug import Request, Response
from tests.support.loopback import LOCAL, raw_server

from ckanext.passport.mr import fetch as fetch_module
from ckanext.passport.mr.addresses import is_public_address
from ckanext.passport.mr.fetch import DEFAULT_USER_AGENT, FetchPolicy, fetch, make_session
from ckanext.passport.mr.translation import translator

RUSSIAN = translator("ru")


def test_ok_response_gives_body_final_url_and_case_insensitive_headers(httpserver):
    httpserver.expect_request("/opendata/list.csv").respond_with_data(
        "property,title,value,format\n",
        content_type="text/csv; charset=utf-8",
        headers={"ETag": '"v1"', "Last-Modified": "Wed, 01 Oct 2025 10:00:00 GMT"},
    )
    url = httpserver.url_for("/opendata/list.csv")

    result = fetch(url, LOCAL)

    assert result.ok and result.problem is None
    assert result.status == 200
    assert result.content == b"property,title,value,format\n"
    assert result.url == url
    assert result.content_type == "text/csv; charset=utf-8"
    assert result.headers["content-type"] == result.headers["Content-Type"]
    assert result.etag == '"v1"'
    assert result.last_modified == "Wed, 01 Oct 2025 10:00:00 GMT"
    assert result.not_modified is False
    assert 0 < result.elapsed < 5


def test_404_is_not_found_with_the_validator_message(httpserver):
    httpserver.expect_request("/opendata/meta.csv").respond_with_data("nope", status=404)

    result = fetch(httpserver.url_for("/opendata/meta.csv"), LOCAL)

    assert not result.ok
    assert result.status == 404
    assert result.content == b""
    assert result.problem.code == "fetch.not_found"
    assert "файл не найден" in result.problem.message(RUSSIAN)
    assert result.problem.location.url == httpserver.url_for("/opendata/meta.csv")


def test_410_gone_is_not_found_too(httpserver):
    httpserver.expect_request("/old").respond_with_data("", status=410)

    assert fetch(httpserver.url_for("/old"), LOCAL).problem.code == "fetch.not_found"


def test_403_is_an_http_error_and_is_not_retried(httpserver):
    httpserver.expect_request("/x").respond_with_data("forbidden", status=403)

    result = fetch(httpserver.url_for("/x"), FetchPolicy(allow_private_addresses=True, retries=3, backoff_factor=0.01))

    assert result.problem.code == "fetch.http_error"
    assert result.status == 403
    assert len(httpserver.log) == 1


def test_server_errors_are_retried_with_backoff_until_success(httpserver):
    answers = iter([Response("busy", status=503), Response("down", status=500), Response("a,b\n", status=200)])
    httpserver.expect_request("/list.csv").respond_with_handler(lambda request: next(answers))
    policy = FetchPolicy(allow_private_addresses=True, retries=2, backoff_factor=0.05)

    started = time.monotonic()
    result = fetch(httpserver.url_for("/list.csv"), policy)

    assert result.ok
    assert result.content == b"a,b\n"
    assert len(httpserver.log) == 3
    # Backoff waits 0.05 s, then 0.1 s.
    assert time.monotonic() - started >= 0.15


def test_server_error_after_every_retry_is_server_error(httpserver):
    httpserver.expect_request("/list.csv").respond_with_data("down", status=502)
    policy = FetchPolicy(allow_private_addresses=True, retries=2, backoff_factor=0.01)

    result = fetch(httpserver.url_for("/list.csv"), policy)

    assert result.problem.code == "fetch.server_error"
    assert result.status == 502
    assert len(httpserver.log) == 3


def test_slow_drip_body_is_cut_by_the_total_deadline():
    def drip(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"x")
            time.sleep(0.05)

    policy = FetchPolicy(allow_private_addresses=True, retries=0, read_timeout=1, total_timeout=0.6)
    with raw_server(drip) as url:
        started = time.monotonic()
        result = fetch(url, policy)
        took = time.monotonic() - started

    assert result.problem.code == "fetch.timeout"
    assert result.content == b""
    assert 0.6 <= took < 1.5


def test_server_that_stalls_after_headers_hits_the_read_timeout():
    def stall(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        stop.wait(3)

    policy = FetchPolicy(allow_private_addresses=True, retries=0, read_timeout=0.3, total_timeout=5)
    with raw_server(stall) as url:
        started = time.monotonic()
        result = fetch(url, policy)

    assert result.problem.code == "fetch.timeout"
    assert time.monotonic() - started < 1.5


def test_server_that_never_answers_times_out_after_its_retries():
    def silent(conn: socket.socket, stop: threading.Event) -> None:
        stop.wait(3)

    policy = FetchPolicy(allow_private_addresses=True, retries=1, backoff_factor=0.01, read_timeout=0.3)
    with raw_server(silent) as url:
        started = time.monotonic()
        result = fetch(url, policy)

    assert result.problem.code == "fetch.timeout"
    assert 0.6 <= time.monotonic() - started < 1.8


def test_declared_content_length_over_the_cap_is_refused(httpserver):
    httpserver.expect_request("/big.csv").respond_with_data(b"x" * 1000)

    result = fetch(httpserver.url_for("/big.csv"), FetchPolicy(allow_private_addresses=True, max_bytes=999))

    assert not result.ok
    assert result.problem.code == "fetch.too_large"
    assert result.content == b""
    assert "999" in result.problem.message()


def test_body_of_exactly_the_cap_is_accepted(httpserver):
    httpserver.expect_request("/fits.csv").respond_with_data(b"x" * 1000)

    result = fetch(httpserver.url_for("/fits.csv"), FetchPolicy(allow_private_addresses=True, max_bytes=1000))

    assert result.ok
    assert len(result.content) == 1000


def test_endless_chunked_body_without_content_length_stops_at_the_cap():
    def endless_chunks(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"400\r\n" + b"y" * 0x400 + b"\r\n")

    with raw_server(endless_chunks) as url:
        result = fetch(url, FetchPolicy(allow_private_addresses=True, max_bytes=5000, total_timeout=5))

    assert result.problem.code == "fetch.too_large"
    assert result.content == b""


def test_small_chunked_body_is_read_whole():
    def chunks(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab,\r\n2\r\ncd\r\n0\r\n\r\n")

    with raw_server(chunks) as url:
        result = fetch(url, LOCAL)

    assert result.ok
    assert result.content == b"ab,cd"


def test_gzip_content_encoding_is_decoded_and_the_cap_applies_to_decoded_bytes(httpserver):
    bomb = gzip.compress(b"0" * 100_000)
    httpserver.expect_request("/z").respond_with_data(bomb, headers={"Content-Encoding": "gzip"})

    result = fetch(httpserver.url_for("/z"), FetchPolicy(allow_private_addresses=True, max_bytes=10_000))

    assert len(bomb) < 10_000
    assert result.problem.code == "fetch.too_large"


def test_redirect_chain_is_followed_and_the_final_url_reported(httpserver):
    httpserver.expect_request("/opendata").respond_with_response(
        Response(status=301, headers={"Location": "/opendata/"})
    )
    httpserver.expect_request("/opendata/").respond_with_response(
        Response(status=302, headers={"Location": httpserver.url_for("/opendata/list.csv")})
    )
    httpserver.expect_request("/opendata/list.csv").respond_with_data("ok")

    result = fetch(httpserver.url_for("/opendata"), LOCAL)

    assert result.ok
    assert result.content == b"ok"
    assert result.url == httpserver.url_for("/opendata/list.csv")
    assert [entry[0].path for entry in httpserver.log] == ["/opendata", "/opendata/", "/opendata/list.csv"]


def test_redirect_loop_is_detected(httpserver):
    httpserver.expect_request("/a").respond_with_response(Response(status=302, headers={"Location": "/b"}))
    httpserver.expect_request("/b").respond_with_response(Response(status=302, headers={"Location": "/a"}))

    result = fetch(httpserver.url_for("/a"), LOCAL)

    assert result.problem.code == "fetch.redirect_loop"
    assert len(httpserver.log) == 2


def test_more_redirects_than_allowed_is_an_error(httpserver):
    for hop in range(5):
        httpserver.expect_request(f"/r{hop}").respond_with_response(
            Response(status=307, headers={"Location": f"/r{hop + 1}"})
        )
    httpserver.expect_request("/r5").respond_with_data("end")
    policy = FetchPolicy(allow_private_addresses=True, max_redirects=3)

    result = fetch(httpserver.url_for("/r0"), policy)

    assert result.problem.code == "fetch.too_many_redirects"
    assert len(httpserver.log) == 4


def test_redirect_to_a_non_http_scheme_is_refused(httpserver):
    httpserver.expect_request("/x").respond_with_response(
        Response(status=302, headers={"Location": "file:///etc/passwd"})
    )

    result = fetch(httpserver.url_for("/x"), LOCAL)

    assert result.problem.code == "fetch.bad_scheme"
    assert result.url == "file:///etc/passwd"


def test_conditional_get_answered_304_is_not_modified(httpserver):
    def conditional(request: Request) -> Response:
        fresh = request.headers.get("If-None-Match") == '"v7"' and request.headers.get("If-Modified-Since")
        return Response(status=304, headers={"ETag": '"v7"'}) if fresh else Response("changed")

    httpserver.expect_request("/meta.csv").respond_with_handler(conditional)

    result = fetch(
        httpserver.url_for("/meta.csv"), LOCAL, etag='"v7"', last_modified="Wed, 01 Oct 2025 10:00:00 GMT"
    )

    assert result.ok
    assert result.not_modified is True
    assert result.status == 304
    assert result.content == b""
    assert result.etag == '"v7"'


def test_unconditional_get_sends_no_validators(httpserver):
    httpserver.expect_request("/meta.csv").respond_with_data("x")

    fetch(httpserver.url_for("/meta.csv"), LOCAL)

    request = httpserver.log[0][0]
    assert "If-None-Match" not in request.headers
    assert "If-Modified-Since" not in request.headers


def test_browser_like_user_agent_is_sent_by_default(httpserver):
    httpserver.expect_request("/").respond_with_data("x")

    fetch(httpserver.url_for("/"), LOCAL)

    agent = httpserver.log[0][0].headers["User-Agent"]
    assert agent == DEFAULT_USER_AGENT
    assert agent.startswith("Mozilla/5.0")


def test_configured_user_agent_is_sent(httpserver):
    httpserver.expect_request("/").respond_with_data("x")

    fetch(httpserver.url_for("/"), FetchPolicy(allow_private_addresses=True, user_agent="harvester/1"))

    assert httpserver.log[0][0].headers["User-Agent"] == "harvester/1"


def test_loopback_server_is_refused_by_default_before_any_request(httpserver):
    httpserver.expect_request("/").respond_with_data("secret")

    result = fetch(httpserver.url_for("/"))

    assert not result.ok
    assert result.problem.code == "fetch.refused_address"
    assert result.problem.location.url == httpserver.url_for("/")
    assert httpserver.log == []


def test_loopback_server_is_reachable_when_private_addresses_are_allowed(httpserver):
    httpserver.expect_request("/").respond_with_data("hello")

    assert fetch(httpserver.url_for("/"), FetchPolicy(allow_private_addresses=True)).content == b"hello"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.8.9.10/",
        "http://10.1.2.3/",
        "http://172.16.0.1/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://2130706433/",
        "http://[::1]/",
        "http://[::]/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://[ff02::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://[2002:a00:1::]/",
        "http://[64:ff9b::a00:1]/",
    ],
)
def test_private_and_special_addresses_are_refused_by_resolution_alone(url):
    result = fetch(url, FetchPolicy(retries=0))

    assert result.problem.code == "fetch.refused_address"
    assert result.status == 0


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.215.14", "2a00:1450:4010:c05::64", "::ffff:8.8.8.8"])
def test_public_addresses_pass_the_guard(address):
    assert is_public_address(ipaddress.ip_address(address))


def test_dns_answering_a_private_address_at_connect_time_is_refused(monkeypatch, httpserver):
    """Rebinding: the first lookup says public, the connection's own lookup says loopback."""
    real_getaddrinfo = socket.getaddrinfo
    answers = iter(["93.184.215.14", "127.0.0.1"])

    def rebinding(host, port, *args, **kwargs):
        if host == "rebind.test":
            address = next(answers)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real_getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(fetch_module.socket, "getaddrinfo", rebinding)
    httpserver.expect_request("/").respond_with_data("secret")

    result = fetch(f"http://rebind.test:{httpserver.port}/", FetchPolicy(retries=0))

    assert result.problem.code == "fetch.refused_address"
    assert result.problem.message() == ("fetching from rebind.test is refused: it is not a public address (a "
                                        "private, local or special-purpose network)")
    assert httpserver.log == []


def test_a_refused_host_name_is_named_without_the_address_it_resolves_to(httpserver):
    """Where an internal name points is the portal's network plan: neither the message nor the kept finding says it."""
    result = fetch(f"http://localhost:{httpserver.port}/", FetchPolicy(retries=0))

    assert result.problem.code == "fetch.refused_address"
    assert result.problem.message() == ("fetching from localhost is refused: it is not a public address (a "
                                        "private, local or special-purpose network)")
    assert "127.0.0.1" not in json.dumps(result.problem.as_dict()) and "::1" not in json.dumps(result.problem.as_dict())


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/list.csv", "gopher://x/", "javascript:alert(1)"])
def test_non_http_schemes_are_refused(url):
    assert fetch(url).problem.code == "fetch.bad_scheme"


@pytest.mark.parametrize("url", ["", "not a url", "http://", "http://host:99999/", "https:///opendata/"])
def test_malformed_urls_are_invalid_url(url):
    result = fetch(url)

    assert not result.ok
    assert result.problem.code == "fetch.invalid_url"


def test_closed_port_is_a_refused_connection_after_retries():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()

    result = fetch(f"http://127.0.0.1:{port}/", FetchPolicy(allow_private_addresses=True, retries=2,
                                                             backoff_factor=0.01))

    assert result.problem.code == "fetch.connection_refused"
    assert result.problem.message() == "127.0.0.1 refused the connection: nothing answers on that port"


def test_an_unresolvable_host_is_named_as_a_name_that_does_not_resolve():
    result = fetch("http://no-such-host.invalid/opendata/", FetchPolicy(retries=0))

    assert result.problem.code == "fetch.name_not_resolved"
    assert result.problem.message() == "the name no-such-host.invalid does not resolve: no such host is known"


def test_a_server_that_does_not_speak_tls_is_a_failed_secure_connection():
    with raw_server(lambda conn, stop: conn.sendall(b"HTTP/1.1 200 OK\r\n\r\nplain")) as url:
        result = fetch(url.replace("http://", "https://"), LOCAL)

    assert result.problem.code == "fetch.tls_failed"
    assert "127.0.0.1" in result.problem.message()


def test_a_connection_closed_mid_answer_is_named_so():
    def half(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly this")
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")

    with raw_server(half) as url:
        result = fetch(url, LOCAL)

    assert result.problem.code == "fetch.connection_reset"


@pytest.mark.parametrize("url", ["http://no-such-host.invalid/", "http://127.0.0.1:1/", "not a url"])
def test_no_fetch_failure_shows_an_exception_to_its_reader(url):
    result = fetch(url, FetchPolicy(allow_private_addresses=True, retries=0))

    for language in (None, RUSSIAN):
        text = result.problem.message(language) if language else result.problem.message()
        assert "Error" not in text and "(host=" not in text and "Max retries" not in text
    assert RUSSIAN(result.problem.template) != result.problem.template  # translated


def test_shared_session_keeps_the_guard(httpserver):
    httpserver.expect_request("/").respond_with_data("x")
    session = make_session(FetchPolicy())

    with session:
        result = fetch(httpserver.url_for("/"), FetchPolicy(), session=session)

    assert result.problem.code == "fetch.refused_address"
    assert httpserver.log == []
