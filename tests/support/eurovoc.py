"""A synthetic EUROVOC as large as the real one, for the vocabulary search's size and speed (the form tests and
bench/bench_pages.py)."""
from __future__ import annotations

from pathlib import Path


def synthetic_eurovoc(path: Path, count: int) -> Path:
    """A EUROVOC SKOS file of ``count`` concepts, each labelled in cs, en and ru."""
    concepts = "".join(
        f'<skos:Concept rdf:about="http://eurovoc.europa.eu/9{n:05d}">'
        f'<skos:prefLabel xml:lang="cs">syntetický pojem číslo {n}</skos:prefLabel>'
        f'<skos:prefLabel xml:lang="en">synthetic concept number {n}</skos:prefLabel>'
        f'<skos:prefLabel xml:lang="ru">синтетическое понятие номер {n}</skos:prefLabel>'
        f'<skos:broader rdf:resource="http://eurovoc.europa.eu/100210"/></skos:Concept>\n'
        for n in range(count)
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        f'xmlns:skos="http://www.w3.org/2004/02/skos/core#">\n{concepts}</rdf:RDF>\n',
        encoding="utf-8",
    )
    return path
