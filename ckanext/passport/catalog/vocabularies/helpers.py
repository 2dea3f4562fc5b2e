"""What the form's searchable selects render: only the record's chosen concepts, each labelled as the search labels
it, and the action a select searches."""
from __future__ import annotations

from typing import Any, Callable, Mapping

import ckan.plugins.toolkit as tk
from ckan.plugins.toolkit import Invalid

from ckanext.passport.language import current_language

from . import vocab


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
