"""A capped head read: the first bytes of a file, asked for with ``Range`` and never read past the cap.

A data check only needs a data file's header; data files are often tens of megabytes. A head read sends
``Range: bytes=0-<N-1>``, keeps at most N bytes whether the server honours the range (206) or ignores it (200
with the whole file), and says whether the file went on. A cut head is no ``fetch.too_large`` error.
"""
from __future__ import annotations

from werkzeug import Request, Response

from ckanext.passport.mr.fetch import FetchPolicy, fetch

from tests.support.loopback import LOCAL, raw_server

BODY = "".join(f"{n};строка {n}\n" for n in range(5000)).encode("utf-8")


def ranged(request: Request) -> Response:
    """A server that honours ``Range: bytes=a-b`` as RFC 9110 says (206 and Content-Range)."""
    header = request.headers.get("Range", "")
    if not header.startswith("bytes="):
        return Response(BODY, content_type="text/csv")
    first, _, last = header[len("bytes="):].partition("-")
    part = BODY[int(first):int(last) + 1]
    return Response(part, status=206, content_type="text/csv",
                    headers={"Content-Range": f"bytes {first}-{int(first) + len(part) - 1}/{len(BODY)}"})


def test_a_head_read_asks_for_the_first_bytes_only_and_knows_the_file_goes_on(httpserver):
    httpserver.expect_request("/data.csv").respond_with_handler(ranged)

    result = fetch(httpserver.url_for("/data.csv"), LOCAL, head_bytes=1024)

    assert (result.ok, result.status, result.truncated, result.problem) == (True, 206, True, None)
    assert result.content == BODY[:1024]
    assert httpserver.log[0][0].headers["Range"] == "bytes=0-1023"


def test_a_server_ignoring_range_is_read_up_to_the_cap_and_no_further(serve_site, tmp_path):
    (tmp_path / "data.csv").write_bytes(BODY)
    site = serve_site(tmp_path)  # the standard library's file server knows no Range

    result = fetch(f"{site.url}/data.csv", LOCAL, head_bytes=1000)

    assert (result.ok, result.status, result.truncated, result.problem) == (True, 200, True, None)
    assert result.content == BODY[:1000]


def test_a_file_shorter_than_the_head_is_read_whole_and_not_truncated(serve_site, tmp_path):
    (tmp_path / "data.csv").write_bytes(BODY[:300])
    site = serve_site(tmp_path)

    result = fetch(f"{site.url}/data.csv", LOCAL, head_bytes=1000)

    assert (result.ok, result.truncated, result.content) == (True, False, BODY[:300])


def test_a_head_is_no_too_large_error_even_when_the_file_is_over_the_fetch_cap(httpserver):
    httpserver.expect_request("/data.csv").respond_with_data(BODY, content_type="text/csv")
    small = FetchPolicy(allow_private_addresses=True, retries=0, total_timeout=5, max_bytes=2048)

    whole = fetch(httpserver.url_for("/data.csv"), small)
    head = fetch(httpserver.url_for("/data.csv"), small, head_bytes=512)

    assert whole.problem.code == "fetch.too_large"
    assert (head.ok, head.truncated, len(head.content)) == (True, True, 512)


def test_the_fetch_cap_still_bounds_a_head_asked_for_beyond_it(httpserver):
    httpserver.expect_request("/data.csv").respond_with_data(BODY, content_type="text/csv")
    small = FetchPolicy(allow_private_addresses=True, retries=0, total_timeout=5, max_bytes=2048)

    head = fetch(httpserver.url_for("/data.csv"), small, head_bytes=10_000)

    assert (head.ok, head.truncated, len(head.content)) == (True, True, 2048)


def test_an_endless_body_from_a_server_ignoring_range_stops_at_the_head():
    def endless(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"1000\r\n" + b"x" * 0x1000 + b"\r\n")

    with raw_server(endless) as url:
        result = fetch(url, LOCAL, head_bytes=64 * 1024)

    assert (result.ok, result.truncated, len(result.content)) == (True, True, 64 * 1024)


def test_a_missing_file_is_still_not_found_in_a_head_read(httpserver):
    httpserver.no_handler_status_code = 404

    result = fetch(httpserver.url_for("/gone.csv"), LOCAL, head_bytes=1024)

    assert (result.ok, result.problem.code) == (False, "fetch.not_found")


def test_an_empty_file_answered_416_is_an_empty_head(httpserver):
    httpserver.expect_request("/empty.csv").respond_with_data(b"", status=416)

    result = fetch(httpserver.url_for("/empty.csv"), LOCAL, head_bytes=1024)

    assert (result.ok, result.content, result.truncated) == (True, b"", False)


def test_a_whole_read_sends_no_range(httpserver):
    httpserver.expect_request("/data.csv").respond_with_handler(ranged)

    result = fetch(httpserver.url_for("/data.csv"), LOCAL)

    assert (result.status, result.truncated, result.content) == (200, False, BODY)
    assert "Range" not in httpserver.log[0][0].headers


def test_a_streamed_head_is_handed_on_piece_by_piece_and_never_kept(serve_site, tmp_path):
    (tmp_path / "data.csv").write_bytes(BODY)
    site = serve_site(tmp_path)  # no Range: the server sends the whole file, the read stops at the cap
    pieces: list[bytes] = []
    types: list[str] = []

    def start(answer):
        types.append(answer.content_type)
        return pieces.append

    result = fetch(f"{site.url}/data.csv", LOCAL, head_bytes=100_000, stream=start)

    assert (result.ok, result.truncated, result.content, types) == (True, True, b"", ["text/csv"])
    assert b"".join(pieces) == BODY[:100_000] and len(pieces) > 1
