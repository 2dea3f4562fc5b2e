"""Every form gives the same answer for the same published facts, and says each fault once."""
from __future__ import annotations

import json
import logging

import pytest
from rdflib import URIRef

from ckanext.passport.mr.fields import read_version_name, structure_name, version_names
from ckanext.passport.mr.passport import meta_csv, meta_json, meta_xml
from ckanext.passport.mr.passport import rdfa as rdfa_passport
from ckanext.passport.mr.registry import parse_registry
from ckanext.passport.mr.registry.entries import IdentifierSet

FOLDER = "http://example.com/opendata/7710349494-mfclist/"
DATA = FOLDER + "data-5-structure-1.csv"
STRUCTURE = FOLDER + "structure-1-2013-07-15.csv"


def as_csv() -> bytes:
    return (f"property,value\nidentifier,7710349494-mfclist\ndata-5-structure-1,{DATA}\n"
            f"structure-1-2013-07-15,{STRUCTURE}\n").encode()


def as_json() -> bytes:
    return json.dumps({"identifier": "7710349494-mfclist", "data": [{"source": DATA, "created": "20130715"}],
                       "structure": [{"source": STRUCTURE, "created": "20130715"}]}).encode()


def as_xml() -> bytes:
    return (f"<meta><identifier>7710349494-mfclist</identifier><data><dataversion><source>{DATA}</source>"
            f"<created>20130715</created></dataversion></data><structure><structureversion>"
            f"<source>{STRUCTURE}</source><created>20130715</created></structureversion></structure></meta>"
            ).encode()


@pytest.mark.parametrize("parse, data", [(meta_csv.parse, as_csv()), (meta_json.parse, as_json()),
                                         (meta_xml.parse, as_xml())], ids=["meta.csv", "meta.json", "meta.xml"])
def test_mr23_structure_names_give_one_version_in_every_form(parse, data):
    passport = parse(data).value

    assert [s.version for s in passport.structure_versions] == ["1"]
    assert [(d.version, d.structure_version) for d in passport.data_versions] == [("5", "1")]


@pytest.mark.parametrize("name, kind, version, structure", [
    ("data-20130601T0000-structure-20130401T0000.csv", "data", "20130601T0000", "20130401T0000"),
    ("data_20140930_structure_1_20140930.csv", "data", "20140930", "1"),
    ("data-10122025-structure-10062025.json", "data", "10122025", "10062025"),
    ("data 1 strucrure 1", "data", "1", "1"),
    ("structure-1-2013-07-15.csv", "structure", "1", ""),
    ("stucture-2-data-11.xsd", "structure", "2", ""),
])
def test_one_reading_of_version_names(name, kind, version, structure):
    named = read_version_name(FOLDER + name)

    assert (named.kind, named.version, named.structure) == (kind, version, structure)
    if kind == "data":
        assert version_names(FOLDER + name) == (version, structure)
    else:
        assert structure_name(FOLDER + name) == version


def test_a_repeated_identifier_in_list_csv_is_reported_once_with_the_dispatchers_code():
    data = ("property,title,value,format\nstandardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"
            "7710349494-mfclist,МФЦ,http://x.ru/opendata/7710349494-mfclist/,csv\n"
            "7710349494-mfclist,МФЦ снова,http://x.ru/opendata/7710349494-mfclist/,csv\n").encode()

    result = parse_registry(data, "http://x.ru/opendata/list.csv")

    assert [(p.code, p.location.line) for p in result.problems] == [("registry.duplicate_identifier", 4)]
    assert [e.title for e in result.value.entries] == ["МФЦ"]


def test_identifier_set_keeps_every_identifier_through_growth():
    seen = IdentifierSet()
    identifiers = [f"7708234640-set{n}" for n in range(5000)]

    assert all(seen.add(identifier) for identifier in identifiers)
    assert not any(seen.add(identifier) for identifier in identifiers)
    assert len(seen) == 5000


def test_reading_a_page_silences_rdflibs_invalid_uri_warning(read_real, caplog):
    page = read_real("predgor/2618017120-politicaldivisions/index.php")

    with caplog.at_level(logging.WARNING, logger="rdflib.term"):
        passport = rdfa_passport.parse(page, "http://opendata.example.ru/opendata/2618017120-politicaldivisions/")

    assert passport.value.publisher.mbox == "it-apmr@yandex.ru"
    assert [r for r in caplog.records if "valid URI" in r.getMessage()] == []


def test_rdflibs_invalid_uri_warning_outside_our_reads_still_passes(caplog, monkeypatch):
    # CKAN's logging set-up disables loggers that existed before it ran; this test is about our filter only.
    monkeypatch.setattr(logging.getLogger("rdflib.term"), "disabled", False)
    with caplog.at_level(logging.WARNING, logger="rdflib.term"):
        URIRef("mailto:a@b.ru?subject=Открытые данные")

    assert [r.name for r in caplog.records if "valid URI" in r.getMessage()] == ["rdflib.term"]
