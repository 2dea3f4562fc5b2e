"""Search-as-you-type over the controlled vocabularies: the ``passport_vocab_search`` action and what the form's
searchable selects need to render.

The dataset form carries only the concepts a record has chosen; every other concept is found through the action,
so the form stays the same size whether EUROVOC holds its 148 shipped concepts or a loaded thesaurus of thousands.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Callable, Mapping

import ckan.plugins.toolkit as tk
from ckan.plugins.toolkit import Invalid

from ckanext.passport.language import current_language

from . import vocab

# The vocabularies the form's searchable selects search (the frequency's short list stays a plain select).
SEARCHABLE = (vocab.EUROVOC, vocab.CZ_NACE, vocab.SPATIAL_AREA, vocab.DATA_THEMES, vocab.HVD_CATEGORY)
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
# Longer than any label: a longer query matches nothing and only costs time.
MAX_QUERY_LENGTH = 200


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


def _limit(value: Any) -> int:
    if value in (None, ""):
        return DEFAULT_LIMIT
    try:
        limit = int(value)
    except (TypeError, ValueError):
        raise tk.ValidationError({"limit": [tk._("Invalid integer")]})
    if not 1 <= limit <= MAX_LIMIT:
        raise tk.ValidationError({"limit": [tk._("Must be between 1 and {most}").format(most=MAX_LIMIT)]})
    return limit


@tk.side_effect_free
def vocab_search(context: dict, data_dict: dict[str, Any]) -> list[dict[str, str]]:
    """Concepts of a controlled vocabulary whose label or code matches what was typed. Anyone may search.

    :param vocabulary: ``eurovoc``, ``cz_nace``, ``spatial_area``, ``data_themes`` or ``hvd_category``
    :param q: the typed text (case and diacritics ignored); empty: the vocabulary from its start
    :param language: ``cs``, ``en`` or ``ru`` (default: the request's language)
    :param limit: how many (default 20, at most 100)
    :returns: ``[{"id": stored value, "label": label in the language, "order": its place in the vocabulary}]``,
        best matches first (a form posts several chosen concepts in the vocabulary's order)
    """
    tk.check_access("passport_vocab_search", context, data_dict)
    name = data_dict.get("vocabulary")
    if name not in SEARCHABLE:
        raise tk.ValidationError({"vocabulary": [tk._("Unknown vocabulary")]})
    query = data_dict.get("q") or ""
    if not isinstance(query, str):
        raise tk.ValidationError({"q": [tk._("A text value is expected")]})
    language = data_dict.get("language")
    if language not in vocab.LANGUAGES:
        language = current_language()
    return search(name, query[:MAX_QUERY_LENGTH], language, _limit(data_dict.get("limit")))


@tk.auth_allow_anonymous_access
def vocab_search_auth(context: dict, data_dict: dict[str, Any]) -> dict[str, bool]:
    # The vocabularies are public data files: anyone may search them.
    return {"success": True}


def actions() -> dict[str, Callable]:
    return {"passport_vocab_search": vocab_search}


def auth_functions() -> dict[str, Callable]:
    return {"passport_vocab_search": vocab_search_auth}


# --- the form's searchable select ------------------------------------------------------------------------


def _chosen_keys(value: Any) -> list[str]:
    """A field's chosen codes as the form holds them: a list, one code, or a list's JSON text (a stored extra)."""
    try:
        items = vocab.listed(value)
    except Invalid:
        # Text no list reads from (a stored value gone wrong) is shown as it is, so the curator sees it.
        return [value.strip()] if isinstance(value, str) and value.strip() else []
    return [item for item in items if isinstance(item, str) and item]


def chosen_options(field: Mapping[str, Any], value: Any) -> list[dict[str, str]]:
    """The options a searchable select renders: only the field's chosen values, each labelled in the reader's
    language as the search labels it (an unknown value as it is, so an invalid choice is shown, not lost) and with
    its place in the vocabulary (an unknown value last)."""
    vocabulary = vocab.vocabulary(field["passport_vocabulary"])
    keys = _chosen_keys(value)
    if not keys:
        return []
    language = current_language()
    places = {key: position for position, key in enumerate(vocabulary.concepts)}
    options = []
    for key in keys:
        concept = vocabulary.get(key)
        text = vocab.choice_label(concept, language, vocabulary.coded) if concept else key
        options.append({"value": key, "text": text, "order": places.get(key, len(places))})
    return options


def search_url(field: Mapping[str, Any]) -> str:
    """The action a field's select searches, in the reader's language."""
    return tk.h.url_for(
        "api.action", ver=3, logic_function="passport_vocab_search",
        vocabulary=field["passport_vocabulary"], language=current_language(),
    )


def helpers() -> dict[str, Callable]:
    return {"passport_vocab_chosen": chosen_options, "passport_vocab_search_url": search_url}
