"""An ``lkod`` source of a catalog whose IRIs are written as publishers write them: raw Czech letters, ``%20``,
percent-encoded UTF-8 or a mix, and extension-less IRIs served by content negotiation. One dataset is one record
whichever spelling a job sees, and a document is asked for as JSON-LD first, Turtle read when that comes back."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.http_site import Fault
from tests.support.lkod_site import EXAMPLES, PUBLISHER, VLD

from ckanext.passport.lkod import norms

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
# The dataset's folder as a publisher names it, written three ways.
RAW = "datové%20sady"
ENCODED = "datov%C3%A9%20sady"


class Site:
    def __init__(self, root: Path, served) -> None:
        self.root, self.served, self.url = root, served, served.url

    @property
    def catalog_url(self) -> str:
        return f"{self.url}/lkod/katalog.jsonld"

    def iri(self, folder: str, name: str = "vld.jsonld") -> str:
        return f"{self.url}/lkod/{folder}/{name}"

    def dataset(self, iri: str) -> None:
        """The official example dataset at ``iri``, in the file a server answers for any spelling of it."""
        text = (EXAMPLES / "datová-sada.jsonld").read_text("utf-8").replace(VLD, iri)
        path = self.root / "lkod" / "datové sady" / "vld.jsonld"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")

    def list(self, *iris: str) -> None:
        catalog = {"@context": norms.CONTEXT_2021, "iri": self.catalog_url, "typ": "Katalog",
                   "název": {"cs": "Katalog kraje"}, "poskytovatel": PUBLISHER, "datová_sada": list(iris)}
        (self.root / "lkod" / "katalog.jsonld").write_text(json.dumps(catalog, ensure_ascii=False), "utf-8")


@pytest.fixture
def site(tmp_path, serve_site):
    root = tmp_path / "kraj"
    (root / "lkod").mkdir(parents=True)
    return Site(root, serve_site(root))


@pytest.fixture
def source(site):
    return call_action(
        "harvest_source_create", context={"user": factories.Sysadmin()["name"]}, name="kraj", title="Kraj",
        url=site.catalog_url, source_type="lkod", owner_org=factories.Organization()["id"], config=json.dumps(ALLOW),
    )


def _run(source: dict) -> dict[str, str]:
    """One job of the source; guid → its object's report status."""
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj
    from ckanext.harvest.tests.lib import run_harvest_job

    from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    results = run_harvest_job(job, PassportLkodHarvesterPlugin())
    return {guid: result["report_status"] for guid, result in results.items()}


def _records() -> list[dict]:
    return call_action("package_search", q="*:*", rows=100, include_private=True)["results"]


def test_a_dataset_iri_spelled_otherwise_by_a_later_job_stays_one_record(site, source):
    site.dataset(site.iri(RAW))
    site.list(site.iri(RAW))
    _run(source)
    [first] = _records()

    site.list(site.iri(ENCODED))
    statuses = _run(source)

    assert list(statuses.values()) in (["not modified"], ["updated"])
    assert [record["id"] for record in _records()] == [first["id"]]


def test_two_spellings_of_one_iri_in_one_listing_are_one_record(site, source):
    site.dataset(site.iri(RAW))
    site.list(site.iri(RAW), site.iri(ENCODED), site.iri("datov%c3%a9%20sady"))

    statuses = _run(source)

    assert list(statuses.values()) == ["added"]
    assert len(_records()) == 1


def test_a_document_spelling_its_iri_otherwise_than_the_catalog_is_read_and_keeps_the_catalogs_spelling(
        site, source):
    site.dataset(site.iri(ENCODED))
    site.list(site.iri(RAW))

    statuses = _run(source)

    assert statuses == {site.iri(RAW): "added"}
    [record] = _records()
    assert record["lkod_iri"] == site.iri(RAW)
    assert record["title"] == "Jízdní řády veřejné linkové dopravy"


def test_an_extension_less_iri_is_asked_for_json_ld_first_and_its_turtle_answer_read(site, source):
    iri = f"{site.url}/lkod/sady/vld"
    turtle = (EXAMPLES / "datová-sada.ttl").read_text("utf-8").replace(VLD, iri)
    site.served.fault("/lkod/sady/vld", Fault(body=turtle.encode(), content_type="text/turtle; charset=utf-8"))
    site.list(iri)

    statuses = _run(source)

    assert statuses == {iri: "added"}
    assert [record["title"] for record in _records()] == ["Jízdní řády veřejné linkové dopravy"]
    assert dict(site.served.accepts)["/lkod/sady/vld"] == "application/ld+json, text/turtle;q=0.9"


@pytest.mark.parametrize("listed", [[], None], ids=["empty-list", "no-datova-sada"])
def test_a_catalog_that_lists_no_dataset_finishes_the_job_and_deletes_nothing(site, source, listed):
    from ckanext.harvest.model import HarvestJob

    site.dataset(site.iri(RAW))
    site.list(site.iri(RAW))
    _run(source)
    catalog = json.loads((site.root / "lkod" / "katalog.jsonld").read_text("utf-8"))
    catalog["datová_sada"] = listed
    if listed is None:
        del catalog["datová_sada"]
    (site.root / "lkod" / "katalog.jsonld").write_text(json.dumps(catalog, ensure_ascii=False), "utf-8")

    statuses = _run(source)

    assert statuses == {}
    assert [record["lkod_iri"] for record in _records()] == [site.iri(RAW)]
    job = HarvestJob.filter(source_id=source["id"]).order_by(HarvestJob.created.desc()).first()
    assert job.status == "Finished"
    report = call_action("harvest_job_report", id=job.id)
    assert [error["message"].split("]", 1)[0].lstrip("[") for error in report["gather_errors"]] == [
        "harvest.registry_empty"
    ]
