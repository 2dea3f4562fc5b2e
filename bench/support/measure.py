"""A process's memory, the median of repeated calls, wall time and a free port: the measuring every benchmark does."""
from __future__ import annotations

import socket
import statistics
import time
from pathlib import Path
from typing import Any, Callable


def memory_kib(field: str, pid: object = "self") -> int:
    """``field`` (``VmRSS``, ``VmHWM``) of process ``pid``'s status, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def reset_peak(pid: object = "self") -> None:
    # Writing 5 to clear_refs resets the peak resident set (VmHWM) to the current one: the peak read after
    # the work is the work's, not the imports' and the app's.
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def p50(call: Callable[[], Any], samples: int, warm: int = 1) -> tuple[float, Any]:
    """The median of ``samples`` timed calls after ``warm`` untimed ones (the first pay for imports and caches), and
    the last call's value."""
    value = None
    for _ in range(warm):
        value = call()
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        value = call()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings), value


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
