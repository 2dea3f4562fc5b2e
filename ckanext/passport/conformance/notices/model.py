"""Tables ``passport_notice_sent`` (each conformance mail sent: to whom, of which kind, about what, when) and
``passport_notice_optout`` (the addresses that unsubscribed: they get no conformance mail at all).

Created by the alembic migrations of plugin ``passport`` (``ckan db upgrade -p passport``). The sent rows are
what the limits read: one mail per job, a publisher's mail at most once a week and a source's publishers' mails at most
``notify_publishers_per_day`` a day, one digest a week.
"""
from __future__ import annotations

import datetime as dt
from typing import Iterable, Optional

import ckan.model as model
from ckan.plugins.toolkit import BaseModel
from sqlalchemy import Column, DateTime, Integer, UnicodeText

# The kinds of notice: a job that got worse (to the organization's admins), the same to the MR publisher's
# contact, the weekly digest of an organization.
JOB, PUBLISHER, DIGEST = "job", "publisher", "digest"


def now() -> dt.datetime:
    return dt.datetime.utcnow()


def normal(address: str) -> str:
    """An address as the tables key it: mail domains and, in practice, mailboxes ignore case."""
    return (address or "").strip().lower()


class NoticeSent(BaseModel):
    __tablename__ = "passport_notice_sent"

    id = Column(Integer, primary_key=True, autoincrement=True)
    recipient = Column(UnicodeText, nullable=False)
    kind = Column(UnicodeText, nullable=False)
    # What the notice was about: a job id (JOB), the source whose job it told of (PUBLISHER), an organization id
    # (DIGEST).
    about = Column(UnicodeText, nullable=False)
    sent = Column(DateTime, nullable=False, default=now)


class OptOut(BaseModel):
    __tablename__ = "passport_notice_optout"

    address = Column(UnicodeText, primary_key=True)
    created = Column(DateTime, nullable=False, default=now)


def record(recipient: str, kind: str, about: str) -> None:
    model.Session.add(NoticeSent(recipient=normal(recipient), kind=kind, about=about, sent=now()))
    model.Session.commit()


def sent_about(kind: str, about: str) -> bool:
    """Whether a notice of ``kind`` about ``about`` went to anyone (a job's mail goes once, however often
    ``harvester run`` passes its finished job)."""
    query = model.Session.query(NoticeSent.id).filter(NoticeSent.kind == kind, NoticeSent.about == about)
    return model.Session.query(query.exists()).scalar()


def sent_since(recipient: str, kind: str, since: dt.datetime, about: Optional[str] = None) -> bool:
    """Whether ``recipient`` got a notice of ``kind`` (about ``about``, if given) after ``since``."""
    query = model.Session.query(NoticeSent.id).filter(
        NoticeSent.recipient == normal(recipient), NoticeSent.kind == kind, NoticeSent.sent > since)
    if about is not None:
        query = query.filter(NoticeSent.about == about)
    return model.Session.query(query.exists()).scalar()


def sent_count(kind: str, about: str, since: dt.datetime) -> int:
    """How many notices of ``kind`` about ``about`` went out after ``since``, to anyone."""
    return (model.Session.query(NoticeSent.id)
            .filter(NoticeSent.kind == kind, NoticeSent.about == about, NoticeSent.sent > since).count())


def opt_out(address: str) -> None:
    """Record that ``address`` wants no more conformance mail (again: nothing changes)."""
    if not opted_out(address):
        model.Session.add(OptOut(address=normal(address), created=now()))
        model.Session.commit()


def opted_out(address: str) -> bool:
    return model.Session.get(OptOut, normal(address)) is not None


def without_opted_out(addresses: Iterable[str]) -> list[str]:
    """``addresses`` (each once, in order) but those that unsubscribed, in one query."""
    wanted = list(dict.fromkeys(normal(a) for a in addresses if normal(a)))
    if not wanted:
        return []
    gone = {a for (a,) in model.Session.query(OptOut.address).filter(OptOut.address.in_(wanted))}
    return [a for a in wanted if a not in gone]
