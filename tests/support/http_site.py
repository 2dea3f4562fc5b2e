"""A real HTTP server on 127.0.0.1 serving a folder as an MR site, with faults on chosen paths.

Files are served by the standard library's file handler (Last-Modified, If-Modified-Since → 304, real
content types), so harvests exercise real HTTP: encodings, headers, redirects and timeouts.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class Fault:
    """What a path answers instead of its file: a status, a delay, a redirect or given bytes.

    ``hold`` keeps the answer back until the test sets the event (or ``delay`` seconds pass, as a cap), so a
    test can watch a client mid-request on a machine of any speed. ``headers`` are sent besides (a
    ``Set-Cookie``, say). ``methods`` are the requests it answers (``("HEAD",)``: a server refusing HEAD while
    GET gets the file); ``drop`` closes the connection without an answer.
    """

    status: int = 200
    delay: float = 0.0
    hold: Optional[threading.Event] = None
    location: Optional[str] = None
    body: Optional[bytes] = None
    content_type: str = "text/plain; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()
    methods: tuple[str, ...] = ("GET", "HEAD")
    drop: bool = False


class _Handler(SimpleHTTPRequestHandler):
    faults: dict[str, Fault] = {}
    hits: list[str]
    cookies: list[tuple[str, str]]
    accepts: list[tuple[str, str]]
    requests: list[tuple[str, str]]

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is for the tests."""

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.cookies.append((self.path, self.headers.get("Cookie", "")))
        self.accepts.append((self.path, self.headers.get("Accept", "")))
        self._answer("GET")

    def do_HEAD(self) -> None:
        self._answer("HEAD")

    def _answer(self, method: str) -> None:
        self.requests.append((method, self.path))
        fault = self.faults.get(self.path.split("?", 1)[0])
        if fault is None or method not in fault.methods:
            if method == "GET":
                super().do_GET()
            else:
                super().do_HEAD()
            return
        if fault.drop:
            self.close_connection = True
            return
        if fault.hold is not None:
            fault.hold.wait(fault.delay or None)
        elif fault.delay:
            time.sleep(fault.delay)
        self.send_response(fault.status)
        if fault.location:
            self.send_header("Location", fault.location)
        body = fault.body or b""
        self.send_header("Content-Type", fault.content_type)
        for name, value in fault.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if method == "HEAD":
            return
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Site:
    def __init__(self, root: Path, faults: Optional[dict[str, Fault]] = None) -> None:
        self.root = root
        self.hits: list[str] = []
        # (path, the request's Cookie header or "") of every request, in order.
        self.cookies: list[tuple[str, str]] = []
        # (path, the request's Accept header or "") of every GET, in order.
        self.accepts: list[tuple[str, str]] = []
        # (method, path) of every request, HEAD included, in order.
        self.requests: list[tuple[str, str]] = []
        handler = type("SiteHandler", (_Handler,), {"faults": dict(faults or {}), "hits": self.hits,
                                                    "cookies": self.cookies, "accepts": self.accepts,
                                                    "requests": self.requests})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._faults = handler.faults

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def fault(self, path: str, fault: Fault) -> None:
        self._faults[path] = fault

    def start(self) -> "Site":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
