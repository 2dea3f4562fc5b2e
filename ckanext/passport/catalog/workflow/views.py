"""Pages of the editorial workflow: the editors' queue, the dataset page's transition and feedback forms.

Every form posts through CKAN's CSRF protection; every decision is the actions' (check_access), the
templates only leave out what the visitor could not do anyway.
"""
from __future__ import annotations

from typing import Any, Optional

import ckan.plugins.toolkit as tk
from flask import Blueprint, Response, current_app, session

from . import completeness, states

# A field people never see and bots fill in: such a post is thanked for and dropped.
HONEYPOT = "website"
# The session key carrying an action's confirmation (or its errors) to the block of the page it redirects to.
CONFIRMATION_KEY = "passport_confirmation"
WORKFLOW_BLOCK = "workflow"
FEEDBACK_BLOCK = "feedback"

blueprint = Blueprint("passport_workflow", __name__)


def request_context() -> dict[str, Any]:
    """The signed-in user's context for the actions a page or a template helper calls."""
    return {"user": tk.g.user}


def _dataset_page(name_or_id: str, anchor: str = "") -> Response:
    return tk.redirect_to(tk.url_for("dataset.read", id=name_or_id) + anchor)


def _require_csrf() -> None:
    """Check the form's CSRF token, answering 400 without it.

    CKAN 2.11 skips the check for every request without a logged-in session: its API-token fallback marks
    them all as header logins. These forms are for browsers, anonymous visitors included, so they check.
    """
    current_app.extensions["csrf"].protect()


def _confirm(package: str, block: str, messages: list[str], kind: str = "success") -> Response:
    """Land on the message, shown in the page's ``block``: a flash message at the top of the page would be out of
    sight of a visitor sent down to the block. The browser focuses the element its fragment names (tabindex -1),
    so a screen reader says it."""
    session[CONFIRMATION_KEY] = {"id": package, "block": block, "kind": kind, "messages": messages}
    return _dataset_page(package, "#passport-confirmation")


def take_confirmation(pkg_dict: dict[str, Any], block: str) -> Optional[dict[str, Any]]:
    """The confirmation kept for this record's ``block``, removed from the session; ``None`` without one.
    ``{"kind": "success" | "danger", "messages"}``."""
    kept = session.get(CONFIRMATION_KEY)
    if not isinstance(kept, dict) or kept.get("block") != block or kept.get("id") not in (
        pkg_dict.get("id"), pkg_dict.get("name")
    ):
        return None
    session.pop(CONFIRMATION_KEY, None)
    return {"kind": kept.get("kind") or "success", "messages": list(kept.get("messages") or [])}


def _error_messages(error: tk.ValidationError) -> list[str]:
    return [
        text
        for messages in error.error_dict.values()
        for text in (messages if isinstance(messages, list) else [messages])
    ]


@blueprint.route("/passport/queue")
def queue() -> str:
    try:
        found = tk.get_action("passport_workflow_queue")(request_context(), {"rows": 1000})
    except tk.NotAuthorized:
        return tk.abort(403, tk._("Only editors may see the review queue"))
    return tk.render("passport/queue.html", {"queue": found})


@blueprint.route("/passport/my-records")
def my_records() -> str:
    try:
        found = tk.get_action("passport_workflow_my_records")(request_context(), {})
    except tk.NotAuthorized:
        return tk.abort(403, tk._("Sign in to see the records waiting for you"))
    return tk.render("passport/my_records.html", {"records": found})


@blueprint.route("/dataset/<id>/passport/transition", methods=["POST"])
def transition(id: str) -> Response:
    _require_csrf()
    form = tk.request.form
    try:
        tk.get_action("passport_workflow_transition")(
            request_context(), {"id": id, "to": form.get("to", ""), "comment": form.get("comment", "")}
        )
    except tk.ObjectNotFound:
        return tk.abort(404, tk._("Dataset not found"))
    except tk.NotAuthorized as error:
        return tk.abort(403, str(error) or tk._("Not authorized"))
    except tk.ValidationError as error:
        # Shown in the workflow block the page lands on, each field named and linked (completeness), not as
        # flash messages at the top of the page, out of sight.
        completeness.remember_refusal(id, form.get("to", ""), error.error_dict)
        return _dataset_page(id, "#passport-refusal")
    return _confirm(
        id, WORKFLOW_BLOCK, [tk._("The record is now: %(state)s") % {"state": states.state_label(form["to"])}]
    )


@blueprint.route("/dataset/<id>/passport/feedback", methods=["POST"])
def leave_feedback(id: str) -> Response:
    _require_csrf()
    form = tk.request.form
    if form.get(HONEYPOT):
        return _confirm(id, FEEDBACK_BLOCK, [tk._("Thank you for your feedback")])
    data = {"id": id, "text": form.get("text", ""), "kind": form.get("kind") or "comment"}
    if form.get("email", "").strip():
        data["email"] = form["email"]
    try:
        tk.get_action("passport_feedback_create")(request_context(), data)
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return tk.abort(404, tk._("Dataset not found"))
    except tk.ValidationError as error:
        return _confirm(id, FEEDBACK_BLOCK, _error_messages(error), "danger")
    return _confirm(id, FEEDBACK_BLOCK, [tk._("Thank you for your feedback")])


def blueprints() -> list[Blueprint]:
    return [blueprint]
