"""A portal's harvest machinery as child processes of a test, the processes `make demo` starts.

The gather consumer, one fetch consumer, the periodic `ckan harvester run` (dev/harvest-cron.sh, the demo's own
loop) and `ckan jobs worker`, over a configuration file and the test's environment: its database and site id.
ckanext-harvest's queue names and CKAN's job queues carry the site id, so suites running side by side never
take each other's work.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator, Mapping, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
CKAN = str(Path(sys.executable).parent / "ckan")
COMMANDS = {
    "gather-consumer": [CKAN, "harvester", "gather-consumer"],
    "fetch-consumer": [CKAN, "harvester", "fetch-consumer"],
    "harvest-cron": [str(ROOT / "dev" / "harvest-cron.sh")],
    "jobs-worker": [CKAN, "jobs", "worker"],
}


class HarvestProcesses:
    """The four processes, each leading a process group of its own so that stopping it stops its children too."""

    def __init__(self, ini: Path, logs: Path, commands: Optional[Mapping[str, list[str]]] = None,
                 env: Optional[dict[str, str]] = None) -> None:
        """``commands``: name → command line to run (default :data:`COMMANDS`); ``env``: variables over the test's
        own (CKAN reads ``CKAN_*`` variables over its configuration file)."""
        self.ini = ini
        self.logs = logs
        self.commands = dict(commands if commands is not None else COMMANDS)
        self.env = env or {}
        self.groups: dict[str, subprocess.Popen] = {}

    def start(self) -> "HarvestProcesses":
        # CKAN: the command harvest-cron.sh runs
        env = {**os.environ, "CKAN_INI": str(self.ini), "CKAN": CKAN, **self.env}
        for name, command in self.commands.items():
            with (self.logs / f"{name}.log").open("wb") as log:
                self.groups[name] = subprocess.Popen(
                    command, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        return self

    def stop(self) -> None:
        """SIGTERM to every group, as `dev/demo.sh stop` sends it; SIGKILL to what is still there after 20 s."""
        for process in self.groups.values():
            _signal_group(process.pid, signal.SIGTERM)
        for process in self.groups.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait()

    def running(self) -> list[str]:
        """`ps` lines of every live process in the machinery's groups (zombies are not running)."""
        groups = {process.pid for process in self.groups.values()}
        listing = subprocess.run(["ps", "-ww", "-e", "-o", "pgid=,pid=,stat=,args="], capture_output=True, text=True, check=True)
        return [
            line.strip()
            for line in listing.stdout.splitlines()
            if int(line.split()[0]) in groups and not line.split()[2].startswith("Z")
        ]

    def log_tails(self, lines: int = 30) -> str:
        """The end of each process's log: what a failing test prints to say why a job did not finish."""
        return "\n".join(
            f"== {name}\n" + "\n".join((self.logs / f"{name}.log").read_text(errors="replace").splitlines()[-lines:])
            for name in self.groups
        )


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


@pytest.fixture
def harvest_machinery(empty_db, tmp_path: Path) -> Iterator[HarvestProcesses]:
    """The machinery over test.ini, started after the database is reset and stopped after the test."""
    logs = tmp_path / "harvest-logs"
    logs.mkdir()
    processes = HarvestProcesses(ROOT / "test.ini", logs).start()
    try:
        yield processes
    finally:
        processes.stop()
