"""A small Czech LKOD (DCAT-AP-CZ, documents variant) for the ``lkod`` harvester's tests, served by a real local
HTTP server: a catalog document listing the norm's official example datasets, their IRIs rewritten to the server's
URLs, plus dataset documents that cannot be read.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ckanext.passport.lkod.context import CONTEXT_URL

EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz" / "příklady"
# Each good dataset: its name on the site and the official example it is made of.
GOOD = {
    "vld": "datová-sada.jsonld", "hvd": "datová-sada-hvd.jsonld", "rozpocet-2019": "datová-sada-v-sérii.jsonld",
    "rozpocet": "datová-série.jsonld",
}
VLD = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
# The series the member rozpocet-2019 names (its IRI is rewritten to the server's too).
SERIES = "https://data.gov.cz/lkod/mdcr/datové-série/rozpočet"
# Documents the harvest does not import (cannot read), and the code each one's error carries.
BAD = {
    "broken": "harvest.lkod_not_rdf",
    "missing": "fetch.not_found",
    "foreign-context": "harvest.lkod_remote_context",
    "elsewhere": "harvest.lkod_no_dataset",
}
PUBLISHER = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/66003008"


@dataclass
class Lkod:
    root: Path
    url: str

    @property
    def catalog_url(self) -> str:
        return f"{self.url}/lkod/catalog.jsonld"

    @property
    def turtle_catalog_url(self) -> str:
        return f"{self.url}/lkod/catalog.ttl"

    def dataset_iri(self, name: str) -> str:
        """The IRI of the dataset document ``name`` (``vld``: JSON-LD; ``vld.ttl``: Turtle)."""
        return f"{self.url}/lkod/dataset/{name if '.' in name else name + '.jsonld'}"

    def list(self, names: list[str]) -> None:
        """Rewrite the catalog documents (JSON-LD and Turtle) to list the dataset documents ``names``."""
        iris = [self.dataset_iri(name) for name in names]
        catalog = {
            "@context": CONTEXT_URL,
            "iri": self.catalog_url,
            "typ": "Katalog",
            "název": {"cs": "Katalog otevřených dat testovacího úřadu"},
            "popis": {"cs": "Datové sady testovacího úřadu"},
            "poskytovatel": PUBLISHER,
            "datová_sada": iris,
        }
        self._write("catalog.jsonld", json.dumps(catalog, ensure_ascii=False, indent=1))
        listed = " ,\n    ".join(f"<{iri}>" for iri in iris)
        self._write(
            "catalog.ttl",
            "@prefix dcat: <http://www.w3.org/ns/dcat#> .\n@prefix dct: <http://purl.org/dc/terms/> .\n"
            f"<{self.turtle_catalog_url}> a dcat:Catalog ;\n    dct:title \"Katalog otevřených dat\"@cs ;\n"
            f"    dcat:dataset {listed} .\n",
        )

    def dataset_text(self, key: str) -> str:
        return (self.root / "lkod" / "dataset" / f"{key}.jsonld").read_text("utf-8")

    def write_dataset(self, key: str, text: str) -> None:
        self._write(f"dataset/{key}.jsonld", text)

    def _write(self, relative: str, text: str) -> None:
        path = self.root / "lkod" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        previous = path.stat().st_mtime if path.exists() else None
        path.write_text(text, "utf-8")
        if previous is not None:
            # The file handler dates a file to the second (If-Modified-Since → 304): a rewrite within the second
            # of the last harvest must still read as changed, as it would on a real server.
            later = max(path.stat().st_mtime, previous + 1)
            os.utime(path, (later, later))


def build_lkod(root: Path, url: str) -> Lkod:
    """Write the LKOD's documents under ``root`` for a server answering at ``url``; the catalog lists every good
    and bad dataset."""
    lkod = Lkod(root, url)
    # The example's IRI is replaced wherever it occurs: its distributions' and services' IRIs are built on it.
    for key, example in GOOD.items():
        text = (EXAMPLES / example).read_text("utf-8").replace(SERIES, lkod.dataset_iri("rozpocet"))
        lkod.write_dataset(key, text.replace(json.loads(text)["iri"], lkod.dataset_iri(key)))
    turtle = (EXAMPLES / "datová-sada.ttl").read_text("utf-8")
    lkod._write("dataset/vld.ttl", turtle.replace(VLD, lkod.dataset_iri("vld.ttl")))
    lkod.write_dataset("broken", lkod.dataset_text("vld")[:400])
    document = json.loads(lkod.dataset_text("vld"))
    lkod.write_dataset("foreign-context", json.dumps(dict(document, **{"@context": "https://example.org/ctx.jsonld",
                                                                        "iri": lkod.dataset_iri("foreign-context")})))
    # A document describing another dataset than the one its IRI names.
    lkod.write_dataset("elsewhere", lkod.dataset_text("vld"))
    lkod.list([*GOOD, *BAD])
    return lkod
