"""The RDFa of a dataset page and of ``/opendata/``, read by pyRdfa3, states exactly what the files state.

pyRdfa3 parses the pages itself (its own HTML reading), independently of the MR library's reader. The
expected triples are built from ``meta.json`` / ``list.json`` (plus ``meta.csv`` for the passport-level
provenance and validity, which MR 3.0 keeps there), and the two sets are compared triple by triple.
"""
from __future__ import annotations

import csv
import io
import json

import html5lib
import pytest
from bs4 import BeautifulSoup
from tests.support.publish_shapes import PUBLISH_CONFIG
from pyRdfa import pyRdfa
from rdflib import RDF, Graph, Literal, Namespace, URIRef
from rdflib.namespace import FOAF

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

DC = Namespace("http://purl.org/dc/terms/")
SITE = "http://test.ckan.net"


def extract(page: bytes, url: str) -> Graph:
    return pyRdfa(base=url, media_type="text/html").graph_from_source(io.BytesIO(page))


def described(graph: Graph, subjects: set) -> set:
    """The graph's dc:, foaf: and rdf:type statements about ``subjects``."""
    return {
        (s, p, o) for s, p, o in graph
        if s in subjects and (str(p).startswith((str(DC), str(FOAF))) or p == RDF.type)
    }


def extension(link: str) -> str:
    return link.rsplit(".", 1)[1]


def passport_triples(meta: dict, meta_csv: dict) -> set:
    subject = URIRef(f"{SITE}/opendata/{meta['identifier']}")
    publisher = URIRef(f"{subject}#publisher")
    triples = {
        (subject, RDF.type, FOAF.Document),
        (subject, DC.conformsTo, URIRef(meta["standardversion"])),
        (subject, DC.publisher, publisher),
        (publisher, RDF.type, FOAF.Person),
    }
    for key in ("identifier", "title", "description", "creator", "created", "modified", "format"):
        triples.add((subject, DC[key], Literal(meta[key])))
    triples |= {(subject, DC.subject, Literal(word)) for word in meta["subject"].split(",") if word}
    triples |= {(subject, DC[key], Literal(meta_csv[key])) for key in ("provenance", "valid") if meta_csv[key]}
    triples |= {(publisher, FOAF[key], Literal(value)) for key, value in meta["publisher"].items() if value}
    structures = {}
    for item in meta["structure"]:
        node = URIRef(item["source"])
        structures[node.rsplit("/", 1)[1].rsplit(".", 1)[0]] = node
        triples |= {
            (node, RDF.type, FOAF.Document),
            (node, DC.source, node),
            (node, DC.created, Literal(item["created"])),
            (node, DC["format"], Literal(extension(item["source"]))),
        }
    for item in meta["data"]:
        node = URIRef(item["source"])
        triples |= {
            (subject, DC.hasPart, node),
            (node, RDF.type, FOAF.Document),
            (node, DC.source, node),
            (node, DC.created, Literal(item["created"])),
            (node, DC["format"], Literal(extension(item["source"]))),
            (node, DC.conformsTo, structures[f"structure-{item['structure']}"]),
        }
        triples |= {(node, DC[key], Literal(item[key])) for key in ("provenance", "valid") if item[key]}
    return {t for t in triples if not (isinstance(t[2], Literal) and not str(t[2]))}


@pytest.mark.parametrize("shape", ["harvested", "portal", "structures"])
def test_dataset_page_rdfa_states_what_meta_json_states(web, publish, shape):
    dataset = publish(shape, title="Title with <b>markup</b> & <script>alert(1)</script>")
    page = web.get(f"/dataset/{dataset['name']}")
    meta = web.get(f"/opendata/{dataset['name']}/meta.json").json
    meta_csv = dict(csv.reader(io.StringIO(web.get(f"/opendata/{dataset['name']}/meta.csv").data.decode("utf-8"))))
    expected = passport_triples(meta, meta_csv)
    graph = extract(page.data, f"{SITE}/dataset/{dataset['name']}")
    assert described(graph, {s for s, _, _ in expected}) == expected


def test_registry_page_rdfa_states_what_list_json_states(web, publish):
    for shape in ("harvested", "portal", "structures", "empty"):
        publish(shape)
    listing = json.loads(web.get("/opendata/list.json").data)
    registry = URIRef(f"{SITE}/opendata/")
    expected = {
        (registry, RDF.type, DC.Collection),
        (registry, DC.conformsTo, URIRef(listing["standardversion"])),
    }
    for item in listing["meta"]:
        entry = URIRef(item["link"])
        expected |= {
            (registry, DC.hasPart, entry),
            (entry, RDF.type, FOAF.Document),
            (entry, DC.identifier, Literal(item["identifier"])),
            (entry, DC.title, Literal(item["title"])),
            (entry, DC["format"], Literal(item["format"])),
        }
    graph = extract(web.get("/opendata/").data, f"{SITE}/opendata/")
    assert len(listing["meta"]) == 3
    assert described(graph, {s for s, _, _ in expected}) == expected


@pytest.mark.parametrize("path", ["/dataset/7712345678-showrooms", "/opendata/"])
def test_pages_with_rdfa_parse_as_html5_without_errors(web, publish, path):
    publish("harvested")
    parser = html5lib.HTMLParser()
    parser.parse(web.get(path).data)
    assert parser.errors == []


@pytest.mark.parametrize("locale", ["/ru", "/cs"])
def test_a_dataset_pages_permanent_links_carry_no_language(web, publish, locale):
    """The MR links are the record's identity: the same on /ru/ and /cs/ pages as on the default one."""
    dataset = publish("harvested")
    default = extract(web.get(f"/dataset/{dataset['name']}").data, f"{SITE}/dataset/{dataset['name']}")
    translated = extract(web.get(f"{locale}/dataset/{dataset['name']}").data, f"{SITE}{locale}/dataset/{dataset['name']}")
    def permanent(graph: Graph) -> set[str]:
        iris = {str(o) for _, _, o in graph if isinstance(o, URIRef)} | {str(s) for s, _, _ in graph}
        return {iri for iri in iris if "/opendata" in iri}

    assert not [iri for iri in permanent(translated) if iri.startswith(f"{SITE}{locale}/")]
    assert permanent(translated) == permanent(default)


@pytest.mark.parametrize("locale", ["/ru", "/cs"])
def test_the_registry_pages_links_carry_no_language(web, publish, locale):
    publish("harvested")
    graph = extract(web.get(f"{locale}/opendata/").data, f"{SITE}{locale}/opendata/")
    parts = {str(o) for _, p, o in graph if p == DC.hasPart}
    assert parts and all(part.startswith(f"{SITE}/opendata/") for part in parts)


def test_the_russian_registry_page_leads_on_in_russian(web, publish):
    """Its RDFa names permanent links, but a reader's links and search stay on /ru/ pages."""
    dataset = publish("harvested")
    page = web.get("/ru/opendata/").body
    assert f'href="/ru/opendata/{dataset["name"]}/"' in page
    assert 'action="/ru/opendata/"' in page


@pytest.mark.parametrize("path", ["/cs/dataset/{name}", "/cs/opendata/"])
def test_the_passport_and_registry_keep_the_page_s_language_for_their_words_and_none_for_rdfa(web, publish, path):
    """lang="" would unmark the Czech labels for screen readers: the RDFa's plain literals come from xml:lang=""."""
    dataset = publish("harvested")
    page = BeautifulSoup(web.get(path.format(name=dataset["name"])).body, "html.parser")

    block = page.select_one(".passport-publication, .opendata-registry")
    assert block.get("xml:lang") == "" and "lang" not in block.attrs
    assert not page.select("[lang='']")


def test_the_passport_s_texts_carry_the_record_s_language_and_stay_plain_rdfa_literals(web, publish):
    """A Russian record's passport on a Czech page: a screen reader reads its title in Russian."""
    dataset = publish("harvested")
    page = BeautifulSoup(web.get(f"/cs/dataset/{dataset['name']}").body, "html.parser")

    title = page.select_one(".passport-publication [property='dc:title']")
    assert title["lang"] == dataset["record_language"] == "ru" and title["xml:lang"] == ""
    assert page.select_one(".passport-publication th").find_parent(attrs={"lang": True}).name == "html"


def test_the_passport_s_identifier_dates_formats_and_links_carry_no_language(web, publish):
    """Only texts are in the record's language: a consumer reading lang (not xml:lang) keeps these plain."""
    dataset = publish("harvested")
    page = BeautifulSoup(web.get(f"/cs/dataset/{dataset['name']}").body, "html.parser")

    texts = {"dc:title", "dc:description", "dc:creator", "foaf:name", "dc:provenance", "dc:subject"}
    others = [e for e in page.select(".passport-publication [property]") if e["property"] not in texts]
    assert {e["property"] for e in others} >= {"dc:identifier", "dc:created", "dc:format", "dc:source"}
    assert [e["property"] for e in others if e.find_parent(attrs={"lang": True}).name != "html" or e.has_attr("lang")] == []


def test_a_russian_record_s_title_is_marked_russian_on_its_czech_page(web, publish):
    dataset = publish("harvested")
    page = BeautifulSoup(web.get(f"/cs/dataset/{dataset['name']}").body, "html.parser")

    assert page.select_one("h1 span[lang=ru]").get_text() == dataset["title"]
