"""Publishers are who a sysadmin says they are: the organizations holding an INN or an IČO.

An organization's INNs (the group extra ``inns``: its INNs, space-separated, in ascending order) and its IČO (the
group extra ``ico``) are set by sysadmins, and each is held by one active organization at most. The harvesters
ask :func:`organization_holding_inn` whose an identifier's INN is (a protected INN lands only through its
holder's sources), the scoreboard asks it who a publisher is.
"""
from __future__ import annotations

from typing import Callable, Optional

from sqlalchemy import any_, func, literal, select
from sqlalchemy.sql.expression import ColumnElement

import ckan.model as model

INNS_FIELD = "inns"
ICO_FIELD = "ico"


def organization_holding_inn(inn: str) -> Optional[str]:
    """The id of the active organization holding ``inn`` among its INNs, or ``None``."""
    inn = inn.strip()
    if not inn:
        return None
    return _holder(INNS_FIELD, lambda value: literal(inn) == any_(func.string_to_array(value, " ")))


def organization_holding_ico(ico: str) -> Optional[str]:
    """The id of the active organization whose IČO is ``ico``, or ``None``."""
    ico = ico.strip()
    if not ico:
        return None
    return _holder(ICO_FIELD, lambda value: value == ico)


def _holder(key: str, holds: Callable[[ColumnElement[str]], ColumnElement[bool]]) -> Optional[str]:
    """The oldest active organization whose extra ``key`` ``holds``: a duplicate made before uniqueness was checked
    resolves to the organization that held it first.

    The extra is wherever this CKAN keeps it: the JSONB ``group.extras`` column (CKAN 2.12) or the
    ``group_extra`` rows (CKAN 2.11).
    """
    group = model.group_table.c
    query = select(group.id).where(group.state == "active", group.is_organization.is_(True))
    if "extras" in group:
        query = query.where(holds(group.extras[key].astext))
    else:
        extra = model.group_extra_table.c
        query = query.join_from(model.group_table, model.group_extra_table, extra.group_id == group.id).where(
            extra.state == "active", extra.key == key, holds(extra.value)
        )
    return model.Session.execute(query.order_by(group.created, group.id).limit(1)).scalar()
