"""An ``lkod`` source of a catalog as the country publishes them: a 2021-01-11 catalog document listing dataset
documents in 2024-05-28, in 2021-01-11 and in expanded JSON-LD, at IRIs with raw Czech letters and ``%20``, beside
broken pieces. Each document is read in its own norm, every readable dataset lands, each broken piece is its own
coded error, and the job's objects say which norm each document was read in."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.lkod_site import EXAMPLES as EXAMPLES_2024
from tests.support.lkod_site import PUBLISHER, VLD

from ckanext.passport.harvest import stored
from ckanext.passport.lkod import documents, norms

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

EXAMPLES_2021 = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz-2021" / "příklady"
ALLOW = {"allow_private_addresses": True}
# Dataset document file → the norm it is written in (files named as a publisher's code host names them).
GOOD = {
    "jízdní%20řády 2024.jsonld": norms.NORM_2024,
    "jízdní řády 2021.jsonld": norms.NORM_2021,
    "registrace-nkod.jsonld": norms.EXPANDED,
}
BAD = {
    "nedokončený.jsonld": "harvest.lkod_not_rdf",
    "chybí.jsonld": "fetch.not_found",
    "slovensko.jsonld": "harvest.lkod_remote_context",
    "jinde.jsonld": "harvest.lkod_no_dataset",
}


class Mixed:
    """The catalog's files under ``root``, served at ``url``."""

    def __init__(self, root: Path, url: str) -> None:
        self.root, self.url = root, url
        (root / "lkod").mkdir(parents=True)

    @property
    def catalog_url(self) -> str:
        return f"{self.url}/lkod/katalog.jsonld"

    def iri(self, name: str) -> str:
        """The IRI as the catalog writes it: raw Czech letters, a space as ``%20``."""
        return f"{self.url}/lkod/{name.replace(' ', '%20')}"

    def write(self, name: str, text: str) -> None:
        # The server decodes the request's path: the file has the decoded name.
        (self.root / "lkod" / name.replace("%20", " ")).write_text(text, "utf-8")

    def dataset(self, name: str, text: str) -> None:
        self.write(name, text.replace(VLD, self.iri(name)))


def _build(root: Path, url: str) -> Mixed:
    site = Mixed(root, url)
    site.dataset("jízdní%20řády 2024.jsonld", (EXAMPLES_2024 / "datová-sada.jsonld").read_text("utf-8"))
    text_2021 = (EXAMPLES_2021 / "datová-sada.jsonld").read_text("utf-8")
    site.dataset("jízdní řády 2021.jsonld", text_2021)
    graph = documents.read_graph(text_2021.encode(), VLD, "application/ld+json")
    site.dataset("registrace-nkod.jsonld", graph.serialize(format="json-ld"))
    site.write("nedokončený.jsonld", text_2021[:400])
    site.write("slovensko.jsonld", json.dumps({"@context": "https://data.slovensko.sk/kontext.jsonld",
                                               "iri": site.iri("slovensko.jsonld"), "typ": "Katalóg"}))
    site.write("jinde.jsonld", text_2021)
    catalog = {
        "@context": norms.CONTEXT_2021,
        "iri": site.catalog_url,
        "typ": "Katalog",
        "název": {"cs": "Katalog otevřených dat kraje"},
        "popis": {"cs": "Datové sady kraje"},
        "poskytovatel": PUBLISHER,
        "datová_sada": [site.iri(name) for name in [*GOOD, *BAD]],
    }
    site.write("katalog.jsonld", json.dumps(catalog, ensure_ascii=False, indent=1))
    return site


@pytest.fixture
def mixed(tmp_path, serve_site):
    root = tmp_path / "kraj"
    return _build(root, serve_site(root).url)


def _harvest(url: str):
    source = call_action(
        "harvest_source_create", context={"user": factories.Sysadmin()["name"]}, name="kraj", title="Kraj",
        url=url, source_type="lkod", owner_org=factories.Organization()["id"], config=json.dumps(ALLOW),
    )
    return source, _job(source["id"])


def _job(source_id: str):
    """One more job of the source, run to its end."""
    from ckanext.harvest.model import HarvestJob, HarvestSource
    from ckanext.harvest.tests.factories import HarvestJobObj
    from ckanext.harvest.tests.lib import run_harvest_job

    from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

    job = HarvestJobObj(source=HarvestSource.get(source_id), run=False)
    run_harvest_job(job, PassportLkodHarvesterPlugin())
    return HarvestJob.get(job.id)


def _error_codes(job_id: str) -> dict[str, list[str]]:
    report = call_action("harvest_job_report", id=job_id)
    return {
        found["guid"]: [error["message"].split("]", 1)[0].lstrip("[") for error in found["errors"]]
        for found in report["object_errors"].values()
    }


def test_a_2021_catalog_of_mixed_norms_lands_every_readable_dataset(mixed):
    _harvest(mixed.catalog_url)

    found = call_action("package_search", q="*:*", rows=100, include_private=True)["results"]
    records = {record["lkod_iri"]: call_action("package_show", id=record["id"]) for record in found}
    assert set(records) == {mixed.iri(name) for name in GOOD}
    assert {record["title"] for record in records.values()} == {"Jízdní řády veřejné linkové dopravy"}
    assert {len(record["resources"]) for record in records.values()} == {2}


def test_each_broken_piece_is_its_own_coded_error(mixed):
    _, job = _harvest(mixed.catalog_url)

    errors = _error_codes(job.id)
    assert {mixed.iri(name): errors.get(mixed.iri(name)) for name in BAD} == {
        mixed.iri(name): [code] for name, code in BAD.items()
    }
    assert not any(errors.get(mixed.iri(name)) for name in GOOD)


def test_each_dataset_object_says_the_norm_its_document_was_read_in(mixed):
    _, job = _harvest(mixed.catalog_url)

    read_in = {obj.guid: stored.extras_of(obj).get(stored.READ_NORM) for obj in job.objects}
    assert {mixed.iri(name): read_in[mixed.iri(name)] for name in GOOD} == {
        mixed.iri(name): norm for name, norm in GOOD.items()
    }


def test_a_catalog_under_another_iri_is_read_with_a_warning(mixed):
    catalog = json.loads((mixed.root / "lkod" / "katalog.jsonld").read_text("utf-8"))
    catalog["iri"] = "https://data.jiný-úřad.example/katalog"
    mixed.write("katalog.jsonld", json.dumps(catalog, ensure_ascii=False))

    _, job = _harvest(mixed.catalog_url)

    gather = call_action("harvest_job_report", id=job.id)["gather_errors"]
    assert [error["message"].split("]", 1)[0].lstrip("[") for error in gather] == ["harvest.lkod_catalog_elsewhere"]
    found = call_action("package_search", q="*:*", rows=100, include_private=True)["results"]
    assert {record["lkod_iri"] for record in found} == {mixed.iri(name) for name in GOOD}


def _norm_rows(html: str) -> dict[str, str]:
    """norm → the documents count of its row in the page's table of norms."""
    return dict(re.findall(r'<tr data-norm="([^"]+)"><td>[^<]*</td><td>(\d+)</td></tr>', html))


def test_the_source_page_counts_its_records_documents_per_norm_in_the_readers_language(web, mixed):
    source, _ = _harvest(mixed.catalog_url)
    token = factories.SysadminWithToken()["token"]

    page = web.get(f"/cs/harvest/{source['name']}", headers={"Authorization": token}).body

    assert "Normy dokumentů datových sad" in page
    assert _norm_rows(page) == {norms.NORM_2021: "1", norms.NORM_2024: "1", "expanded": "1"}
    assert "rozvinuté JSON-LD bez kontextu" in page


def test_the_job_page_says_which_norm_its_documents_were_read_in(web, mixed):
    source, job = _harvest(mixed.catalog_url)
    token = factories.SysadminWithToken()["token"]

    page = web.get(f"/cs/harvest/{source['name']}/job/{job.id}", headers={"Authorization": token}).body

    assert "Načteno v normě" in page
    assert _norm_rows(page) == {norms.NORM_2021: "1", norms.NORM_2024: "1", "expanded": "1"}


def _catalog_norm(html: str) -> str:
    """The text of the page's line naming the catalog document's norm."""
    found = re.search(r'<p class="passport-catalog-norm" data-norm="[^"]+">\s*(.*?)\s*</p>', html, re.S)
    return found.group(1) if found else ""


def test_the_job_and_the_source_page_name_the_norm_of_the_catalog_document(web, mixed):
    source, job = _harvest(mixed.catalog_url)
    token = factories.SysadminWithToken()["token"]

    for url in (f"/cs/harvest/{source['name']}/job/{job.id}", f"/cs/harvest/{source['name']}"):
        page = web.get(url, headers={"Authorization": token}).body
        assert _catalog_norm(page) == f"Katalog: {norms.NORM_2021}", url


def test_a_catalogs_norm_is_the_one_its_last_gather_read(web, mixed):
    source, first = _harvest(mixed.catalog_url)
    catalog = json.loads((mixed.root / "lkod" / "katalog.jsonld").read_text("utf-8"))
    mixed.write("katalog.jsonld", json.dumps({**catalog, "@context": norms.CONTEXT_2024}, ensure_ascii=False))
    second = _job(source["id"])
    token = factories.SysadminWithToken()["token"]

    assert _catalog_norm(web.get(f"/harvest/{source['name']}", headers={"Authorization": token}).body) == \
        f"Catalog: {norms.NORM_2024}"
    assert _catalog_norm(web.get(f"/harvest/{source['name']}/job/{first.id}", headers={"Authorization": token}).body) \
        == f"Catalog: {norms.NORM_2021}"
    assert second.status == "Finished"


def test_the_lkod_page_counts_each_harvested_catalogs_documents_per_norm(web, mixed):
    source, _ = _harvest(mixed.catalog_url)

    page = web.get("/cs/lkod/").body

    assert "Sklízené lokální katalogy podle normy" in page
    row = re.search(rf'<tr data-source="{source["name"]}">(.*?)</tr>', page, re.S).group(1)
    assert re.search(r'<td class="lkod-catalog-norm">([^<]*)</td>', row).group(1) == norms.NORM_2021
    assert dict(re.findall(r'<td data-norm="([^"]+)">(\d+)</td>', row)) == {
        norms.NORM_2021: "1", norms.NORM_2024: "1", "expanded": "1"}
