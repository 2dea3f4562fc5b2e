"""The ``passport_vocab_search`` action: anyone searches the vocabularies the form's searchable selects name."""
from __future__ import annotations

from typing import Any, Callable

import ckan.plugins.toolkit as tk

from ckanext.passport.language import current_language

from . import vocab
from .search import search


# The vocabularies the form's searchable selects search (the frequency's short list stays a plain select).
SEARCHABLE = (vocab.EUROVOC, vocab.CZ_NACE, vocab.SPATIAL_AREA, vocab.DATA_THEMES, vocab.HVD_CATEGORY)
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
# Longer than any label: a longer query matches nothing and only costs time.
MAX_QUERY_LENGTH = 200


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


def actions() -> dict[str, Callable]:
    return {"passport_vocab_search": vocab_search}
