"""Search-as-you-type over the controlled vocabularies: a concept found by its label in the reader's language or
by its code, case and diacritics ignored, best matches first.

The dataset form carries only the concepts a record has chosen; every other concept is found through the
``passport_vocab_search`` action (actions.py), so the form stays the same size whether EUROVOC holds its 148 shipped
concepts or a loaded thesaurus of thousands.
"""
from __future__ import annotations

import unicodedata

from . import vocab


def folded(text: str) -> str:
    """``text`` for matching: case-folded and without diacritics, so "brno" finds "Brno-město" and "zeme" "Země"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


# Per vocabulary and language: the vocabulary object they were folded from, and each concept's folded label and
# codes. Folding a loaded EUROVOC's labels takes longer than searching them; a new `vocab load` is a new object.
_FOLDED: dict[tuple[str, str], tuple[vocab.Vocabulary, list[tuple[str, list[str]]]]] = {}


def _folded_labels(vocabulary: vocab.Vocabulary, language: str) -> list[tuple[str, list[str]]]:
    kept = _FOLDED.get((vocabulary.name, language))
    if kept is not None and kept[0] is vocabulary:
        return kept[1]
    labels = [
        (folded(concept.label(language)),
         [folded(code) for code in (concept.notation, concept.key) if code and not code.startswith("http")])
        for concept in vocabulary
    ]
    _FOLDED[(vocabulary.name, language)] = (vocabulary, labels)
    return labels


def _rank(query: str, label: str, codes: list[str]) -> int | None:
    """0: the label or a code starts with the query, 1: a word of the label does, 2: the label contains it;
    ``None``: no match."""
    if label.startswith(query) or any(code.startswith(query) for code in codes):
        return 0
    position = label.find(query)
    if position < 0:
        return None
    return 1 if not label[position - 1].isalnum() else 2


def search(name: str, query: str, language: str, limit: int) -> list[dict[str, str]]:
    """The concepts of vocabulary ``name`` whose label in ``language`` or code matches ``query``, best first (in
    the vocabulary's order within a rank); every concept, in order, for an empty query."""
    vocabulary = vocab.vocabulary(name)
    wanted = folded(query.strip())
    ranked: list[tuple[int, int, vocab.Concept]] = []
    for position, (concept, (label, codes)) in enumerate(zip(vocabulary, _folded_labels(vocabulary, language))):
        if not vocab.choosable(name, concept):
            continue
        rank = _rank(wanted, label, codes) if wanted else 0
        if rank is not None:
            ranked.append((rank, position, concept))
    ranked.sort(key=lambda found: found[:2])
    return [
        {"id": concept.key, "label": vocab.choice_label(concept, language, vocabulary.coded), "order": position}
        for _, position, concept in ranked[:limit]
    ]
