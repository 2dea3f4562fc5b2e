"""Template helpers of the editorial workflow: the dataset page's workflow block, a returned record's notice, what
waits for a curator or an editor, and the header's queue count; each limited to what the visitor may see and do."""
from __future__ import annotations

from typing import Any, Callable, Optional

import ckan.plugins.toolkit as tk

from . import completeness, feedback, states, visibility
from . import model as passport_model
from .views import FEEDBACK_BLOCK, HONEYPOT, WORKFLOW_BLOCK, request_context, take_confirmation


def _allowed(action: str, data_dict: dict[str, Any]) -> bool:
    try:
        tk.check_access(action, request_context(), data_dict)
    except (tk.NotAuthorized, tk.ObjectNotFound):
        return False
    return True


def workflow_panel(pkg_dict: dict[str, Any]) -> dict[str, Any]:
    """Everything the dataset page shows of the workflow, limited to what the visitor may see and do."""
    state = states.state_of(pkg_dict)
    transitions = [
        {"target": t.target, "label": states.action_label(t), "comment_required": t.comment_required}
        for t in states.transitions_from(state)
        if _allowed("passport_workflow_transition", {"id": pkg_dict["id"], "to": t.target})
    ]
    can_read_feedback = _allowed("passport_feedback_list", {"id": pkg_dict["id"]})
    return {
        "state": state,
        "state_label": states.state_label(state),
        "since": tk.get_action("passport_workflow_state")(request_context(), {"id": pkg_dict["id"]})["since"],
        "unreviewed": visibility.unreviewed(pkg_dict),
        "transitions": transitions,
        "history": tk.get_action("passport_workflow_history")(request_context(), {"id": pkg_dict["id"]})
        if _allowed("passport_workflow_history", {"id": pkg_dict["id"]})
        else [],
        "feedback": tk.get_action("passport_feedback_list")(request_context(), {"id": pkg_dict["id"]})
        if can_read_feedback
        else None,
        "feedback_max_length": feedback.max_text_length(),
        "refusal": completeness.take_refusal(pkg_dict),
        "confirmation": take_confirmation(pkg_dict, WORKFLOW_BLOCK),
        "feedback_confirmation": take_confirmation(pkg_dict, FEEDBACK_BLOCK),
        "honeypot": HONEYPOT,
    }


def return_notice(pkg_dict: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The editor's latest return (who, when, the comment) of a record in state returned, for those who may read
    its history (its curators and the editors); ``None`` otherwise."""
    if states.state_of(pkg_dict) != states.RETURNED or not _allowed(
        "passport_workflow_history", {"id": pkg_dict["id"]}
    ):
        return None
    event = passport_model.last_event(pkg_dict["id"], states.RETURNED)
    return event.as_dict() if event is not None else None


def records_awaiting() -> dict[str, Any]:
    """What waits for the signed-in curator (passport_workflow_my_records), for the dashboard."""
    return tk.get_action("passport_workflow_my_records")(request_context(), {})


def is_editor() -> bool:
    return states.is_editor(tk.g.user)


def queue_count() -> int:
    """How many records wait for review (passport_workflow_queue), for the header's link to the queue."""
    return tk.get_action("passport_workflow_queue")(request_context(), {"rows": 0})["count"]


def refusal_heading(target: str) -> str:
    """What the block of a refused transition says first."""
    if target == states.SUBMITTED:
        return tk._("The record cannot be submitted for review yet. Fill in or correct:")
    return tk._("The record could not be moved to the state %(state)s:") % {"state": states.state_label(target)}


def helpers() -> dict[str, Callable]:
    return {
        "passport_refusal_heading": refusal_heading,
        "passport_workflow_panel": workflow_panel,
        "passport_state_label": states.state_label,
        "passport_is_editor": is_editor,
        "passport_queue_count": queue_count,
        "passport_return_notice": return_notice,
        "passport_my_records": records_awaiting,
    }
