"""Dataset series in the record: ``record_kind`` (``dataset`` or ``series``) and a member's ``in_series``.

A series is an ordinary catalog record (same workflow, organization, eligibility, LKOD document) whose kind is
``series`` (lkod.series writes it as dcat:DatasetSeries). A dataset names its series in ``in_series`` by the
series record's id or name, kept as its id: it must be an active series of the member's own organization that the
saver may read, and a series belongs to no series. A series of another organization, one the saver may not read and
none at all are refused alike, so the refusal tells no one whether a record exists. A harvested member keeps the source's IRI of its series (the record does not depend on which of the two
a harvest read first); its page links the record harvested from that IRI (``lkod_iri``).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import ckan.authz as authz
import ckan.plugins.toolkit as tk
from ckan import model

from ckanext.passport.catalog.record import identity
from ckanext.passport.catalog.record.validators import harvesting
KIND_FIELD = "record_kind"
SERIES = "series"
IN_SERIES_FIELD = "in_series"
DATASET = "dataset"
LKOD_IRI_FIELD = "lkod_iri"
KINDS = (DATASET, SERIES)


def is_iri(reference: str) -> bool:
    """A harvested member's ``in_series``: the source's IRI of its series (a curator's is a record id)."""
    return reference.startswith(("https://", "http://"))


def _extra(package: model.Package, key: str) -> str:
    # CKAN 2.11 keeps extras in package_extra rows, 2.12 in a JSONB column: both read through Package.extras.
    return str((package.extras or {}).get(key) or "")


def _found(reference: str) -> Optional[model.Package]:
    """The active record ``reference`` names: its id, its name, or the LKOD IRI it was harvested from."""
    package = model.Package.get(reference)
    if package is None:
        package = next(iter(identity.holders(reference, field=LKOD_IRI_FIELD)), None)
    return package if package is not None and package.state == model.State.ACTIVE else None


def _member_organization(data: dict) -> Optional[str]:
    """The id of the organization the member is saved in: the one given (by id or name), else the stored one."""
    given = data.get(("owner_org",))
    if given and given is not tk.missing:
        group = model.Group.get(given)
        return group.id if group is not None else str(given)
    stored = model.Package.get(str(data.get(("id",)) or ""))
    return stored.owner_org if stored is not None else None


def _may_take(package: model.Package, data: dict, context: dict) -> bool:
    """A member takes a series of its own organization that whoever saves it may read."""
    if package.owner_org != _member_organization(data):
        return False
    if context.get("ignore_auth"):
        return True
    # A context of its own: the save's holds the member as its ``package``, which CKAN's check would read instead.
    user = context.get("user") or ""
    reader = {"user": user, "auth_user_obj": model.User.get(user) if user else None, "model": model}
    return authz.is_authorized_boolean("package_show", reader, {"id": package.id})


def in_series(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """``in_series``: blank, or a series record's id (given by id, name or LKOD IRI)."""
    reference = str(data.get(key) or "").strip()
    if not reference or reference is tk.missing:
        data[key] = ""
        return
    if data.get((KIND_FIELD,)) == SERIES:
        errors[key].append(tk._("A series belongs to no series"))
        return
    if harvesting(context) and is_iri(reference):
        # A harvested member names its series by the source's IRI, kept as it is whatever the order the harvest
        # read the two in (the record does not change with it); written back as it is (lkod.series) and shown
        # as the record harvested from it (series_shown).
        data[key] = reference
        return
    package = _found(reference)
    if package is None or not _may_take(package, data, context):
        errors[key].append(
            tk._("No series {reference} of this record's organization that you may read").format(reference=reference)
        )
        return
    if _extra(package, KIND_FIELD) != SERIES:
        errors[key].append(tk._("Record {name} is not a series").format(name=package.name))
        return
    if package.id == data.get(("id",)):
        errors[key].append(tk._("A record is not its own series"))
        return
    data[key] = package.id


def series_shown(reference: Any) -> Optional[dict[str, str]]:
    """The series a record's ``in_series`` names, as the record page links it: ``name`` and ``title`` when the
    reader may see that record, else ``None`` (the page shows the stored value: an id, or a source's IRI)."""
    reference = str(reference or "").strip()
    if not reference:
        return None
    if is_iri(reference):  # a harvested member's: the record harvested from that IRI, if any
        holder = next(iter(identity.holders(reference, field=LKOD_IRI_FIELD)), None)
        if holder is None:
            return None
        reference = holder.id
    try:
        found = tk.get_action("package_show")({}, {"id": reference})
    except (tk.ObjectNotFound, tk.NotAuthorized):
        return None
    return {"name": found["name"], "title": found.get("title") or found["name"]}


def validators() -> dict[str, Callable[..., Any]]:
    return {"passport_in_series": in_series}


def helpers() -> dict[str, Callable[..., Any]]:
    return {"passport_series_shown": series_shown}


__all__ = ["DATASET", "IN_SERIES_FIELD", "KINDS", "KIND_FIELD", "SERIES", "in_series", "is_iri", "validators"]
