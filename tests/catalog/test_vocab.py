"""Vocabularies: shipped data, facets labelled in the reader's language, loading a EUROVOC SKOS file."""
from __future__ import annotations

import io
import json

import hypothesis
import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action
from hypothesis import strategies as st

from ckanext.passport.catalog.vocabularies import skos
from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.vocabularies.cli import vocab_group
from tests.support.catalog_records import EUROVOC_DEMOGRAPHY, complete_record


SOCIAL_QUESTIONS = "http://eurovoc.europa.eu/100149"  # the domain of "demography and population"


def test_shipped_vocabularies_are_complete():
    eurovoc = list(vocab.vocabulary(vocab.EUROVOC))
    nace = list(vocab.vocabulary(vocab.CZ_NACE))
    territory = list(vocab.vocabulary(vocab.SPATIAL_AREA))
    assert [len([c for c in eurovoc if c.kind == kind]) for kind in ("domain", "microthesaurus")] == [21, 127]
    assert [len([c for c in nace if c.kind == kind]) for kind in ("section", "division")] == [21, 88]
    assert [len([u for u in territory if u.kind == kind]) for kind in ("region", "district")] == [14, 77]


def test_every_concept_has_cs_en_and_ru_labels():
    for name in (vocab.EUROVOC, vocab.CZ_NACE, vocab.SPATIAL_AREA):
        for concept in vocab.vocabulary(name):
            assert set(concept.labels) == {"cs", "en", "ru"}, concept.key


def test_every_territorial_unit_has_a_geometry_inside_czechia():
    for unit in vocab.vocabulary(vocab.SPATIAL_AREA):
        west, south, east, north = unit.bbox
        assert 12.0 <= west < east <= 19.0 and 48.5 <= south < north <= 51.1, unit.key


def _token() -> dict:
    return {"Authorization": factories.APIToken(user=factories.Sysadmin()["name"])["token"]}


@pytest.fixture
def classified_records() -> None:
    sysadmin, owner = factories.Sysadmin(), factories.Organization()["id"]
    call_action("package_create", {"user": sysadmin["name"]}, **complete_record(owner_org=owner))
    call_action(
        "package_create", {"user": sysadmin["name"]},
        **complete_record(name="skoly", title="Školy", eurovoc=[{"uri": EUROVOC_DEMOGRAPHY}], cz_nace=["85"],
                          spatial_area="CZ0100", owner_org=owner),
    )


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index", "classified_records")
def test_vocabulary_facets_count_concepts_with_their_broader_concepts():
    found = call_action(
        "package_search", {"ignore_auth": True}, include_private=True, include_drafts=True,
        **{"facet.field": json.dumps(["vocab_eurovoc", "vocab_eurovoc_domain", "vocab_cz_nace", "vocab_spatial_area"])},
    )
    facets = found["search_facets"]
    eurovoc = {item["name"]: item["count"] for item in facets["vocab_eurovoc"]["items"]}
    assert eurovoc[EUROVOC_DEMOGRAPHY] == 2 and SOCIAL_QUESTIONS not in eurovoc
    domains = {item["name"]: item["count"] for item in facets["vocab_eurovoc_domain"]["items"]}
    assert domains[SOCIAL_QUESTIONS] == 2
    assert {vocab.vocabulary(vocab.EUROVOC).get(key).kind for key in domains} == {"domain"}
    assert "domain" not in {vocab.vocabulary(vocab.EUROVOC).get(key).kind for key in eurovoc}
    nace = {item["name"]: item["count"] for item in facets["vocab_cz_nace"]["items"]}
    assert (nace["84"], nace["O"], nace["85"], nace["P"]) == (1, 1, 1, 1)
    areas = {item["name"]: item["count"] for item in facets["vocab_spatial_area"]["items"]}
    assert (areas["CZ0642"], areas["CZ064"], areas["CZ0100"], areas["CZ010"]) == (1, 1, 1, 1)


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index", "classified_records")
@pytest.mark.parametrize(
    "language, labels",
    [
        ("cs", ["demografie a obyvatelstvo", "Veřejná správa a obrana; povinné sociální zabezpečení", "Brno-město"]),
        ("ru", ["демография и население", "Образование", "Брно-город"]),
        ("en", ["demography and population", "Education", "Prague"]),
    ],
)
def test_search_page_labels_vocabulary_facets_in_the_reader_language(web, language, labels):
    page = web.get(f"/{language}/dataset/", headers=_token()).body
    for label in labels:
        assert label in page


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index", "classified_records")
def test_the_eurovoc_facet_lists_concepts_and_the_domains_apart_written_as_names(web):
    page = BeautifulSoup(web.get("/cs/dataset/", headers=_token()).body, "html.parser")

    def facet(heading: str) -> list[str]:
        section = next(s for s in page.select("section.module-narrow")
                       if s.select_one("h2") and s.select_one("h2").get_text(strip=True) == heading)
        return [" ".join(a.get_text(" ").split()) for a in section.select(".nav-facet li a")]

    assert [text for text in facet("EUROVOC") if "SOCIÁLNÍ" in text.upper()] == []
    assert facet("EUROVOC – oblast") and facet("EUROVOC – oblast")[0].startswith("Sociální otázky")


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index", "classified_records")
def test_search_finds_records_by_vocabulary_label_in_any_language(web):
    found = call_action("package_search", {"ignore_auth": True}, q="Брно", include_drafts=True, include_private=True)
    assert [d["name"] for d in found["results"]] == ["obyvatelstvo-obci"]


SKOS = """<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="http://www.w3.org/2004/02/skos/core#">
  <rdf:Description rdf:about="http://eurovoc.europa.eu/2470">
    <rdf:type rdf:resource="http://www.w3.org/2004/02/skos/core#Concept"/>
    <skos:prefLabel xml:lang="cs">sociologie</skos:prefLabel>
    <skos:prefLabel xml:lang="en">sociology</skos:prefLabel>
    <skos:prefLabel xml:lang="ru">социология</skos:prefLabel>
    <skos:prefLabel xml:lang="fr">sociologie</skos:prefLabel>
    <skos:inScheme rdf:resource="http://eurovoc.europa.eu/100233"/>
  </rdf:Description>
  <skos:Concept rdf:about="http://eurovoc.europa.eu/5541">
    <skos:prefLabel xml:lang="en">control of State aid</skos:prefLabel>
    <skos:broader rdf:resource="http://eurovoc.europa.eu/889"/>
  </skos:Concept>
  <rdf:Description rdf:about="http://eurovoc.europa.eu/unlabelled"/>
</rdf:RDF>
""".encode()


def test_vocab_load_stores_concepts_with_their_labels(cli, tmp_path, vocab_dir):
    source = tmp_path / "eurovoc.rdf"
    source.write_bytes(SKOS)
    result = cli.invoke(vocab_group, ["load", str(source)])
    assert result.exit_code == 0, result.output
    assert "Loaded 2 EUROVOC concepts" in result.output
    sociology = vocab.vocabulary(vocab.EUROVOC).get("http://eurovoc.europa.eu/2470")
    assert dict(sociology.labels) == {"cs": "sociologie", "en": "sociology", "ru": "социология"}
    assert sociology.parent == "http://eurovoc.europa.eu/100233"
    assert vocab.vocabulary(vocab.EUROVOC).get("http://eurovoc.europa.eu/5541").parent == "http://eurovoc.europa.eu/889"


def test_vocab_load_keeps_the_shipped_concepts(cli, tmp_path, vocab_dir):
    source = tmp_path / "eurovoc.rdf"
    source.write_bytes(SKOS)
    cli.invoke(vocab_group, ["load", str(source)])
    assert EUROVOC_DEMOGRAPHY in vocab.vocabulary(vocab.EUROVOC)


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")
def test_loaded_concept_can_classify_a_record(cli, tmp_path, vocab_dir):
    source = tmp_path / "eurovoc.rdf"
    source.write_bytes(SKOS)
    cli.invoke(vocab_group, ["load", str(source)])
    record = complete_record(record_language="en", eurovoc=[{"uri": "http://eurovoc.europa.eu/2470"}],
                             owner_org=factories.Organization()["id"])
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **record)
    assert call_action("package_show", id=record["name"])["eurovoc"] == [
        {"uri": "http://eurovoc.europa.eu/2470", "label": "sociology"}
    ]


def test_vocab_load_does_not_resolve_external_entities(cli, tmp_path, vocab_dir):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    source = tmp_path / "evil.rdf"
    source.write_bytes(
        b'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [<!ENTITY xxe SYSTEM "' + secret.as_uri().encode() + b'">]>\n'
        + SKOS.split(b"?>", 1)[1].replace(b">sociology<", b">&xxe;sociology<")
    )
    result = cli.invoke(vocab_group, ["load", str(source)])
    assert result.exit_code == 0, result.output
    stored = (vocab_dir / vocab.LOADED_EUROVOC_FILE).read_text()
    assert "TOP-SECRET-VALUE" not in stored


def test_vocab_load_refuses_a_file_without_concepts(cli, tmp_path, vocab_dir):
    source = tmp_path / "empty.rdf"
    source.write_bytes(b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')
    result = cli.invoke(vocab_group, ["load", str(source)])
    assert result.exit_code != 0
    assert not (vocab_dir / vocab.LOADED_EUROVOC_FILE).exists()


def test_vocab_load_of_a_file_that_is_not_well_formed_says_so_and_keeps_the_loaded_vocabulary(cli, tmp_path,
                                                                                               vocab_dir):
    source = tmp_path / "eurovoc.rdf"
    source.write_bytes(SKOS)
    cli.invoke(vocab_group, ["load", str(source)])
    source.write_bytes(SKOS[: len(SKOS) // 2])
    result = cli.invoke(vocab_group, ["load", str(source)])
    assert result.exit_code == 1
    assert "was not loaded: The XML document is not well-formed" in result.output
    assert "Traceback" not in result.output
    assert "http://eurovoc.europa.eu/5541" in vocab.vocabulary(vocab.EUROVOC)


def test_a_skos_read_that_fails_unforeseen_is_vocab_unreadable_naming_the_class(tmp_path):
    with open(tmp_path / "eurovoc.rdf", "wb") as stream:
        stream.write(SKOS)
    with open(tmp_path / "eurovoc.rdf", "rb") as closed:
        pass
    concepts, (found,) = skos.read_file(closed)
    assert (concepts, found.code, found.params) == ([], "vocab.unreadable", {"error": "ValueError"})


@hypothesis.settings(max_examples=100, deadline=None)
@hypothesis.given(st.binary(max_size=400) | st.integers(0, len(SKOS)).map(lambda cut: SKOS[:cut]))
def test_a_skos_read_of_any_bytes_gives_concepts_or_a_coded_problem(data: bytes):
    concepts, problems = skos.read_file(io.BytesIO(data))
    assert {found.code for found in problems} <= {"xml.not_well_formed", "vocab.unreadable"}


def test_a_skos_file_naming_a_server_in_its_dtd_and_entities_makes_no_request(tmp_path, serve_site):
    site = serve_site(tmp_path)
    evil = (b'<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF SYSTEM "' + f"{site.url}/dtd".encode()
            + b'" [<!ENTITY % remote SYSTEM "' + f"{site.url}/parameter".encode() + b'"> %remote;'
            + b'<!ENTITY xxe SYSTEM "' + f"{site.url}/entity".encode() + b'">]>\n'
            + SKOS.split(b"?>", 1)[1].replace(b">sociology<", b">&xxe;sociology<"))
    skos.read_file(io.BytesIO(evil))
    assert site.hits == []
