"""The local HTTP server the link-check tests point records to: good files, and paths with faults."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from tests.support.http_site import Fault


@pytest.fixture(scope="module")
def link_site(tmp_path_factory, serve_site):
    root: Path = tmp_path_factory.mktemp("links")
    (root / "data.csv").write_text("kod,nazev\n1,Praha\n", "utf-8")
    (root / "schema.json").write_text('{"fields": []}', "utf-8")
    (root / "docs.html").write_text("<p>Dokumentace</p>", "utf-8")
    (root / "no-head.csv").write_text("kod\n1\n", "utf-8")
    (root / "drops-head.csv").write_text("kod\n1\n", "utf-8")
    # Set only when the module ends: the slow path answers after its cap, long past a link's timeout.
    slow = threading.Event()
    yield serve_site(root, {
        "/no-head.csv": Fault(status=405, methods=("HEAD",)),
        "/drops-head.csv": Fault(drop=True, methods=("HEAD",)),
        "/slow.csv": Fault(hold=slow, delay=5),
    })
    slow.set()
