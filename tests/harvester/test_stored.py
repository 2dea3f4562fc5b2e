"""The stored harvest object's content, to and from JSON: what one job writes, the next stage and the next job read
back unchanged, in the layout objects stored by earlier versions have."""
from __future__ import annotations

import json

from ckanext.passport.harvest.stored import LkodContent, MrContent

ENTRY = {"identifier": "7701234560-budget", "title": "Бюджет", "link": "budget/"}
PASSPORT = {"identifier": "7701234560-budget", "title": "Бюджет", "data_versions": []}


def test_a_gathered_mr_object_holds_its_entry_and_registry_only():
    gathered = MrContent(entry=ENTRY, registry_url="http://site.example/opendata/list.csv")
    assert json.loads(gathered.to_json()) == {"entry": ENTRY, "registry_url": "http://site.example/opendata/list.csv"}
    assert not MrContent.from_json(gathered.to_json()).read


def test_a_read_passport_comes_back_whole():
    read = MrContent(entry=ENTRY, registry_url="http://site.example/opendata/list.csv", passport=PASSPORT,
                     form="meta.csv", encoding="utf-8", problems=[{"code": "csv.bom"}], score=95,
                     conformance_problems=[{"code": "check.no_description"}])
    assert MrContent.from_json(read.to_json()) == read
    assert MrContent.from_json(read.to_json()).read


def test_a_read_passport_keeps_the_layout_earlier_versions_stored():
    read = MrContent(entry=ENTRY, registry_url="u", passport=PASSPORT, form="rdfa", encoding="utf-8", score=60)
    assert json.loads(read.to_json()) == {
        "entry": ENTRY, "registry_url": "u", "passport": PASSPORT, "form": "rdfa", "encoding": "utf-8",
        "problems": [], "conformance": {"score": 60, "problems": []},
    }
    assert '"conformance": {' in read.to_json()  # what the score migration finds objects stored before it by


def test_text_is_stored_unescaped():
    assert "Бюджет" in MrContent(entry=ENTRY, registry_url="u").to_json()


def test_an_lkod_object_holds_its_iri_then_its_harvested_part():
    iri = "https://data.example.cz/datové-sady/1"
    assert LkodContent.from_json(LkodContent(iri).to_json()) == LkodContent(iri)
    fetched = LkodContent(iri, {"title": "Jízdní řády"})
    assert json.loads(fetched.to_json()) == {"iri": iri, "dataset": {"title": "Jízdní řády"}}
    assert LkodContent.from_json(fetched.to_json()) == fetched
