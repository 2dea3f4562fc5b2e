"""What the benchmarks share, so that no benchmark imports another (``tests/test_bench_imports.py`` holds them to it).

- :mod:`support.measure`: a process's memory, the median of repeated calls, wall time, a free port;
- :mod:`support.mr_site`: the generated MR site (passports in six forms and their registry);
- :mod:`support.database`: the bench database (``ckan_bench``), its preparation, and test.ini's configuration;
- :mod:`support.harvest`: one harvest job run in process or by consumer processes, and what it left;
- :mod:`support.server`: this CKAN served in a child process, and the records the servers' benchmarks create;
- :mod:`support.conformance_tab`: a sysadmin's API token and the Conformance tab as a sysadmin opens it.

Importing the package puts the repository's root on ``sys.path`` and imports the suite's package ``tests`` from it:
``tests.support`` (the suite's HTTP site, brokers and fixtures) is imported from there, even after CKAN's search
module has put its own folder, which holds CKAN's ``tests``, first on ``sys.path``.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
INI = ROOT / "test.ini"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests  # noqa: E402, F401
