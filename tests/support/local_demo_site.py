"""The bundled demo MR site with its links kept at home: a copy whose passports link their data and structure
files on the local server instead of on the publishers' real hosts.

The demo site's passports are real publications: their data and structure links name rosstat.gov.ru and the
like. A site check reads those files (the data check), and tests reach nothing outside the machine, so the copy
points every such link at the same path on the local server (where the files are, or a 404 where the real
publication never was copied). Plain byte replacement: the links are ASCII in every encoding the site uses.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

from tests.support.demo_site import DEMO_SITE
from tests.support.http_site import Site

# Each real host (and path prefix) of a data or structure link → where the same file is on the local copy.
REAL_HOSTS = {
    b"https://rosstat.gov.ru": b"",
    b"http://opendata.predgor-ray.ru": b"/opendata",
    b"https://zhabinda.github.io/github_page_example": b"",
}


def local_demo_site(root: Path, serve_site: Callable[..., Site]) -> Site:
    """Copy the demo site to ``root``, serve it, and point its passports' links at the served copy."""
    shutil.copytree(DEMO_SITE, root)
    site = serve_site(root)
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for host, prefix in REAL_HOSTS.items():
                data = data.replace(host, site.url.encode("ascii") + prefix)
            path.write_bytes(data)
    return site
