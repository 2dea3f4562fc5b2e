"""The suite's own services failed and brought back the ways an operator meets it, and the fetch consumer killed.

A service comes back through the project's own runner, ``dev/services.sh start`` (idempotent: it starts what is down
and waits until each service answers), with the variables the Makefile gives it (FAULT_SERVICES_ENV: the name,
folder, ports, core and database of the service-fault tests' own set of services); PostgreSQL restarts through
Debian's ``pg_ctlcluster``.
Every command runs in a session of its own, so that a service it starts is no child of the test's process group
(a Ctrl-C of the run would otherwise stop Solr with it).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from tests.support.harvest_processes import HarvestProcesses

ROOT = Path(__file__).resolve().parents[2]
# The set of services these tests act on: `make test` gives them their own (dev/services.sh's SERVICES_NAME and
# SERVICES_RUN); a file run by hand acts on the default set.
RUN = Path(os.environ.get("SERVICES_RUN", ROOT / "dev" / "run"))
PG_CLUSTER = os.environ.get("SERVICES_NAME", "passport")

# A fault acts on the running machinery (or on a service beside it) and returns once the service is back.
Fault = Callable[[HarvestProcesses], None]


def start_services() -> None:
    # Without the Makefile's variables (a single file run by hand) the Solr schema comes from this interpreter's CKAN.
    env = {"VENV": sys.prefix, **os.environ}
    started = _run([str(ROOT / "dev" / "services.sh"), "start"], env=env, timeout=300)
    assert started.returncode == 0, f"dev/services.sh start failed:\n{started.stdout}"


def kill_fetch_consumer(processes: HarvestProcesses) -> None:
    """SIGKILL to the fetch consumer itself, not to dev/supervise.sh above it (which starts it again 2 s later)."""
    os.kill(supervised_pid(processes, "fetch-consumer"), signal.SIGKILL)


def kill_for(service: str, seconds: float) -> Fault:
    """SIGKILL to a service dev/services.sh runs (``solr``, ``redis``: its pid file in dev/run), started again by
    dev/services.sh ``seconds`` later. Redis runs without persistence there: it comes back with every queue empty."""

    def fault(_: HarvestProcesses) -> None:
        _kill(RUN / f"{service}.pid", signal.SIGKILL)
        time.sleep(seconds)
        start_services()

    fault.__name__ = f"{service} killed for {seconds:g} s"
    return fault


def restart_rabbitmq(_: HarvestProcesses) -> None:
    """A broker restart (SIGTERM: RabbitMQ stops cleanly, as `systemctl restart` stops it); durable queues and their
    persistent messages survive it."""
    _kill(RUN / "rabbitmq" / "rabbitmq.pid", signal.SIGTERM)
    start_services()


def restart_postgres(_: HarvestProcesses) -> None:
    """``restart -m fast``: every session is ended, each open transaction rolled back."""
    from ckan import model

    model.Session.remove()  # the test's own transaction ends while the server is there to take its rollback
    restarted = _run(["pg_ctlcluster", _cluster_version(), PG_CLUSTER, "restart", "-m", "fast"], timeout=120)
    assert restarted.returncode == 0, f"pg_ctlcluster restart failed:\n{restarted.stdout}"
    # The test's pooled connections died with the server: the next query must open new ones.
    model.meta.engine.dispose()


def supervised_pid(processes: HarvestProcesses, name: str) -> int:
    """The pid of the command dev/supervise.sh runs as ``name``: in the supervisor's group, not the supervisor (the
    group's leader), and named ``name`` (not the supervisor's `sleep` between two starts)."""
    leader = processes.groups[name].pid
    group = [int(line.split()[1]) for line in processes.running() if int(line.split()[0]) == leader]
    # The command line from /proc: `ps` cuts its args column to the terminal's width (80 without one, as under make).
    children = [pid for pid in group if pid != leader and name.encode() in _command_line(pid)]
    assert len(children) == 1, f"{name}: expected one supervised process, found {processes.running()}"
    return children[0]


def _kill(pid_file: Path, signum: int, seconds: float = 60) -> None:
    """Signal the process a pid file names and wait until it is gone (a zombie counts as gone)."""
    pid = int(pid_file.read_text().split()[0])
    os.kill(pid, signum)
    deadline = time.monotonic() + seconds
    while _alive(pid):
        assert time.monotonic() < deadline, f"{pid_file.name}: process {pid} still alive {seconds:g} s after signal {signum}"
        time.sleep(0.2)


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _cluster_version() -> str:
    """The PostgreSQL version of the suite's cluster (``pg_lsclusters`` rows: version, name, port, …)."""
    clusters = _run(["pg_lsclusters", "-h"], timeout=30).stdout.splitlines()
    return next(row.split()[0] for row in clusters if row.split()[1] == PG_CLUSTER)


def _run(command: list[str], timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The command's output goes to a file, not a pipe: a daemon it starts may keep the inherited descriptor open, and
    a pipe would then never end."""
    with tempfile.TemporaryFile() as output:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                              timeout=timeout, env=env, start_new_session=True)
        output.seek(0)
        done.stdout = output.read().decode(errors="replace")
    return done
