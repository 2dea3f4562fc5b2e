"""Reading an RDFa page touches neither the network nor the file system: pyRdfa gets the DOM alone, with vocabulary
expansion, its cache and embedded RDF off, so ``vocab``, ``profile``, ``prefix``, an embedded Turtle script, a
DTD and an external entity naming a recording local server are never requested."""
from __future__ import annotations

from pathlib import Path

from rdflib import URIRef

from ckanext.passport.mr.rdfagraph import read_page

PAGE = """<!DOCTYPE html SYSTEM "{site}/dtd">
<html prefix="ex: {site}/prefix#"><head profile="{site}/profile"><link rel="profile" href="{site}/link"></head>
<body vocab="{site}/vocab#">
<div about="https://x.cz/a" typeof="Dataset"><span property="name">N</span>
<span property="ex:p">P</span></div>
<script type="text/turtle">@prefix t: <{site}/turtle#> . <https://x.cz/a> t:p "v" .</script>
</body></html>"""
ENTITY_PAGE = """<!DOCTYPE html [<!ENTITY ext SYSTEM "{site}/entity"><!ENTITY file SYSTEM "{file}">]>
<html><body vocab="http://schema.org/"><div about="https://x.cz/a"><span property="name">&ext;&file;</span></div>
</body></html>"""


def test_an_rdfa_page_naming_a_server_everywhere_is_read_without_a_request(tmp_path: Path, serve_site) -> None:
    site = serve_site(tmp_path)
    page = read_page(PAGE.format(site=site.url).encode("utf-8"), f"{site.url}/page")
    assert (URIRef("https://x.cz/a"), URIRef(f"{site.url}/vocab#name"), None) in page.graph
    assert site.hits == []


def test_an_external_entity_of_an_rdfa_page_is_neither_requested_nor_read(tmp_path: Path, serve_site) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", "utf-8")
    site = serve_site(tmp_path)
    page = read_page(ENTITY_PAGE.format(site=site.url, file=secret.as_uri()).encode("utf-8"), f"{site.url}/page")
    assert "SECRET" not in {str(value) for value in page.graph.objects()}
    assert site.hits == []


def test_reading_an_rdfa_page_writes_no_vocabulary_cache(tmp_path: Path, serve_site, monkeypatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PyRdfaCacheDir", str(home / "cache"))
    site = serve_site(tmp_path)
    read_page(PAGE.format(site=site.url).encode("utf-8"), f"{site.url}/page")
    assert list(home.iterdir()) == []
