"""One MR identifier, one record: which active datasets hold an identifier, and the form's uniqueness check.

An identifier is what ``/opendata/<identifier>/`` and the permanent links resolve, so two active records
(private ones included: they may be published tomorrow) must never hold the same one. The harvester asks
:func:`holders` before it lets an object claim an identifier (and answers with its own object error); every
other edit path meets :func:`identifier_unique` on the ``mr_identifier`` field.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing

from .validators import harvesting

FIELD = "mr_identifier"


def holders(identifier: str, excluding: Optional[str] = None) -> list[model.Package]:
    """Active datasets whose MR identifier is ``identifier`` (any private flag), oldest first, ``excluding``
    one dataset id (the record being written)."""
    identifier = identifier.strip()
    if not identifier:
        return []
    query = (
        model.Session.query(model.Package)
        .join(model.PackageExtra, model.PackageExtra.package_id == model.Package.id)
        .filter(model.PackageExtra.key == FIELD)
        .filter(model.PackageExtra.value == identifier)
        .filter(model.Package.state == model.State.ACTIVE)
    )
    if excluding:
        query = query.filter(model.Package.id != excluding)
    return query.order_by(model.Package.metadata_created, model.Package.id).all()


def identifier_unique(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """A record may not claim an identifier another active dataset holds.

    Only a claim is checked: a record that keeps the identifier it already has is left alone, so a duplicate
    made before this check never blocks its records' other edits.
    """
    if harvesting(context):
        # A harvest checks the identifiers it claims itself, per source (harvest.identifier_taken).
        return
    value = data.get(key)
    if value is missing or not isinstance(value, str) or not value.strip():
        return
    package_id = data.get(("id",))
    package = context.get("package") or (
        model.Package.get(package_id) if isinstance(package_id, str) and package_id else None
    )
    if package is not None and (package.extras or {}).get(FIELD) == value:
        return
    taken = holders(value, excluding=package.id if package is not None else None)
    if taken:
        errors[key].append(
            tk._("The MR identifier {identifier} is already used by the record {name}").format(
                identifier=value.strip(), name=taken[0].name
            )
        )


def validators() -> dict[str, Callable[..., Any]]:
    return {"passport_identifier_unique": identifier_unique}
