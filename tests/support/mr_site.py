"""A small MR 3.0 site made of the real publications, served by a real local HTTP server (pytest-httpserver).

``/opendata/list.csv`` (written by our registry writer) lists four datasets and one that was never published:

* ``7708234640-okvedva``: Rosstat's ``meta.csv`` (Windows-1251 with a UTF-8 phone), linked directly;
* ``2618017120-politicaldivisions``: a folder holding Predgorny's ``meta.json`` (whose identifier names another
  dataset) beside its RDFa page, linked as a folder, so the machine-readable file is preferred;
* ``7703092752-terorg``: Roshydromet's MR 2.x three-column passport, published as ``meta.csv``;
* ``7710000000-missing``: a link to nothing.

The RDFa page is also served alone at ``…/2618017120-politicaldivisions/index.php``.
"""
from __future__ import annotations

from pathlib import Path

from pytest_httpserver import HTTPServer

from ckanext.passport.mr.model import STANDARD_3_0, Registry, RegistryEntry
from ckanext.passport.mr.writers.registry import write_registry

REAL = Path(__file__).parent.parent / "fixtures" / "real"
PREDGOR = "predgor/2618017120-politicaldivisions"

# path on the site -> (fixture file, content type)
FILES = {
    "/opendata/7708234640-okvedva/meta.csv": ("rosstat-okved2/meta.csv", "text/csv"),
    "/opendata/2618017120-politicaldivisions/meta.json": (f"{PREDGOR}/meta.json", "application/json"),
    "/opendata/2618017120-politicaldivisions/": (f"{PREDGOR}/index.php", "text/html; charset=utf-8"),
    "/opendata/2618017120-politicaldivisions/index.php": (f"{PREDGOR}/index.php", "text/html; charset=utf-8"),
    "/opendata/7703092752-terorg/meta.csv": ("meteorf-terorg/meta.csv", "text/csv"),
}
ENTRIES = [
    ("7708234640-okvedva", "Общероссийский классификатор видов экономической деятельности (ОКВЭД2)",
     "/opendata/7708234640-okvedva/meta.csv", "csv"),
    ("2618017120-politicaldivisions", "Административно-территориальное деление Предгорного района",
     "/opendata/2618017120-politicaldivisions/", "json"),
    ("7703092752-terorg", "Перечень территориальных органов Росгидромета",
     "/opendata/7703092752-terorg/meta.csv", "csv"),
    ("7710000000-missing", "Набор, который не опубликован", "/opendata/7710000000-missing/", "csv"),
]


def serve_mr_site(server: HTTPServer) -> str:
    """Serve the site on ``server`` and return its root URL; unknown paths answer 404 as real sites do."""
    server.no_handler_status_code = 404
    registry = Registry(STANDARD_3_0, [RegistryEntry(identifier, title, server.url_for(path), form)
                                       for identifier, title, path, form in ENTRIES])
    server.expect_request("/opendata/list.csv").respond_with_data(
        write_registry(registry, "list.csv"), content_type="text/csv; charset=utf-8")
    for path, (fixture, content_type) in FILES.items():
        server.expect_request(path).respond_with_data((REAL / fixture).read_bytes(), content_type=content_type)
    return server.url_for("/")
