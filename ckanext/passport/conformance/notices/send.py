"""Who gets a conformance mail, and sending it through CKAN's mailer.

Mail is attempted only when the site set ``smtp.server`` (``settings.smtp_server``: CKAN's default ``localhost``
counts as unset), so a site without mail attempts none and logs nothing. An address that unsubscribed gets
nothing. Each mail sent is recorded (``model.NoticeSent``) for the limits; a mail that cannot be composed or
sent (``ckanext.passport.mail``) is logged and the others still go.
"""
from __future__ import annotations

import ckan.model as model

from ckanext.passport import mail as mailer
from ckanext.passport import settings

from . import tokens
from .model import record, without_opted_out


def enabled() -> bool:
    return bool(settings.smtp_server())


def organization_admins(organization_id: str) -> list[str]:
    """The addresses of an organization's active admins (each once, those who unsubscribed left out)."""
    if not organization_id:
        return []
    rows = (
        model.Session.query(model.User.email)
        .join(model.Member, model.Member.table_id == model.User.id)
        .filter(model.Member.group_id == organization_id, model.Member.table_name == "user",
                model.Member.capacity == "admin", model.Member.state == "active",
                model.User.state == "active", model.User.email.isnot(None), model.User.email != "")
        .order_by(model.User.name)
    )
    return without_opted_out(email for (email,) in rows)


def mail(address: str, subject: str, body: str, kind: str, about: str) -> bool:
    """Send one mail and record it; ``False`` when it could not be composed or sent (logged)."""
    if not mailer.send(address, address, subject, body, {"List-Unsubscribe": f"<{tokens.link(address)}>"}):
        return False
    record(address, kind, about)
    return True
