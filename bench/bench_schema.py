"""package_create with the Czech catalog schema vs ckanext-scheming's default dataset schema.

Both run on the real stack (PostgreSQL, Solr, Redis) against the same database, side by side: rounds
alternate between the two schemas, each round a fresh process (the schema is fixed when CKAN loads) that
creates the same number of datasets, one resource each, and purges them afterwards. The figure is the
ratio of median package_create times; the target is <= 1.30 (the schema adds at most 30%).

Database and Solr core are test.ini's unless CKAN_SQLALCHEMY_URL / CKAN_SITE_ID say otherwise (CKAN reads
both from the environment). Run from the repository root: `.venv/bin/python bench/bench_schema.py`.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INI = ROOT / "test.ini"
SCHEMAS = {
    "default": "ckanext.scheming:ckan_dataset.yaml",
    "passport": "ckanext.passport.catalog:schemas/dataset.yaml",
}
ROUNDS = 4
DATASETS_PER_ROUND = 25
WARM_UP = 3
TARGET = 1.30


def default_dataset(name: str, owner_org: str) -> dict:
    return {
        "name": name, "title": "Obyvatelstvo obcí", "notes": "Počet obyvatel všech obcí České republiky.",
        "owner_org": owner_org, "tag_string": "obyvatelstvo,obce", "license_id": "cc-by",
        "url": "https://www.czso.cz", "version": "1.0", "author": "ČSÚ", "author_email": "infoservis@czso.cz",
        "maintainer": "ČSÚ", "maintainer_email": "infoservis@czso.cz",
        "resources": [{"name": "Obyvatelstvo 2024", "url": "https://data.example.cz/obyvatelstvo-2024.csv",
                       "description": "Počet obyvatel obcí", "format": "CSV"}],
    }


def passport_dataset(name: str, owner_org: str) -> dict:
    return {
        "name": name, "title": "Obyvatelstvo obcí", "notes": "Počet obyvatel všech obcí České republiky.",
        "owner_org": owner_org, "tag_string": "obyvatelstvo,obce", "license_id": "cc-by",
        "record_language": "cs", "record_validity": "valid",
        "publisher_id_scheme": "ico", "publisher_id": "00025593", "publisher_name": "Český statistický úřad",
        "publisher_url": "https://www.czso.cz", "publisher_email": "infoservis@czso.cz",
        "openness_conditions": {"complete": "yes", "accessible": "yes", "machine_readable": "yes",
                                "open_format": "yes", "open_terms": "yes", "free": "yes"},
        "license_url": "https://creativecommons.org/licenses/by/4.0/",
        "isvs_name": "Veřejná databáze ČSÚ", "isvs_ref": "ISVS-0042",
        "isdp_elements": [{"name": "Kód obce", "ref": "ISDP-OBEC-KOD"}],
        "related_records": [{"title": "Obyvatelstvo 2023", "relation": "replaces",
                             "url": "https://data.example.cz/zaznam/2023"}],
        "eurovoc": [{"uri": "http://eurovoc.europa.eu/100210"}, {"uri": "http://eurovoc.europa.eu/100146"}],
        "cz_nace": ["84"], "spatial_area": "CZ0642",
        "resources": [{"name": "Obyvatelstvo 2024", "url": "https://data.example.cz/obyvatelstvo-2024.csv",
                       "description": "Počet obyvatel obcí", "format": "CSV", "format_label": "CSV",
                       "source_type": "file", "language": "cs", "mimetype": "text/csv",
                       "format_docs": ["https://www.rfc-editor.org/rfc/rfc4180"],
                       "schema_urls": ["https://data.example.cz/obyvatelstvo.schema.json"],
                       "size": 123456, "last_modified": "2024-02-01"}],
    }


def measure(schema: str) -> list[float]:
    """One round in this process: the seconds each package_create took."""
    from ckan.cli import load_config
    from ckan.config.middleware import make_app

    config = load_config(str(INI))
    config["scheming.dataset_schemas"] = SCHEMAS[schema]
    app = make_app(config)
    import ckan.model as model
    from ckan.plugins import toolkit as tk

    build = passport_dataset if schema == "passport" else default_dataset
    with app._wsgi_app.test_request_context():
        site_user = tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"]
        context = lambda: {"user": site_user, "ignore_auth": True, "model": model}  # noqa: E731
        org_name = f"bench-{uuid.uuid4().hex[:10]}"
        org = tk.get_action("organization_create")(context(), {"name": org_name})
        created, timings = [], []
        try:
            for index in range(WARM_UP + DATASETS_PER_ROUND):
                name = f"bench-{schema}-{uuid.uuid4().hex[:12]}"
                started = time.perf_counter()
                tk.get_action("package_create")(context(), build(name, org["id"]))
                elapsed = time.perf_counter() - started
                created.append(name)
                if index >= WARM_UP:
                    timings.append(elapsed)
        finally:
            for name in created:
                tk.get_action("dataset_purge")(context(), {"id": name})
            tk.get_action("organization_purge")(context(), {"id": org["id"]})
    return timings


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--round":
        print(json.dumps(measure(sys.argv[2])))
        return 0
    timings: dict[str, list[float]] = {name: [] for name in SCHEMAS}
    for _ in range(ROUNDS):
        for schema in SCHEMAS:
            child = subprocess.run(
                [sys.executable, __file__, "--round", schema], cwd=ROOT, env=os.environ,
                capture_output=True, text=True, check=False,
            )
            if child.returncode != 0:
                print(child.stderr[-3000:], file=sys.stderr)
                return 1
            timings[schema].extend(json.loads(child.stdout.strip().splitlines()[-1]))
    medians = {name: statistics.median(values) for name, values in timings.items()}
    ratio = medians["passport"] / medians["default"]
    count = ROUNDS * DATASETS_PER_ROUND
    print(f"package_create median over {count} datasets per schema ({ROUNDS} alternating rounds):")
    print(f"  ckanext-scheming default schema: {medians['default'] * 1000:.1f} ms")
    print(f"  Czech catalog schema:            {medians['passport'] * 1000:.1f} ms")
    # A benchmark, not a test: a missed target is printed, not failed on.
    print(f"  ratio {ratio:.2f} (target <= {TARGET:.2f}) {'ok' if ratio <= TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
