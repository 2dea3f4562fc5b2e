"""A region's local catalog (LKOD) as the country publishes them, for the demo and the browser walk of the norms.

The catalog document is in the 2021-01-11 norm, the one NKOD registered catalogs under for four years. It lists
five dataset documents: three its publishers moved to 2024-05-28, two still in 2021-01-11. Each is a norm's official
example, with an IRI of its own (with Czech letters) and a title of its own. dev/demo.sh serves it and harvests it
as an `lkod` source; `python dev/demo_lkod.py FOLDER URL` writes it under FOLDER for a server at URL.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ckanext.passport.lkod import norms

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
EXAMPLES = {norms.NORM_2024: FIXTURES / "dcat-ap-cz" / "příklady" / "datová-sada.jsonld",
            norms.NORM_2021: FIXTURES / "dcat-ap-cz-2021" / "příklady" / "datová-sada.jsonld"}
# The dataset IRI and the publisher both official examples name.
EXAMPLE_IRI = "https://data.gov.cz/lkod/mdcr/datové-sady/vld"
PUBLISHER = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/66003008"
TITLE = "Jízdní řády veřejné linkové dopravy"
# Dataset document → the norm it is written in.
DOCUMENTS = {
    "jízdní-řády-praha.jsonld": norms.NORM_2024,
    "jízdní-řády-brno.jsonld": norms.NORM_2024,
    "jízdní-řády-plzeň.jsonld": norms.NORM_2024,
    "jízdní-řády-liberec.jsonld": norms.NORM_2021,
    "jízdní-řády-ústí.jsonld": norms.NORM_2021,
}


def title_of(name: str) -> str:
    return f"{TITLE} – {name.removeprefix('jízdní-řády-').removesuffix('.jsonld')}"


def write_catalog(root: Path, url: str) -> str:
    """The catalog and its dataset documents under ``root`` for a server of ``root`` at ``url``; its URL."""
    (root / "lkod").mkdir(parents=True, exist_ok=True)
    for name, norm in DOCUMENTS.items():
        text = EXAMPLES[norm].read_text("utf-8").replace(EXAMPLE_IRI, f"{url}/lkod/{name}")
        (root / "lkod" / name).write_text(text.replace(f'"{TITLE}"', f'"{title_of(name)}"'), "utf-8")
    catalog_url = f"{url}/lkod/katalog.jsonld"
    catalog = {"@context": norms.CONTEXT_2021, "iri": catalog_url, "typ": "Katalog",
               "název": {"cs": "Katalog otevřených dat kraje"}, "poskytovatel": PUBLISHER,
               "datová_sada": [f"{url}/lkod/{name}" for name in DOCUMENTS]}
    (root / "lkod" / "katalog.jsonld").write_text(json.dumps(catalog, ensure_ascii=False, indent=1), "utf-8")
    return catalog_url


if __name__ == "__main__":
    print(write_catalog(Path(sys.argv[1]), sys.argv[2]))
