"""Fetching from servers on loopback: the fetch policies that allow it, and a raw socket server for the tests that
need byte-level control (slow drip, chunked bodies, stalls)."""
from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from ckanext.passport.mr.fetch import FetchPolicy

LOCAL = FetchPolicy(allow_private_addresses=True, retries=0, backoff_factor=0.01, total_timeout=5)
# The site check's policy: a whole site read within a deadline.
LOCAL_SITE_CHECK = FetchPolicy(connect_timeout=5, read_timeout=5, total_timeout=20, allow_private_addresses=True)


@contextmanager
def raw_server(handle: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """A loopback server that reads one request per connection and lets ``handle`` write raw bytes."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.05)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            with conn:
                try:
                    conn.recv(65536)
                    handle(conn, stop)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/data.csv"
    finally:
        stop.set()
        thread.join(2)
        listener.close()
