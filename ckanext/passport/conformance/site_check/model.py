"""Tables ``passport_site_check`` (one publisher's check of a site, from queued to its kept report) and
``passport_site_check_passport`` (the passports it read, kept for their corrected files).

Created by the alembic migrations of plugin ``passport`` (``ckan db upgrade -p passport``). The job writes its
progress into the row as it goes and, at the end, the bounded summary of what the check read (``result``: JSON,
see ``site_check.report.kept``) or why it failed (``failure``: one finding as JSON). The report is rendered from
``result`` when it is shown, in the reader's language; a passport's own row is read only for its corrected files.
"""
from __future__ import annotations

import datetime
import json
from typing import Any, Optional

import ckan.model as model
from ckan.model.types import make_uuid
from ckan.plugins.toolkit import BaseModel
from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Integer, UnicodeText

QUEUED, RUNNING, FINISHED, FAILED = "queued", "running", "finished", "failed"


def now() -> datetime.datetime:
    return datetime.datetime.utcnow()


class SiteCheck(BaseModel):
    __tablename__ = "passport_site_check"

    id = Column(UnicodeText, primary_key=True, default=make_uuid)
    url = Column(UnicodeText, nullable=False)
    # The host checked, as rate_limits.host_key spells it (one spelling per name): a user's earlier checks by host.
    host = Column(UnicodeText, nullable=False)
    user_id = Column(UnicodeText, ForeignKey("user.id", ondelete="SET NULL"), nullable=True, index=True)
    allow_private_addresses = Column(Boolean, nullable=False, default=False)
    status = Column(UnicodeText, nullable=False, default=QUEUED)
    done = Column(Integer, nullable=False, default=0)
    total = Column(Integer, nullable=False, default=0)
    created = Column(DateTime, nullable=False, default=now)
    started = Column(DateTime, nullable=True)
    finished = Column(DateTime, nullable=True)
    result = Column(UnicodeText, nullable=True)
    failure = Column(UnicodeText, nullable=True)

    @classmethod
    def get(cls, id: str) -> Optional["SiteCheck"]:
        return model.Session.get(cls, id) if id else None

    def stored_result(self) -> Optional[dict[str, Any]]:
        return json.loads(self.result) if self.result else None

    def stored_failure(self) -> Optional[dict[str, Any]]:
        return json.loads(self.failure) if self.failure else None


class SiteCheckPassport(BaseModel):
    __tablename__ = "passport_site_check_passport"

    check_id = Column(UnicodeText, ForeignKey("passport_site_check.id", ondelete="CASCADE"), primary_key=True)
    # The passport's place in the report, from 1.
    number = Column(Integer, primary_key=True)
    # Where it was read (the corrected files' links are made from it) and the passport as JSON.
    url = Column(UnicodeText, nullable=False)
    passport = Column(UnicodeText, nullable=False)

    @classmethod
    def get(cls, check_id: str, number: int) -> Optional["SiteCheckPassport"]:
        return model.Session.get(cls, (check_id, number)) if check_id else None


def add(url: str, host: str, user_id: Optional[str], allow_private_addresses: bool) -> SiteCheck:
    check = SiteCheck(id=make_uuid(), url=url, host=host, user_id=user_id,
                      allow_private_addresses=allow_private_addresses, status=QUEUED, created=now())
    model.Session.add(check)
    model.Session.commit()
    return check
