"""Harvesting a Czech local catalog of mixed norms with the ``lkod`` harvester, against ckanext-dcat's RDF harvester
reading the same datasets, both through the demo's processes.

A 200-dataset catalog (``LKOD_NORMS_DATASETS``) in 2021-01-11 lists dataset documents half in 2021-01-11 and half
in 2024-05-28 (the norm's official example, each its own IRI and title), served by the suite's real HTTP server
(``tests/support/http_site.py``). Each first harvest runs as on the demo: a gather consumer and fetch
consumers, ``ckan harvester`` processes on RabbitMQ, carry the job this process starts and runs ``harvest_jobs_run``
for until it is finished (``support.harvest.through_consumers``). Ours is timed against ckanext-dcat's ``dcat_rdf``
harvester landing the same datasets from one Turtle document holding their graphs (it dereferences no dataset IRI:
its one document is the fairest reading of "the same documents"), its profile's distributions mapped onto the
catalog schema as a portal would (``dcat_harvester`` below, installed in its consumers by ``as_a_portal``). Prints
each time and the ratio ours / dcat's (target <= 1: the issue asks that ours stay within dcat's time). Database
and Solr core are the harvest benchmarks' (``ckan_bench``; BENCH_DATABASE and BENCH_SITE_ID for a run beside others).
Run from the repository root: ``.venv/bin/python bench/bench_lkod_norms.py``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from support import ROOT, harvest
from support.database import bench_env, empty_database, ensure_database
from support.harvest import configured, landed, outcome, through_consumers

DATASETS = int(os.environ.get("LKOD_NORMS_DATASETS", "200"))
EXAMPLES_2024 = ROOT / "tests" / "fixtures" / "dcat-ap-cz" / "příklady" / "datová-sada.jsonld"
EXAMPLES_2021 = ROOT / "tests" / "fixtures" / "dcat-ap-cz-2021" / "příklady" / "datová-sada.jsonld"
VLD = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
# RabbitMQ: the job starts once every consumer has subscribed (brokers.wait_for_consumers), so the time is the
# harvest's, not the consumers' start (Redis consumers pull: no way to wait for them).
BROKER = "amqp"


def build(root: Path, url: str) -> None:
    """The catalog and its dataset documents under ``root``, and ``dcat.ttl``: the same datasets in one graph."""
    import rdflib

    from ckanext.passport.lkod import documents, norms

    texts = {norms.NORM_2021: EXAMPLES_2021.read_text("utf-8"), norms.NORM_2024: EXAMPLES_2024.read_text("utf-8")}
    (root / "lkod").mkdir(parents=True)
    merged = rdflib.Graph()
    iris = []
    for number in range(DATASETS):
        norm = norms.NORM_2021 if number % 2 else norms.NORM_2024
        iri = f"{url}/lkod/sada-{number:04d}.jsonld"
        text = texts[norm].replace(VLD, iri).replace("Jízdní řády veřejné linkové dopravy",
                                                      f"Jízdní řády veřejné linkové dopravy {number}")
        (root / "lkod" / f"sada-{number:04d}.jsonld").write_text(text, "utf-8")
        documents.read_graph(text.encode(), iri, "application/ld+json", graph=merged)
        iris.append(iri)
    catalog_iri = f"{url}/lkod/katalog.jsonld"
    catalog = {"@context": norms.CONTEXT_2021, "iri": catalog_iri, "typ": "Katalog",
               "název": {"cs": "Katalog kraje"}, "datová_sada": iris}
    (root / "lkod" / "katalog.jsonld").write_text(json.dumps(catalog, ensure_ascii=False), "utf-8")
    dcat = rdflib.Namespace("http://www.w3.org/ns/dcat#")
    merged.add((rdflib.URIRef(f"{url}/dcat.ttl"), rdflib.RDF.type, dcat.Catalog))
    for iri in iris:
        merged.add((rdflib.URIRef(f"{url}/dcat.ttl"), dcat.dataset, rdflib.URIRef(iri)))
    (root / "dcat.ttl").write_text(merged.serialize(format="turtle"), "utf-8")


def dcat_harvester() -> Any:
    """``support.harvest``'s ``dcat_rdf`` harvester (its catalog-field moves kept), with what a portal harvesting DCAT-AP-CZ
    into our catalog schema would add: the profile keeps a distribution's format and media type as the EU file-type
    and IANA IRIs the norm writes, and the schema holds a format label and a media type (it refuses the IRI); the
    records are Czech."""
    from ckanext.passport.lkod import iris

    harvester = harvest.dcat_harvester()
    to_catalog_fields = harvester.modify_package_dict

    def to_czech_records(package_dict: dict, temp_dict: dict, harvest_object: Any) -> dict:
        package_dict = to_catalog_fields(package_dict, temp_dict, harvest_object)
        package_dict["record_language"] = "cs"
        for resource in package_dict.get("resources", []):
            resource["format"] = iris.format_label(resource.get("format")) or resource.get("format", "")
            resource["mimetype"] = iris.media_type(resource.get("mimetype")) or ""
        return package_dict

    harvester.modify_package_dict = to_czech_records
    return harvester


def as_a_portal() -> None:
    """In a ``dcat_rdf`` consumer process (its ``sitecustomize``, see :func:`consumer_env`): the harvester's
    mapping above and bench_harvest.py's lenient validation, before CKAN loads the plugin (a SingletonPlugin: the
    instance patched here is the one it loads)."""
    from ckanext.passport.catalog.record import validators

    dcat_harvester()
    validators.harvesting = lambda context: True


def consumer_env(kind: str, folder: Path) -> dict[str, str]:
    """The consumers' variables: for ``dcat``, a ``sitecustomize`` that calls :func:`as_a_portal`."""
    env: dict[str, str] = {}
    if kind == "dcat":
        (folder / "sitecustomize.py").write_text(
            f"import sys\nsys.path[:0] = [{str(ROOT / 'bench')!r}, {str(ROOT)!r}]\n"
            "import bench_lkod_norms\nbench_lkod_norms.as_a_portal()\n", "utf-8")
        env["PYTHONPATH"] = str(folder)
    return env


def child(kind: str, url: str) -> dict[str, Any]:
    """One first harvest of ``url`` through the demo's processes: a gather consumer and fetch consumers
    (``support.harvest.through_consumers``), this process starting the job as the portal's cron does."""
    import ckan.plugins.toolkit as tk
    from ckan.config.middleware import make_app
    from ckan.lib.search import clear_all

    from tests.support.brokers import BROKERS

    config = configured()
    config.update(BROKERS[BROKER])
    app = make_app(config)
    with app._wsgi_app.test_request_context(), tempfile.TemporaryDirectory() as folder:
        clear_all()
        context = {"user": tk.get_action("get_site_user")({"ignore_auth": True}, {})["name"], "ignore_auth": True}
        org = tk.get_action("organization_create")(dict(context), {"name": f"bench-{kind}"})
        config = {"rdf_format": "turtle"} if kind == "dcat" else {"allow_private_addresses": True}
        source = tk.get_action("harvest_source_create")(dict(context), {
            "name": f"bench-{kind}-source", "title": f"Bench {kind}", "url": url, "owner_org": org["id"],
            "source_type": "dcat_rdf" if kind == "dcat" else "lkod", "config": json.dumps(config)})
        # Both harvesters' plugins in both sides' consumers (``support.harvest.configured``'s list): neither pays for the
        # other's absence.
        plugins = {"ckan.plugins": configured()["ckan.plugins"]}
        result = through_consumers(source["id"], BROKER, consumer_env(kind, Path(folder)), plugins)
        return {**result, **outcome(result["job_id"]), "landed": landed()}


def run_child(kind: str, url: str) -> dict[str, Any]:
    empty_database()
    done = subprocess.run([sys.executable, __file__, "--run", kind, url], env=bench_env(), cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    from tests.support.http_site import Site

    ensure_database()
    with tempfile.TemporaryDirectory() as folder:
        site = Site(Path(folder)).start()
        try:
            build(Path(folder), site.url)
            ours = run_child("lkod", f"{site.url}/lkod/katalog.jsonld")
            theirs = run_child("dcat", f"{site.url}/dcat.ttl")
        finally:
            site.stop()
    print(f"{DATASETS}-dataset catalog, 2021-01-11 listing half 2021-01-11, half 2024-05-28 documents")
    for name, result in (("lkod (ours)", ours), ("dcat_rdf", theirs)):
        print(f"  {name}: {result['seconds']:.1f} s, landed {result['landed']}, statuses {result['statuses']}"
              + (f", errors {result['errors']}" if result["errors"] else ""))
    print(f"  ratio lkod / dcat_rdf: {ours['seconds'] / theirs['seconds']:.2f} (within dcat's time: <= 1)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run"]:
        print(json.dumps(child(sys.argv[2], sys.argv[3])))
    else:
        main()
