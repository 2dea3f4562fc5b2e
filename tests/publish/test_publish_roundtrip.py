"""Publish on one CKAN, harvest its ``/opendata/`` back with the ``passport`` harvester, get the same records.

The publishing portal is this test CKAN, served over real HTTP on a free port (werkzeug in a thread, same
database and index). One identifier belongs to one record, so the harvest reads a copy of what the portal
published (its registry and passports, as files on another server) after the published records are deleted;
it lands in a second organization. Each registry form is read with one passport form, so every writer and
the RDFa pages are exercised end to end.
"""
from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.publish_shapes import PUBLISH_CONFIG

from ckanext.passport.catalog.record.mapping import dataset_to_passport, passport_to_dataset
from ckanext.passport.mr.model import RegistryEntry
from ckanext.passport.mr.registry import iter_registry
from werkzeug.serving import make_server

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

SHAPES = ("harvested", "portal", "structures")
RECORD_FIELDS = (
    "title", "notes", "publisher_name", "maintainer", "maintainer_email", "mr_publisher_phone",
    "mr_created", "mr_modified", "mr_format",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def live_site(web, ckan_config, monkeypatch) -> Iterator[str]:
    """This CKAN over HTTP; links in its exports point at it."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    monkeypatch.setitem(ckan_config, "ckan.site_url", url)
    server = make_server("127.0.0.1", port, web.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url
    server.shutdown()
    thread.join()


def mirror(live_site: str, registry: str, passport_form: str, root: Path, serve_site) -> str:
    """The portal's registry and each passport in ``passport_form``, as files on another server; its URL."""
    site = serve_site(root)

    def copy(path: str) -> bytes:
        body = requests.get(live_site + path, timeout=30).content
        target = root / path.lstrip("/") / "index.html" if path.endswith("/") else root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body.replace(live_site.encode(), site.url.encode()))
        return body

    registry_path = f"/opendata/{registry}"
    for item in iter_registry(copy(registry_path), live_site + registry_path):
        if isinstance(item, RegistryEntry):
            page = urlsplit(urljoin(live_site + registry_path, item.link)).path.rstrip("/") + "/"
            copy(page if passport_form == "rdfa" else page + passport_form)
    return site.url


def record(dataset: dict[str, Any], version_provenance: bool = True) -> dict[str, Any]:
    """What a round trip must keep of a dataset: its passport facts, versions and structures."""
    resources = dataset["resources"]
    return {
        **{key: dataset.get(key) or "" for key in RECORD_FIELDS},
        "tags": sorted(tag["name"] if isinstance(tag, dict) else tag for tag in dataset["tags"]),
        "data": [
            (r.get("mr_version"), r.get("mr_structure_version"), r["format"].lower(),
             (r.get("mr_provenance") or "") if version_provenance or index == 0 else "")
            for index, r in enumerate(r for r in resources if r.get("resource_type") == "data")
        ],
        "structures": [(r.get("mr_version"), r["format"].lower()) for r in resources
                       if r.get("resource_type") == "structure"],
    }


def published_record(dataset: dict[str, Any], version_provenance: bool) -> tuple[str, dict[str, Any]]:
    """The identifier and record a source dataset must come back as.

    A record with MR facts comes back as it is. One made in the portal comes back as its passport states it:
    owner from its organization, versions named from their dates (what ``mapping`` publishes).
    """
    passport = dataset_to_passport(dataset)
    if dataset.get("mr_identifier"):
        return passport.identifier, record(dataset, version_provenance)
    return passport.identifier, record(passport_to_dataset(passport), version_provenance)


@pytest.mark.parametrize(
    "registry, passport_form",
    [("", "rdfa"), ("list.csv", "meta.csv"), ("list.xml", "meta.xml"), ("list.json", "meta.json")],
)
def test_harvesting_our_own_opendata_gives_back_the_same_records(
    live_site, publish, harvest_source, run_harvest, serve_site, tmp_path, registry, passport_form
):
    sources = [publish(shape, name=f"source-{shape}") for shape in SHAPES]
    publish("empty", name="source-empty")
    # MR 3.0's meta.csv states provenance for the current data only; the other forms, for every version.
    version_provenance = passport_form != "meta.csv"
    expected = dict(
        published_record(call_action("package_show", id=d["id"]), version_provenance) for d in sources
    )
    copy = mirror(live_site, registry, passport_form, tmp_path / "copy", serve_site)
    sysadmin = factories.Sysadmin()
    for dataset in sources:
        call_action("package_delete", context={"user": sysadmin["name"]}, id=dataset["id"])
    target = factories.Organization(name="harvested-copy")
    harvest = harvest_source(
        f"{copy}/opendata/{registry}",
        {"allow_private_addresses": True, "registry_url": f"{copy}/opendata/{registry}",
         "formats": [passport_form], "organization": target["name"]},
        owner_org=target["id"],
    )

    results, job = run_harvest(harvest)

    assert job["status"] == "Finished"
    assert {r["report_status"] for r in results.values()} == {"added"}, [r["errors"] for r in results.values()]
    copies = call_action("package_search", fq=f"owner_org:{target['id']}", rows=50)["results"]
    harvested = {
        d["mr_identifier"]: record(call_action("package_show", id=d["id"]), version_provenance) for d in copies
    }
    assert harvested.keys() == expected.keys()
    for identifier, facts in expected.items():
        assert harvested[identifier] == facts, identifier
