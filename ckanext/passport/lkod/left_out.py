"""Why a record stays out of the LKOD, said to its people on ``/lkod/``: one block per record, each reason once, as
a sentence in the reader's language that names the field by its form label and says what to do.

``eligibility.reasons`` gives one coded problem per field and per resource: a record of 40 files lacking its four
conditions of use and their formats has 200. Here the resource problems of one field become one sentence counting
the resources ("3 resources have no ..."); each sentence keeps its problem's stable code and field for the page's
``data-code`` and ``data-field``, so that scripts and tests need not read words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

import ckan.plugins.toolkit as tk

from ckanext.passport.catalog.record import conditions
from ckanext.passport.catalog.workflow import states
from ckanext.passport.catalog.workflow.completeness import field_label, form_anchor
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.model import Message, Problem, Translate
from ckanext.passport.mr.problems import N_, Nn_

# An unpublished record: what its state leaves to do.
STATE_ADVICE: dict[str, str] = {
    states.DRAFT: N_("The record is a draft: submit it for review, and an editor publishes it."),
    states.SUBMITTED: N_("The record awaits an editor's review: it is listed once it is published."),
    states.RETURNED: N_("The record was returned for changes: make them and submit it again."),
    states.INVALIDATED: N_("The record was invalidated: it is no longer published."),
}
PRIVATE = N_("The record is private: make it public in '{label}'.")
NO_ICO_PUBLISHER = N_(
    "The data provider has no Czech IČO, by which the national catalog identifies publishers: "
    "choose IČO in '{label}' and give the provider's IČO."
)
NOT_CZECH = N_(
    "'{label}' is {language}, and the national catalog takes titles, descriptions and keywords in Czech: "
    "write them in Czech and choose {czech}."
)
# A record-level field the national catalog needs; ``{label}`` is its form label.
FIELD_ADVICE: dict[str, str] = {
    "title": N_("'{label}' is empty: fill it in."),
    "notes": N_("'{label}' is empty: fill it in."),
    "tags": N_("'{label}' is empty: add at least one keyword."),
    "data_themes": N_("'{label}' has no EU data theme: choose at least one."),
    "accrual_periodicity": N_(
        "'{label}' has no value from the EU frequency list: choose how often the data are updated."
    ),
    "spatial_area": N_(
        "'{label}' names no place of the Czech territorial register (RÚIAN): choose the territory the data cover."
    ),
    "resources": N_(
        "The record has no resource with a web address: add one whose address starts with http:// or https://."
    ),
    "documentation_url": N_(
        "A high-value dataset whose resources are all data services needs documentation: fill in '{label}' "
        "or add a file resource."
    ),
}
# A field of some of the record's resources (distributions), said once with their number.
RESOURCE_ADVICE: dict[str, Message] = {
    conditions.PERSONAL_DATA: Nn_(
        "{count} resource does not say whether its data are personal data: choose it in '{label}' of the "
        "record's conditions of use, or in the resource.",
        "{count} resources do not say whether their data are personal data: choose it in '{label}' of the "
        "record's conditions of use, or in each resource.",
    ),
    "format": Nn_(
        "{count} file has a format the national catalog does not know: choose its '{label}' from the list.",
        "{count} files have a format the national catalog does not know: choose their '{label}' from the list.",
    ),
}
# The conditions of use a licence may decide (conditions.licence_defaults): choosing one is the quickest fix.
CONDITION_ADVICE = Nn_(
    "{count} resource has no '{label}' the national catalog accepts: choose a licence that decides it, "
    "or choose it in the record's conditions of use.",
    "{count} resources have no '{label}' the national catalog accepts: choose a licence that decides it, "
    "or choose it in the record's conditions of use.",
)
# The element of CKAN's dataset form where a record-level reason is put right.
_PRIVATE_ANCHOR = "field-private"


@dataclass(frozen=True)
class Reason:
    """One reason said: ``code`` the problem's, ``field`` the record's field it is about ("" for the record
    itself), ``href`` where the reader puts it right ("" when they may not edit the record)."""

    code: str
    field: str
    text: str
    href: str


@dataclass(frozen=True)
class LeftOut:
    record: Mapping[str, Any]
    editable: bool
    reasons: list[Reason]


def records(left_out: Iterable[tuple[dict[str, Any], list[Problem]]]) -> Iterator[LeftOut]:
    """Each record left out with its reasons said (``catalog_stream.iter_left_out``'s pairs, lazily)."""
    translate = reader_translate()
    for record, problems in left_out:
        editable = _may_edit(record)
        yield LeftOut(record, editable, said(record, problems, translate, editable))


def said(record: Mapping[str, Any], problems: list[Problem], translate: Translate, editable: bool) -> list[Reason]:
    """The record's reasons in the order found, the resource problems of one field as one counted sentence."""
    schema = tk.h.scheming_get_dataset_schema(record.get("type") or "dataset") or {}
    fields = {field["field_name"]: field for field in schema.get("dataset_fields", [])}
    resource_fields = {field["field_name"]: field for field in schema.get("resource_fields", [])}
    edit = tk.url_for(f"{record.get('type') or 'dataset'}.edit", id=record.get("name") or record.get("id"))

    def reason(problem: Problem, name: str, text: str) -> Reason:
        # A resource's format has no place in the record form: no link, the sentence says what to do.
        anchor = _PRIVATE_ANCHOR if name == "private" else form_anchor(fields[name]) if name in fields else ""
        return Reason(problem.code, name, text, f"{edit}#{anchor}" if editable and anchor else "")

    def label(name: str, among: Mapping[str, Mapping[str, Any]] = fields) -> str:
        return field_label(among[name], record) if name in among else name

    said_: list[Reason] = []
    per_resource: dict[str, list[Problem]] = {}
    for problem in problems:
        field = str(problem.params.get("field", ""))
        if problem.code == "lkod.missing_resource_field":
            per_resource.setdefault(field, []).append(problem)
        elif problem.code == "lkod.missing_field":
            text = translate(FIELD_ADVICE.get(field, FIELD_ADVICE["title"])).format(label=label(field))
            said_.append(reason(problem, field, text))
        elif problem.code == "lkod.unpublished":
            said_.append(reason(problem, "", _unpublished(str(problem.params.get("state", "")), translate)))
        elif problem.code == "lkod.private":
            said_.append(reason(problem, "private", translate(PRIVATE).format(label=tk._("Visibility"))))
        elif problem.code == "lkod.no_ico_publisher":
            text = translate(NO_ICO_PUBLISHER).format(label=label("publisher_id_scheme"))
            said_.append(reason(problem, "publisher_id_scheme", text))
        elif problem.code == "lkod.not_czech":
            said_.append(reason(problem, "record_language", _not_czech(record, fields, translate)))
        else:
            said_.append(reason(problem, "", problem.message(translate)))
    for field, found in per_resource.items():
        advice = RESOURCE_ADVICE.get(field, CONDITION_ADVICE)
        count = len(found)
        text = translate.template(advice, {"count": count}).format(
            count=count, label=label(field, resource_fields)
        )
        # A condition of use chosen for the record holds for every resource: its link goes to the record form.
        said_.append(reason(found[0], field, text))
    return said_


def _unpublished(state: str, translate: Translate) -> str:
    advice = STATE_ADVICE.get(state)
    return translate(advice) if advice else states.state_label(state)


def _not_czech(record: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]], translate: Translate) -> str:
    field = fields.get("record_language") or {"field_name": "record_language"}
    choices = tk.h.scheming_field_choices(field) or []
    return translate(NOT_CZECH).format(
        label=field_label(field, record),
        language=tk.h.scheming_choices_label(choices, record.get("record_language")),
        czech=tk.h.scheming_choices_label(choices, "cs"),
    )


def _may_edit(record: Mapping[str, Any]) -> bool:
    try:
        tk.check_access("package_update", {}, {"id": record["id"]})
    except tk.NotAuthorized:
        return False
    return True
