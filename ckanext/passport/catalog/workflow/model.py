"""Tables of the editorial workflow: the transitions a record went through and the public's feedback on it.

Created by the alembic migrations of plugin ``passport`` (``ckan db upgrade -p passport``).
"""
from __future__ import annotations

import datetime
from typing import Any, Optional

from sqlalchemy import Column, DateTime, ForeignKey, UnicodeText

import ckan.model as model
from ckan.model.types import make_uuid
from ckan.plugins.toolkit import BaseModel

from .states import SUBMITTED

FEEDBACK_KINDS = ("comment", "error")


def _now() -> datetime.datetime:
    return datetime.datetime.utcnow()


class WorkflowEvent(BaseModel):
    """One transition: who moved which record from which state to which, when, and why."""

    __tablename__ = "passport_workflow_event"

    id = Column(UnicodeText, primary_key=True, default=make_uuid)
    package_id = Column(UnicodeText, ForeignKey("package.id", ondelete="CASCADE"), nullable=False, index=True)
    # A purged user leaves the record's history in place, without a name.
    user_id = Column(UnicodeText, ForeignKey("user.id", ondelete="SET NULL"), nullable=True)
    created = Column(DateTime, nullable=False, default=_now)
    from_state = Column(UnicodeText, nullable=False)
    to_state = Column(UnicodeText, nullable=False)
    comment = Column(UnicodeText, nullable=False, default="")

    def as_dict(self) -> dict[str, Any]:
        user = model.User.get(self.user_id) if self.user_id else None
        return {
            "id": self.id,
            "package_id": self.package_id,
            "user_id": self.user_id,
            "user_name": user.name if user else None,
            "user_display_name": user.display_name if user else None,
            "created": self.created.isoformat(),
            "from_state": self.from_state,
            "to_state": self.to_state,
            "comment": self.comment,
        }


class Feedback(BaseModel):
    """A comment or an error report left on a record by anyone, registered or not."""

    __tablename__ = "passport_feedback"

    id = Column(UnicodeText, primary_key=True, default=make_uuid)
    package_id = Column(UnicodeText, ForeignKey("package.id", ondelete="CASCADE"), nullable=False, index=True)
    text = Column(UnicodeText, nullable=False)
    email = Column(UnicodeText, nullable=True)
    kind = Column(UnicodeText, nullable=False, default="comment")
    created = Column(DateTime, nullable=False, default=_now)
    # Salted hash of the sender's address: enough to rate-limit and spot floods, not to identify anyone.
    client_hash = Column(UnicodeText, nullable=False)
    # "new" until a curator deals with it; kept for triage even though only "new" is written today.
    state = Column(UnicodeText, nullable=False, default="new")

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "package_id": self.package_id,
            "text": self.text,
            "email": self.email,
            "kind": self.kind,
            "created": self.created.isoformat(),
            "state": self.state,
        }


def record_event(package_id: str, user_id: Optional[str], from_state: str, to_state: str, comment: str) -> WorkflowEvent:
    """Add an event to the session; the caller's commit stores it with the state change."""
    event = WorkflowEvent(
        package_id=package_id, user_id=user_id, from_state=from_state, to_state=to_state, comment=comment
    )
    model.Session.add(event)
    return event


def history(package_id: str) -> list[WorkflowEvent]:
    return (
        model.Session.query(WorkflowEvent)
        .filter(WorkflowEvent.package_id == package_id)
        .order_by(WorkflowEvent.created, WorkflowEvent.id)
        .all()
    )


def last_event(package_id: str, to_state: Optional[str] = None) -> Optional[WorkflowEvent]:
    """The record's latest transition (into ``to_state`` when given)."""
    query = model.Session.query(WorkflowEvent).filter(WorkflowEvent.package_id == package_id)
    if to_state is not None:
        query = query.filter(WorkflowEvent.to_state == to_state)
    return query.order_by(WorkflowEvent.created.desc()).first()


def last_submission(package_id: str) -> Optional[WorkflowEvent]:
    return last_event(package_id, SUBMITTED)


def last_events(package_ids: list[str], to_state: str) -> dict[str, WorkflowEvent]:
    """The latest transition of each record into ``to_state``, in one query (the editors' queue shows who
    submitted when, the curator's list who returned a record and why)."""
    if not package_ids:
        return {}
    events = (
        model.Session.query(WorkflowEvent)
        .filter(WorkflowEvent.package_id.in_(package_ids), WorkflowEvent.to_state == to_state)
        .order_by(WorkflowEvent.created)
        .all()
    )
    return {event.package_id: event for event in events}


def last_submissions(package_ids: list[str]) -> dict[str, WorkflowEvent]:
    return last_events(package_ids, SUBMITTED)


def add_feedback(package_id: str, text: str, email: Optional[str], kind: str, client_hash: str) -> Feedback:
    feedback = Feedback(package_id=package_id, text=text, email=email, kind=kind, client_hash=client_hash)
    model.Session.add(feedback)
    model.Session.commit()
    return feedback


def feedback_for(package_id: str) -> list[Feedback]:
    return (
        model.Session.query(Feedback)
        .filter(Feedback.package_id == package_id)
        .order_by(Feedback.created.desc())
        .all()
    )
