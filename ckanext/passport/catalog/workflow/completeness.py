"""What a record still lacks, said to the person completing it: each field by its form label in the reader's
language, with a link to that field in the edit form, and only the messages a person can act on.

Two sources feed one list of items: the required fields a record leaves empty (the record page and its edit
form show them at the top), and the errors of a refused workflow transition (``ValidationError.error_dict`` of
the record's validation: plain lists, a composite's messages, a repeating field's one dict per item). A refused
transition redirects to the dataset page's workflow block, where the reader is looking: its items travel there
in the session, keyed by the record, and are shown once.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

import ckan.plugins.toolkit as tk
from flask import session

from ..record.display import missing_required
from ..record.validators import conditions_rule

# The session key carrying a refused transition's items from the POST to the dataset page it redirects to.
SESSION_KEY = "passport_transition_problems"

# Form element ids CKAN's dataset form gives a field other than ``field-<field_name>``.
_FORM_IDS = {"owner_org": "field-organizations", "tag_string": "field-tags"}


def form_anchor(field: Mapping[str, Any]) -> str:
    """The id of the field's element in the dataset edit form (a repeating field: its first item's first part)."""
    name = field["field_name"]
    if name in _FORM_IDS:
        return _FORM_IDS[name]
    subfields = field.get("repeating_subfields")
    if subfields:
        return f"field-{name}-0-{subfields[0]['field_name']}"
    return f"field-{name}"


def _messages(value: Any) -> Iterable[str]:
    """Every message of an error value: a message, a list of them, a dict of them, nested at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _messages(item)


def curator_messages(field_name: str, value: Any) -> list[str]:
    """The messages of one field's errors a curator can act on, once each: "Missing value" says nothing the
    field's name does not, and the openness object's keys are the API's wording (the form asks per condition)."""
    texts = list(dict.fromkeys(text for text in _messages(value) if text))
    if field_name == "openness_conditions" and texts:
        return [tk._("State for each openness condition whether the data fulfil it")]
    generic = {tk._("Missing value"), conditions_rule()}
    return [text for text in texts if text not in generic]


def _schema(pkg_dict: Mapping[str, Any]) -> Mapping[str, Any]:
    return tk.h.scheming_get_dataset_schema(pkg_dict.get("type") or "dataset") or {}


def field_label(field: Mapping[str, Any], pkg_dict: Mapping[str, Any]) -> str:
    """The field's label for this record, in the reader's language. A field whose meaning follows another field's
    value names it (``passport_labels_by``: the other field, and a label per value): the provider identifier is an
    IČO for a Czech provider, an INN for a Russian one. Otherwise, and for a value it does not list, its label."""
    label = field.get("label") or field["field_name"]
    by = field.get("passport_labels_by")
    if isinstance(by, Mapping):
        label = (by.get("labels") or {}).get(pkg_dict.get(by.get("field") or ""), label)
    return tk.h.scheming_language_text(label)


def _item(field: Mapping[str, Any], pkg_dict: Mapping[str, Any], messages: list[str]) -> dict[str, Any]:
    edit = tk.url_for(f"{pkg_dict.get('type') or 'dataset'}.edit", id=pkg_dict.get("name") or pkg_dict.get("id"))
    return {
        "field_name": field["field_name"],
        "label": field_label(field, pkg_dict),
        "href": f"{edit}#{form_anchor(field)}",
        "messages": messages,
    }


def missing_items(pkg_dict: Mapping[str, Any], schema: Optional[Mapping[str, Any]] = None) -> list[dict[str, Any]]:
    """The record's required fields left empty, in form order, each with its label and link. A field with a
    default is left out: the form shows it filled in and a save stores it (a harvested record's validity)."""
    return [
        _item(field, pkg_dict, [])
        for field in missing_required(pkg_dict, schema or _schema(pkg_dict))
        if field.get("default") in (None, "")
    ]


def error_entries(error_dict: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A refused transition's errors as plain data for the session: field → the messages a curator acts on."""
    return [{"field": str(key), "messages": curator_messages(str(key), value)} for key, value in error_dict.items()]


def error_items(pkg_dict: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Entries of :func:`error_entries` as shown: the record's fields in form order with their labels and links,
    then any other message (a refused state change, a missing comment) on its own."""
    fields = {field["field_name"]: field for field in _schema(pkg_dict).get("dataset_fields", [])}
    position = {name: index for index, name in enumerate(fields)}
    entries = list(entries)
    known = sorted((e for e in entries if e["field"] in fields), key=lambda e: position[e["field"]])
    items = [_item(fields[e["field"]], pkg_dict, list(e["messages"])) for e in known]
    for entry in entries:
        if entry["field"] not in fields:
            items.extend({"field_name": "", "label": "", "href": "", "messages": [text]} for text in entry["messages"])
    return items


def remember_refusal(package_id: str, target: str, error_dict: Mapping[str, Any]) -> None:
    """Keep a refused transition's errors for the dataset page the refusal redirects to."""
    session[SESSION_KEY] = {"id": package_id, "target": target, "entries": error_entries(error_dict)}


def take_refusal(pkg_dict: Mapping[str, Any]) -> Optional[dict[str, Any]]:
    """The refused transition of this record kept for its page, removed from the session; ``None`` without one.
    ``{"target", "items"}``."""
    kept = session.get(SESSION_KEY)
    if not isinstance(kept, Mapping) or kept.get("id") not in (pkg_dict.get("id"), pkg_dict.get("name")):
        return None
    session.pop(SESSION_KEY, None)
    return {"target": kept.get("target") or "", "items": error_items(pkg_dict, kept.get("entries") or [])}


def helpers() -> dict[str, Any]:
    return {"passport_missing_items": missing_items, "passport_field_label": field_label}
