"""An MR site whose registry lists poisoned entries beside good ones: a link no URL parser reads (``http://[x/``) and
a passport the search index refuses (a title far beyond what Solr keeps in one term, so CKAN raises out of
``package_create``). For the tests that a harvest, in process or through its consumers, survives them.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.support.fault_passports import valid_passport

INN = "7701234560"
GOOD = [f"{INN}-good{n}" for n in range(4)]
BAD_LINK = f"{INN}-badlink"
HUGE = f"{INN}-hugetitle"


def poisoned_site(root: Path) -> None:
    """``root`` as an MR site: a list.json registry of the good passports and the two poisoned entries."""
    entries = []
    for identifier in GOOD + [HUGE]:
        folder = root / "opendata" / identifier
        folder.mkdir(parents=True)
        passport = valid_passport(identifier, f"Набор {identifier}")
        if identifier == HUGE:
            passport["title"] = "Очень длинное название " * 3000  # ~130 KB: Solr keeps at most 32,766 bytes a term
        (folder / "meta.json").write_text(json.dumps(passport, ensure_ascii=False), "utf-8")
        entries.append({"identifier": identifier, "title": passport["title"][:80],
                        "link": f"/opendata/{identifier}/meta.json", "format": "json"})
    entries.insert(2, {"identifier": BAD_LINK, "title": "Ссылка", "link": "http://[x/meta.json", "format": "json"})
    registry = {"standardversion": "http://opendata.gosmonitor.ru/standard/3.0", "meta": entries}
    (root / "opendata" / "list.json").write_text(json.dumps(registry, ensure_ascii=False), "utf-8")
