"""Table ``passport_link_check``: a record's links as its latest link check found them, one row per link.

Created by the alembic migrations of plugin ``passport`` (``ckan db upgrade -p passport``). A check replaces the
record's rows whole, under a transaction-scoped advisory lock keyed by the record, so two checks of one record
(a publication and an update right after it) never leave their rows mixed. The finding is kept as JSON
(``Problem.as_dict``) and rendered in each reader's language when shown.
"""
from __future__ import annotations

import datetime
import json
from typing import Any, Iterable, Optional

import ckan.model as model
from ckan.plugins.toolkit import BaseModel
from sqlalchemy import Column, DateTime, ForeignKey, Integer, UnicodeText, func, select, text

from ckanext.passport.mr.model import Problem


def now() -> datetime.datetime:
    return datetime.datetime.utcnow()


class LinkCheck(BaseModel):
    __tablename__ = "passport_link_check"

    id = Column(Integer, primary_key=True, autoincrement=True)
    package_id = Column(UnicodeText, ForeignKey("package.id", ondelete="CASCADE"), nullable=False, index=True)
    # The resource holding the link, none for the record's own (documentation, terms of use).
    resource_id = Column(UnicodeText, nullable=True)
    field = Column(UnicodeText, nullable=False)
    url = Column(UnicodeText, nullable=False)
    # ok, broken or unchecked (probe.OK …); code: the finding's, for counting without reading JSON.
    status = Column(UnicodeText, nullable=False)
    code = Column(UnicodeText, nullable=True)
    http_status = Column(Integer, nullable=True)
    finding = Column(UnicodeText, nullable=True)
    checked_at = Column(DateTime, nullable=False, default=now)

    def stored_finding(self) -> Optional[dict[str, Any]]:
        return json.loads(self.finding) if self.finding else None


def replace(package_id: str, rows: Iterable[dict[str, Any]]) -> None:
    """The record's rows, all of them new, committed together."""
    model.Session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                          {"key": f"passport_link_check:{package_id}"})
    model.Session.query(LinkCheck).filter(LinkCheck.package_id == package_id).delete(synchronize_session=False)
    for row in rows:
        finding: Optional[Problem] = row.pop("finding", None)
        model.Session.add(LinkCheck(package_id=package_id, finding=_json(finding),
                                    code=finding.code if finding is not None else None, **row))
    model.Session.commit()


def _json(finding: Optional[Problem]) -> Optional[str]:
    return json.dumps(finding.as_dict(), ensure_ascii=False) if finding is not None else None


def of_record(package_id: str) -> list[LinkCheck]:
    """The record's rows in the order its check found the links."""
    return model.Session.query(LinkCheck).filter(LinkCheck.package_id == package_id).order_by(LinkCheck.id).all()


def broken_by_record(status: str = "broken") -> Any:
    """``(package_id, owner_org, broken links)`` of every active public record with a broken link: a query to
    narrow further (which of them the catalog lists) and sum."""
    return (
        select(LinkCheck.package_id, model.Package.owner_org, func.count().label("broken"))
        .join(model.Package, model.Package.id == LinkCheck.package_id)
        .where(LinkCheck.status == status, model.Package.state == model.State.ACTIVE,
               model.Package.private.is_(False))
        .group_by(LinkCheck.package_id, model.Package.owner_org)
    )
