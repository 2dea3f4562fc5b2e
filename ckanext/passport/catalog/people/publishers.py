"""Publishers are who a sysadmin says they are: the organizations holding an INN or an IČO.

An organization's INNs (the group extra ``inns``: its INNs, space-separated, in ascending order; ``organization_show``
gives them as a list) and its IČO (the group extra ``ico``) are set by sysadmins only, and each is held by one
active organization at most. The harvesters ask :func:`organization_holding_inn` whose an identifier's INN is (a
protected INN lands only through its holder's sources), the scoreboard asks it who a publisher is.

The organization form's schemas (:func:`create_schema`, :func:`show_schema`) are wired by the base plugin, the one
IGroupForm of organizations. An update that does not name a field keeps it as stored (CKAN 2.11 drops a group's
extras an update does not name as soon as it names any), so an organization admin's save keeps both; naming
another value is refused unless a sysadmin (or code running without a user's rights, ``ignore_auth``) saves it.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Optional

from sqlalchemy import any_, func, literal, select
from sqlalchemy.sql.expression import ColumnElement

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan import authz
from ckan.lib.navl.dictization_functions import missing

from ckanext.passport.catalog.record.identity import claim_lock
from ckanext.passport.catalog.record.validators import ico_error, inn_error
from ckanext.passport.language import reader_translate
from ckanext.passport.mr.problems import problem

INNS_FIELD = "inns"
ICO_FIELD = "ico"
# INNs are written one per line, or separated by spaces, commas or semicolons.
_INN_SEPARATORS = re.compile(r"[\s,;]+")


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


# --- the organization form ---------------------------------------------------------------------------------------


def may_set_publishers(context: dict) -> bool:
    """Whether the caller may set an organization's IČO and INNs: a sysadmin, or code acting without a user's
    rights (``ignore_auth``: loaders, harvests, the command line)."""
    return bool(context.get("ignore_auth")) or authz.is_sysadmin(context.get("user"))


def normalized_inns(value: Any) -> list[str]:
    """The INNs of a form's text or an API's list: each once, in ascending order."""
    items = value if isinstance(value, (list, tuple)) else _INN_SEPARATORS.split(str(value or ""))
    return sorted({str(item).strip() for item in items if str(item).strip()})


def _stored(key: str, data: dict, context: dict) -> Optional[str]:
    """The organization's stored extra ``key`` when the schema validates an update of it, else ``None``."""
    group = context.get("group")
    if group is None or data.get(("id",)) not in (group.id, group.name):
        return None
    return str((group.extras or {}).get(key) or "").strip()


def _sent_or_stored(field: str, key: tuple, data: dict, context: dict) -> tuple[Optional[str], Any]:
    """(stored, value): the value an update sends, or the stored one when it sends none; a create that sends none
    writes nothing (the validation chain stops)."""
    stored = _stored(field, data, context)
    value = data.get(key)
    if value is missing or value is None:
        if stored is None:
            data.pop(key, None)
            raise tk.StopOnError
        value = stored
    return stored, value


def _refuse(key: tuple, errors: dict, code: str, **params: Any) -> None:
    found = problem(code, **params)
    errors.setdefault(key, []).append(f"[{found.code}] {found.message(reader_translate())}")
    raise tk.StopOnError


def _holder_title(organization_id: str) -> str:
    holder = model.Group.get(organization_id)
    return (holder.title or holder.name) if holder is not None else organization_id


def ico_field(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """The organization's IČO: valid, set by a sysadmin only, held by no other active organization."""
    stored, value = _sent_or_stored(ICO_FIELD, key, data, context)
    value = str(value).strip()
    if value:
        error = ico_error(value)
        if error:
            errors.setdefault(key, []).append(error)
            raise tk.StopOnError
    data[key] = value
    if value == (stored or ""):
        return
    if not may_set_publishers(context):
        _refuse(key, errors, "organization.ico_sysadmin_only")
    if value:
        claim_lock("organization_ico", value)
        holder = organization_holding_ico(value)
        if holder is not None and holder != _group_id(context, data):
            _refuse(key, errors, "organization.ico_taken", ico=value, organization=_holder_title(holder))


def inns_field(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """The organization's INNs: each valid, set by a sysadmin only, each held by no other active organization."""
    stored, value = _sent_or_stored(INNS_FIELD, key, data, context)
    inns = normalized_inns(value)
    for inn in inns:
        error = inn_error(inn)
        if error:
            errors.setdefault(key, []).append(f"{inn}: {error}")
    if errors.get(key):
        raise tk.StopOnError
    data[key] = " ".join(inns)
    kept = set(normalized_inns(stored or ""))
    if set(inns) == kept:
        return
    if not may_set_publishers(context):
        _refuse(key, errors, "organization.inns_sysadmin_only")
    for inn in sorted(set(inns) - kept):
        claim_lock("organization_inn", inn)
        holder = organization_holding_inn(inn)
        if holder is not None and holder != _group_id(context, data):
            _refuse(key, errors, "organization.inn_taken", inn=inn, organization=_holder_title(holder))


def _group_id(context: dict, data: dict) -> Optional[str]:
    group = context.get("group")
    return group.id if group is not None and data.get(("id",)) in (group.id, group.name) else None


def inns_list(value: Any) -> list[str]:
    """The stored INNs as ``organization_show`` gives them: a list."""
    return normalized_inns(value if value is not missing else "")


def create_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """CKAN's organization create/update schema with ``ico`` and ``inns`` kept as group extras.

    Always written when present, empty included: CKAN 2.11 removes a group's extras only when the update names
    others, so a field cleared by writing nothing would stay.
    """
    for field, validator in ((ICO_FIELD, ico_field), (INNS_FIELD, inns_field)):
        schema[field] = [validator, tk.get_validator("unicode_safe"), tk.get_converter("convert_to_extras")]
    return schema


def show_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """CKAN's organization show schema with ``ico`` and ``inns`` taken out of the extras (``inns`` as a list).

    CKAN's show schema keeps each extra whole (``__extras``), so ``convert_from_extras`` would find no ``key``
    to match: the extras' ``key`` and ``value`` are named here, the rest still kept.
    """
    schema["extras"] = {"key": [], "value": [], **schema.get("extras", {})}
    schema[ICO_FIELD] = [tk.get_converter("convert_from_extras"), tk.get_validator("ignore_missing")]
    schema[INNS_FIELD] = [tk.get_converter("convert_from_extras"), tk.get_validator("ignore_missing"), inns_list]
    return schema

