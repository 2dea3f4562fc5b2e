"""E-mail about transitions: editors hear of submissions, curators of the editors' decisions.

Sent through CKAN's mailer only when ``smtp.server`` is set (CKAN 2.11's mailer reads nothing else) and
``ckanext.passport.notify_by_email`` is on; CKAN's default ``localhost`` counts as unset (``settings.smtp_server``),
so a site without mail attempts none and logs nothing. A mail that cannot be composed or sent (a failing mail
server, a name no header can hold: ``ckanext.passport.mail``) is logged, the other recipients still get theirs,
and the transition, committed before, stands.
"""
from __future__ import annotations

from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport import mail, settings

from . import states
from .model import WorkflowEvent


def enabled() -> bool:
    return bool(settings.smtp_server()) and settings.notify_by_email()


def recipients(package: model.Package, target: str, actor: Optional[model.User]) -> list[model.User]:
    """Who hears of a move to ``target``: editors of a submission, curators of anything else; never the actor."""
    people = states.editors() if target == states.SUBMITTED else states.curators_of(package)
    actor_id = actor.id if actor else None
    return [user for user in people if user.email and user.id != actor_id]


def message(pkg_dict: dict[str, Any], event: WorkflowEvent, actor: Optional[model.User]) -> tuple[str, str]:
    """Subject and plain-text body of the notice."""
    title = pkg_dict.get("title") or pkg_dict["name"]
    site = tk.config.get("ckan.site_title") or ""
    subject = f"[{site}] {title}: {states.state_label(event.to_state)}"
    lines = [
        tk._("%(who)s moved the record \"%(title)s\" from \"%(source)s\" to \"%(target)s\".")
        % {
            "who": actor.display_name if actor else tk._("Someone"),
            "title": title,
            "source": states.state_label(event.from_state),
            "target": states.state_label(event.to_state),
        }
    ]
    if event.comment:
        lines += ["", tk._("Comment:"), event.comment]
    lines += ["", f"{tk.config.get('ckan.site_url')}/dataset/{pkg_dict['name']}"]
    return subject, "\n".join(lines)


def transition(pkg_dict: dict[str, Any], package: model.Package, event: WorkflowEvent, actor: Optional[model.User]) -> None:
    if not enabled():
        return
    subject, body = message(pkg_dict, event, actor)
    for user in recipients(package, event.to_state, actor):
        mail.send(user.display_name, user.email, subject, body)
