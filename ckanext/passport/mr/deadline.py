"""Wall-clock limits a slow server cannot stretch: a budget several fetches share, and one fetch's watchdog.

A socket timeout bounds one wait for bytes, so a server sending one byte a second never trips it. The
:class:`Watchdog` of a fetch is handed every socket the fetch opens or reuses and shuts them down from a timer
thread when the deadline passes: whatever read is under way (status line, headers, TLS handshake, chunk
framing, body) returns at once, and the fetch reports ``fetch.timeout``.
"""
from __future__ import annotations

import socket
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Deadline:
    """A point on the monotonic clock, and the budget in seconds it was set with (for messages)."""

    at: float
    seconds: float

    @classmethod
    def after(cls, seconds: float) -> "Deadline":
        return cls(time.monotonic() + max(0.0, seconds), max(0.0, seconds))

    def remaining(self) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.at - time.monotonic())

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.at


def earliest(first: Deadline, second: Optional[Deadline]) -> Deadline:
    return first if second is None or first.at <= second.at else second


class Watchdog:
    """Shuts down the sockets handed to :meth:`watch` when ``deadline`` passes, until :meth:`stop`."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._fired = False
        self._stopped = False
        self._timer = threading.Timer(deadline.remaining(), self._fire)
        self._timer.daemon = True
        self._timer.start()

    @property
    def fired(self) -> bool:
        """Whether the deadline came while the fetch was running (its sockets were shut down)."""
        return self._fired

    def remaining(self) -> float:
        return 0.0 if self._fired else self.deadline.remaining()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            if not self._fired:
                self._sockets.append(sock)
                return
        _shut(sock)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._sockets.clear()
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._fired = True
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    """End every wait on ``sock`` now; ``close`` alone does not wake a thread blocked in ``recv``.

    ``socket.socket.shutdown`` is called on the plain socket even for TLS, whose own ``shutdown`` would first
    drop its SSL object under the reading thread.
    """
    try:
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except (OSError, ValueError):
        pass


# The watchdog of the fetch running in this thread: the connections urllib3 makes and reuses hand it their
# sockets (they are built deep inside requests, out of reach of any argument).
CURRENT: ContextVar[Optional[Watchdog]] = ContextVar("passport_fetch_watchdog", default=None)
