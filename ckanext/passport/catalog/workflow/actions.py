"""Actions of the editorial workflow and of the public feedback on records."""
from __future__ import annotations

from typing import Any, Callable

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk

from ..record import record_lock
from . import auth, completeness, feedback, notify, states
from . import model as passport_model


def _package(data_dict: dict[str, Any]) -> model.Package:
    package = model.Package.get(data_dict.get("id") or "")
    if package is None or package.state == "deleted":
        raise tk.ObjectNotFound(tk._("Dataset not found"))
    return package


def _exempt_from_auth(context: dict) -> bool:
    """Whom authorization lets through unchecked: internal calls and sysadmins (CKAN's rule)."""
    return bool(context.get("ignore_auth")) or authz.is_sysadmin(context.get("user"))


def _transition_message(error: states.TransitionError) -> dict[str, list[str]]:
    if error.code == "comment_required":
        return {"comment": [tk._("A comment is required when returning a record")]}
    return {
        "to": [
            tk._("A record in state %(source)s cannot move to %(target)s")
            % {"source": states.state_label(error.source), "target": states.state_label(error.target)}
        ]
    }


def workflow_transition(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Move a record to another editorial state.

    :param id: the dataset's id or name
    :param to: the target state (submitted, published, returned, invalidated)
    :param comment: why; required when returning a record
    :returns: the recorded event (who, when, from, to, comment)
    """
    if data_dict.get("to") not in states.STATES:
        raise tk.ValidationError({"to": [tk._("Unknown editorial state")]})
    tk.check_access("passport_workflow_transition", context, data_dict)
    package = _package(data_dict)
    comment = (data_dict.get("comment") or "").strip()
    # The state is written as the site: the activity stream, public wherever the record is, must not name who
    # reviewed it (the history does, for the curators and the editors). defer_commit: no commit inside the lock.
    site_user = tk.get_action("get_site_user")({"ignore_auth": True, "defer_commit": True}, {})
    # Two reviewers acting at once must not both move the record from the same state.
    source = states.state_of(record_lock.lock(package).extras)
    # The four-eyes rule once more, on what the lock shows: a submission by the same person that committed while
    # this request waited (submit and publish sent at once) was not there when authorization read the record.
    if not _exempt_from_auth(context):
        refusal = auth.four_eyes_refusal(context.get("user"), package, data_dict["to"])
        if refusal:
            model.Session.rollback()
            raise tk.NotAuthorized(refusal)
    try:
        states.find_transition(source, data_dict.get("to") or "", comment)
    except states.TransitionError as error:
        model.Session.rollback()
        raise tk.ValidationError(_transition_message(error))

    actor = model.User.get(context.get("user") or "")
    event = passport_model.record_event(package.id, actor.id if actor else None, source, data_dict["to"], comment)
    # package_patch commits the event together with the new state, or rolls both back on a validation error.
    patched = tk.get_action("package_patch")(
        {"user": site_user["name"], "ignore_auth": True, states.TRANSITION_FLAG: True},
        {"id": package.id, states.FIELD: data_dict["to"]},
    )
    notify.transition(patched, package, event, actor)
    return event.as_dict()


@tk.side_effect_free
def workflow_state(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """A record's editorial state and since when it holds it (its last transition, else its creation).
    Whoever can read the record.

    :param id: the dataset's id or name
    """
    tk.check_access("passport_workflow_state", context, data_dict)
    package = _package(data_dict)
    event = passport_model.last_event(package.id)
    since = event.created if event is not None else package.metadata_created
    return {"id": package.id, "state": states.state_of(package.extras), "since": since.isoformat()}


@tk.side_effect_free
def workflow_history(context: dict, data_dict: dict[str, Any]) -> list[dict[str, Any]]:
    """Every transition of a record, oldest first, with who took it and their comment. The record's curators
    and the editors only.

    :param id: the dataset's id or name
    """
    tk.check_access("passport_workflow_history", context, data_dict)
    return [event.as_dict() for event in passport_model.history(_package(data_dict).id)]


def _page(data_dict: dict[str, Any], default_rows: int) -> tuple[int, int]:
    """A listing's ``rows`` (at most 1000) and ``start``, as the caller sent them; a refusal names a bad one."""
    try:
        return (min(max(int(data_dict.get("rows", default_rows)), 0), 1000),
                max(int(data_dict.get("start", 0)), 0))
    except (TypeError, ValueError):
        raise tk.ValidationError({"rows": [tk._("Invalid integer")]})


def _in_state(context: dict, state: str, narrower: str, sort: str, rows: int, start: int) -> dict[str, Any]:
    """The records in the workflow ``state`` (and ``narrower``, a further filter query) the caller may read."""
    return tk.get_action("package_search")(
        {"user": context.get("user"), "auth_user_obj": context.get("auth_user_obj")},
        {"fq": f"+{states.FIELD}:{state}{narrower}", "include_private": True, "sort": sort, "rows": rows,
         "start": start},
    )


@tk.side_effect_free
def workflow_queue(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Records waiting for review, longest waiting first. Editors only.

    :param rows: how many (default 50, at most 1000)
    :param start: offset
    :returns: ``{"count", "results": [{"id", "name", "title", "organization", "submitted", "missing", "score"}]}``:
        ``missing`` the required fields the record lacks, ``score`` its MR conformance score (a harvested
        record's; ``None`` otherwise)
    """
    tk.check_access("passport_workflow_queue", context, data_dict)
    rows, start = _page(data_dict, 50)
    found = _in_state(context, states.SUBMITTED, "", "metadata_modified asc", rows, start)
    submissions = passport_model.last_submissions([d["id"] for d in found["results"]])
    results = []
    for dataset in found["results"]:
        event = submissions.get(dataset["id"])
        results.append(
            {
                "id": dataset["id"],
                "name": dataset["name"],
                "title": dataset.get("title") or dataset["name"],
                "organization": (dataset.get("organization") or {}).get("title"),
                "submitted": event.as_dict() if event else None,
                "missing": len(completeness.missing_items(dataset)),
                "score": dataset.get("mr_conformance"),
            }
        )
    return {"count": found["count"], "results": results}


@tk.side_effect_free
def workflow_my_records(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """What waits for the signed-in curator: the records of the organizations they curate (editor or admin) that
    were returned to them, each with the editor's latest return (who, when, the comment), then their drafts,
    most recently changed first. The signed-in user's own list only.

    :param rows: how many of each (default 100, at most 1000)
    """
    tk.check_access("passport_workflow_my_records", context, data_dict)
    rows, _start = _page(data_dict, 100)
    organizations = states.curated_organizations(context.get("user"))
    owners = " OR ".join(f'"{organization}"' for organization in organizations)
    lists: dict[str, Any] = {}
    for state in (states.RETURNED, states.DRAFT):
        found = (_in_state(context, state, f" +owner_org:({owners})", "metadata_modified desc", rows, 0)
                 if organizations else {"count": 0, "results": []})
        returns = passport_model.last_events([d["id"] for d in found["results"]], states.RETURNED)
        lists[state] = {
            "count": found["count"],
            "results": [
                {
                    "id": dataset["id"],
                    "name": dataset["name"],
                    "title": dataset.get("title") or dataset["name"],
                    "organization": (dataset.get("organization") or {}).get("title"),
                    "metadata_modified": dataset["metadata_modified"],
                    "returned": returns[dataset["id"]].as_dict() if dataset["id"] in returns else None,
                }
                for dataset in found["results"]
            ],
        }
    return lists


def feedback_create(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Leave a comment or an error report on a record; no account needed.

    :param id: the dataset's id or name
    :param text: the message (at most ``ckanext.passport.feedback_max_length`` characters)
    :param email: optional reply address
    :param kind: ``comment`` (default) or ``error``
    """
    tk.check_access("passport_feedback_create", context, data_dict)
    package = _package(data_dict)
    data, errors = tk.navl_validate(data_dict, feedback.schema(), context)
    if errors:
        raise tk.ValidationError(errors)
    client = feedback.client_hash(context)
    if not feedback.within_rate_limits(client, package.id):
        raise tk.ValidationError(
            {"rate_limit": [tk._("Too many messages were sent recently; please try again later")]}
        )
    stored = passport_model.add_feedback(package.id, data["text"], data.get("email") or None, data["kind"], client)
    return stored.as_dict()


@tk.side_effect_free
def feedback_list(context: dict, data_dict: dict[str, Any]) -> list[dict[str, Any]]:
    """The feedback left on a record, newest first. Its curators and the editors only.

    :param id: the dataset's id or name
    """
    tk.check_access("passport_feedback_list", context, data_dict)
    return [item.as_dict() for item in passport_model.feedback_for(_package(data_dict).id)]


def actions() -> dict[str, Callable]:
    return {
        "passport_workflow_transition": workflow_transition,
        "passport_workflow_state": workflow_state,
        "passport_workflow_history": workflow_history,
        "passport_workflow_queue": workflow_queue,
        "passport_workflow_my_records": workflow_my_records,
        "passport_feedback_create": feedback_create,
        "passport_feedback_list": feedback_list,
    }

