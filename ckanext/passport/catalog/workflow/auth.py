"""Auth functions of the workflow and feedback actions. Sysadmins pass every one of them (CKAN's rule),
which is also the only exception to the four-eyes rule on publishing."""
from __future__ import annotations

from typing import Any, Callable, Optional

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk

from . import model as passport_model
from . import states


def _package(data_dict: dict[str, Any]) -> model.Package:
    package = model.Package.get(data_dict.get("id") or "")
    if package is None:
        raise tk.ObjectNotFound(tk._("Dataset not found"))
    return package


def _can_read(context: dict, package: model.Package) -> bool:
    return authz.is_authorized("package_show", context, {"id": package.id})["success"]


def _refused(message: str) -> dict[str, Any]:
    return {"success": False, "msg": message}


def four_eyes_refusal(user: Optional[str], package: model.Package, target: str) -> Optional[str]:
    """Why ``user`` may not move ``package`` to ``target`` under the four-eyes rule, or None.

    Read from the record's current state and last submission: the action asks again under the row lock.
    """
    actor = model.User.get(user) if user else None
    submission = passport_model.last_submission(package.id)
    if states.violates_four_eyes(
        states.state_of(package.extras), target, actor.id if actor else None,
        submission.user_id if submission else None,
    ):
        return tk._("The record must be approved by someone other than who submitted it")
    return None


def workflow_transition(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """The role comes from the target state: curators submit, editors publish, return and invalidate.

    The state machine itself (is this transition possible now?) is the action's concern, not authorization.
    """
    package = _package(data_dict)
    user = context.get("user")
    target = data_dict.get("to") or ""
    role = states.CURATOR if target == states.SUBMITTED else states.EDITOR
    if role == states.CURATOR and not states.is_curator(user, package):
        return _refused(tk._("Only the record's curators may submit it for review"))
    if role == states.EDITOR:
        if not states.is_editor(user):
            return _refused(tk._("Only editors may review records"))
        refusal = four_eyes_refusal(user, package, target)
        if refusal:
            return _refused(refusal)
    return {"success": True}


def _curator_or_editor(context: dict, package: model.Package) -> bool:
    user = context.get("user")
    return states.is_curator(user, package) or states.is_editor(user)


@tk.auth_allow_anonymous_access
def workflow_state(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Whoever can read the record can read its state and since when it holds it."""
    if _can_read(context, _package(data_dict)):
        return {"success": True}
    return _refused(tk._("Not authorized to read this dataset"))


def workflow_history(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """How the record got there (who reviewed it, what they asked for) is its curators' and the editors' matter."""
    if _curator_or_editor(context, _package(data_dict)):
        return {"success": True}
    return _refused(tk._("Only the record's curators and the editors may read its workflow history"))


@tk.auth_allow_anonymous_access
def feedback_create(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Anyone who can read the record may comment on it, without an account."""
    if _can_read(context, _package(data_dict)):
        return {"success": True}
    return _refused(tk._("Not authorized to read this dataset"))


def feedback_list(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    if _curator_or_editor(context, _package(data_dict)):
        return {"success": True}
    return _refused(tk._("Only the record's curators and the editors may read its feedback"))


def workflow_queue(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    if states.is_editor(context.get("user")):
        return {"success": True}
    return _refused(tk._("Only editors may see the review queue"))


def workflow_my_records(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Any signed-in user, who gets only the records they curate: a visitor has none."""
    if model.User.get(context.get("user") or "") is not None:
        return {"success": True}
    return _refused(tk._("Sign in to see the records waiting for you"))


def auth_functions() -> dict[str, Callable]:
    return {
        "passport_workflow_transition": workflow_transition,
        "passport_workflow_state": workflow_state,
        "passport_workflow_history": workflow_history,
        "passport_feedback_create": feedback_create,
        "passport_feedback_list": feedback_list,
        "passport_workflow_queue": workflow_queue,
        "passport_workflow_my_records": workflow_my_records,
    }
