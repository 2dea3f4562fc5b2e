"""Template helpers that show the catalog record readably: only its filled fields (and, to those who complete
it, the required ones still missing), the conditions checklist with its fulfilment, and vocabulary values with
labels in the reader's language (the openness check's results beside the checklist: openness.helpers)."""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional
from urllib.parse import quote, unquote_to_bytes

import ckan.plugins.toolkit as tk

from ckanext.passport.language import current_language, offered_locales, readable_date

from ..vocabularies import vocab
from . import conditions
from .validators import OPENNESS_CONDITIONS


def condition_label(code: str) -> str:
    labels = {
        "complete": tk._("Complete: all the data are published"),
        "accessible": tk._("Easily accessible: on the web, without registration"),
        "machine_readable": tk._("Machine-readable"),
        "open_format": tk._("In a format with a freely available specification"),
        "open_terms": tk._("Clear terms of use with minimal restrictions"),
        "free": tk._("Available at minimal or no cost"),
    }
    return labels.get(code, code)


def fulfilment_label(value: Optional[str]) -> str:
    return {"yes": tk._("fulfilled"), "no": tk._("not fulfilled")}.get(value or "", tk._("not stated"))


def conditions_checklist(value: Any) -> list[dict[str, Any]]:
    """Every openness condition with its label and fulfilment, in the fixed order of the checklist."""
    stated = vocab.as_list(value)
    answers = stated[0] if stated and isinstance(stated[0], Mapping) else {}
    return [
        {
            "code": code,
            "label": condition_label(code),
            "value": answers.get(code),
            "fulfilment": fulfilment_label(answers.get(code)),
        }
        for code in OPENNESS_CONDITIONS
    ]


def form_checklist(data: Mapping[str, Any], field_name: str) -> list[dict[str, Any]]:
    """The checklist the form shows: what the visitor posted when the form comes back with errors, else the stored
    answers. CKAN shows a refused form from the posted fields, where the checklist is one
    ``<field>-<condition>`` input per condition and the field itself is absent."""
    posted = {code: data[f"{field_name}-{code}"] for code in OPENNESS_CONDITIONS if f"{field_name}-{code}" in data}
    return conditions_checklist(posted if posted else data.get(field_name))


def resource_versions(pkg_dict: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The record's resources as its page lists them: ``shown``, the current MR data version (the newest) and the
    structure version it conforms to (else the newest), and every resource that is no MR version; ``earlier``,
    the other MR versions, newest first, for a fold."""
    resources = list(pkg_dict.get("resources") or [])

    def versions(kind: str) -> list[dict[str, Any]]:
        return sorted((r for r in resources if r.get("resource_type") == kind and r.get("mr_version")),
                      key=lambda r: str(r["mr_version"]), reverse=True)

    data, structures = versions("data"), versions("structure")
    current = set()
    if data:
        current.add(data[0]["id"])
    wanted = data[0].get("mr_structure_version") if data else None
    structure = next((r for r in structures if r["mr_version"] == wanted), structures[0] if structures else None)
    if structure is not None:
        current.add(structure["id"])
    versioned = {r["id"] for r in data + structures}
    return {
        "shown": [r for r in resources if r.get("id") in current or r.get("id") not in versioned],
        "earlier": [r for r in data + structures if r["id"] not in current],
    }


def vocab_values(name: str, value: Any) -> list[dict[str, str]]:
    """Vocabulary keys of a field with labels in the reader's language (EUROVOC items keep their URI)."""
    language = current_language()
    values = []
    for item in vocab.as_list(value):
        key = item.get("uri") if isinstance(item, Mapping) else item
        if not isinstance(key, str) or not key:
            continue
        concept = vocab.vocabulary(name).get(key)
        values.append({
            "key": key,
            "label": concept.label(language) if concept else (item.get("label") if isinstance(item, Mapping) else key) or key,
            "code": (concept.notation if concept and concept.notation else ("" if key.startswith("http") else key)),
            "known": concept is not None,
        })
    return values


# Fields the dataset page shows outside the "Additional info" table (heading, description, tags, licence,
# organization): ckanext-scheming's own list for that table.
SHOWN_ELSEWHERE = frozenset({"id", "title", "name", "notes", "tag_string", "license_id", "owner_org"})


def filled(value: Any) -> bool:
    """Whether a field of the record holds anything to show (``0`` does; blanks and empty lists do not)."""
    if isinstance(value, str):
        return bool(value.strip())
    return value is not None and value != [] and value != {}


def missing_required(pkg_dict: Mapping[str, Any], schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The record's required fields left empty, in form order (a harvested record lacks the curator's part)."""
    return [
        field for field in schema.get("dataset_fields", [])
        if field.get("required") and not filled(pkg_dict.get(field["field_name"]))
    ]


def record_rows(pkg_dict: Mapping[str, Any], schema: Mapping[str, Any], curating: bool) -> list[dict[str, Any]]:
    """The rows of the record's "Additional info" table: its filled fields, and for a reader who completes the
    record (``curating``) each missing required field, marked missing; a required field left empty that has a
    default shows its default (``data``: the record with it), as the form does. Empty optional fields are never
    rows, nor a field holding its ``passport_row_unless`` value; a condition of use left blank is a row when the
    licence decides it (shown as derived)."""
    effective = conditions.effective_conditions(pkg_dict)
    rows = []
    for field in schema.get("dataset_fields", []):
        if field["field_name"] in SHOWN_ELSEWHERE or ("display_snippet" in field and field["display_snippet"] is None):
            continue
        # A value every record has unless it says otherwise (record_kind's "dataset") tells a reader nothing.
        if "passport_row_unless" in field and pkg_dict.get(field["field_name"]) == field["passport_row_unless"]:
            continue
        if filled(pkg_dict.get(field["field_name"])) or effective.get(field["field_name"]):
            rows.append({"field": field, "missing": False})
        elif field.get("required") and field.get("default") not in (None, ""):
            # The form shows the default filled in and a save stores it (a harvested record's validity): the page
            # says the same, not "missing".
            rows.append({"field": field, "missing": False, "data": {**pkg_dict, field["field_name"]: field["default"]}})
        elif curating and field.get("required"):
            rows.append({"field": field, "missing": True})
    return rows


# --- conditions of use: the value that holds, and where it comes from ----------------------------------------


def _choice_text(field: Mapping[str, Any], value: str) -> str:
    for choice in field.get("choices") or []:
        if choice["value"] == value:
            return tk.h.scheming_language_text(choice["label"])
    return value


def _dataset_of(resource: Mapping[str, Any]) -> Mapping[str, Any]:
    """The dataset a resource belongs to, as its reader may see it (the resource form and page carry only the
    resource; a new resource's form names its dataset in the URL)."""
    reference = resource.get("package_id") or (tk.request.view_args or {}).get("id")
    if not reference:
        return {}
    # Each condition field of a page asks: one read per request.
    datasets = tk.g.setdefault("passport_condition_datasets", {})
    if reference not in datasets:
        try:
            datasets[reference] = tk.get_action("package_show")({}, {"id": reference})
        except (tk.ObjectNotFound, tk.NotAuthorized):
            datasets[reference] = {}
    return datasets[reference]


def condition_shown(field: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """A condition of use as a page shows it: the value that holds (with its label) and, when it is not stated
    here, where it comes from (``source``: ``dataset``, ``provider`` or ``licence``)."""
    name = field["field_name"]
    on_resource = field.get("passport_condition") == "resource"
    dataset = _dataset_of(data) if on_resource else data
    value = conditions.effective_conditions(dataset, data if on_resource else None)[name]
    if not value or filled(data.get(name)):
        source = ""
    elif on_resource and filled(dataset.get(name)):
        source = "dataset"
    elif name in conditions.AUTHOR_OF.values():
        source = "provider"
    else:
        source = "licence"
    return {"value": value, "label": _choice_text(field, value), "source": source}


def condition_source_note(source: str) -> str:
    return {
        "licence": tk._("derived from the licence"),
        "provider": tk._("the provider, as the licence asks for an author"),
        "dataset": tk._("as for the whole dataset"),
    }.get(source, "")


def blank_conditions(resource: Mapping[str, Any]) -> dict[str, str]:
    """The conditions of use a resource leaves out, as blanks: for the page to show the value that holds."""
    return {name: "" for name in conditions.FIELDS if name not in resource}


def condition_blank_label(field: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """The form's blank choice of a condition of use, naming the value that holds when it is left blank."""
    if field.get("passport_condition") == "resource":
        dataset = _dataset_of(data)
        value = conditions.effective_conditions(dataset)[field["field_name"]]
        if value:
            return tk._("As for the dataset: {value}").format(value=_choice_text(field, value))
        return tk._("As for the dataset (not stated)")
    derived = conditions.licence_defaults(data.get("license_id")).get(field["field_name"])
    if derived:
        return tk._("From the licence: {value}").format(value=_choice_text(field, derived))
    return tk._("Not stated (the licence does not decide it)")


def readable_url(url: Any) -> str:
    """A web address as people read it: percent-encoded letters decoded ("…/Аптеки.csv", not "…/%D0%90…"), for
    display only (the link keeps the address as it is). Encoded characters that would change how it reads (space,
    slash, control characters) and bytes that are no UTF-8 stay encoded."""
    text = str(url or "")
    if "%" not in text:
        return text

    def decode(match: "re.Match[str]") -> str:
        try:
            decoded = unquote_to_bytes(match.group(0)).decode("utf-8")
        except UnicodeDecodeError:
            return match.group(0)
        return "".join(quote(ch, safe="") if ch in KEEP_ENCODED or not ch.isprintable() else ch for ch in decoded)

    return ENCODED_RUN.sub(decode, text)


ENCODED_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
KEEP_ENCODED = frozenset(" /?#&=%+")


@tk.chained_helper
def render_datetime(next_helper: Any, datetime_: Any, date_format: Optional[str] = None, with_hours: bool = False,
                    with_seconds: bool = False) -> str:
    """CKAN's ``h.render_datetime`` with the hours in the reader's language's order: CKAN writes them with the
    English pattern "MMMM d, YYYY, HH:mm" in every language ("prosince 1, 2026")."""
    if not with_hours or date_format or with_seconds:
        return next_helper(datetime_, date_format=date_format, with_hours=with_hours, with_seconds=with_seconds)
    try:
        moment = tk.h.date_str_to_datetime(datetime_) if isinstance(datetime_, str) else datetime_
    except (ValueError, TypeError):
        return ""
    return readable_date(moment, with_hours=True) if moment else ""


def state_label(state: Any) -> str:
    """A stored CKAN state (``active`` …) in words of the reader's language."""
    return {
        "active": tk._("Active"),
        "deleted": tk._("Deleted"),
        "draft": tk._("Draft"),
    }.get(str(state), str(state or ""))


def mr_part_label(value: Any) -> str:
    """A resource's MR part (``data``, ``structure``) in words."""
    return {"data": tk._("Data version"), "structure": tk._("Structure version")}.get(str(value), str(value or ""))


def helpers() -> dict[str, Any]:
    return {
        "render_datetime": render_datetime,
        "passport_date": readable_date,
        "passport_readable_url": readable_url,
        "passport_offered_locales": offered_locales,
        "passport_resource_state_label": state_label,
        "passport_mr_part_label": mr_part_label,
        "passport_condition_shown": condition_shown,
        "passport_condition_source_note": condition_source_note,
        "passport_condition_blank_label": condition_blank_label,
        "passport_blank_conditions": blank_conditions,
        "passport_filled": filled,
        "passport_missing_required": missing_required,
        "passport_record_rows": record_rows,
        "passport_conditions_checklist": conditions_checklist,
        "passport_conditions_form_checklist": form_checklist,
        "passport_vocab_values": vocab_values,
        "passport_resource_versions": resource_versions,
    }
