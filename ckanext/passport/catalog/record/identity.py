"""One MR identifier, one record: which active datasets hold an identifier, and the form's uniqueness check.

An identifier is what ``/opendata/<identifier>/`` and the permanent links resolve, so two active records
(private ones included: they may be published tomorrow) must never hold the same one. The harvester asks
:func:`holders` before it lets an object claim an identifier (and answers with its own object error); every
write, a harvest's included, then meets :func:`identifier_unique`, which checks a claim under the identifier's
lock (:func:`claim_lock`). The identifier lives in the field the site names
(``ckanext.passport.identifier_field``, ``mr_identifier`` by default): a scheming field (stored as an extra) or a
core dataset column such as ``version``.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from sqlalchemy import select, text
from sqlalchemy.sql.expression import ColumnElement

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing

from ckanext.passport import settings


def holders(identifier: str, excluding: Optional[str] = None, field: Optional[str] = None) -> list[model.Package]:
    """Active datasets whose MR identifier is ``identifier`` (any private flag), oldest first, ``excluding``
    one dataset id (the record being written). ``field`` names another identity field (an LKOD record's
    ``lkod_iri``) instead of the site's identifier field."""
    identifier = identifier.strip()
    if not identifier:
        return []
    query = model.Session.query(model.Package).filter(
        model.Package.state == model.State.ACTIVE, _holds(field or settings.identifier_field(), identifier)
    )
    if excluding:
        query = query.filter(model.Package.id != excluding)
    return query.order_by(model.Package.metadata_created, model.Package.id).all()


def _holds(field: str, identifier: str) -> ColumnElement[bool]:
    """The condition "a dataset holds ``identifier`` in ``field``", wherever this CKAN stores the field: a core
    column, the JSONB ``package.extras`` column (CKAN 2.12), or the ``package_extra`` rows (CKAN 2.11)."""
    columns = model.package_table.c
    if field in columns:
        return columns[field] == identifier
    if "extras" in columns:
        return columns["extras"][field].astext == identifier
    return model.Package.id.in_(
        select(model.PackageExtra.package_id).where(
            model.PackageExtra.key == field, model.PackageExtra.value == identifier
        )
    )


def identifier_unique(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Dataset-level (after) validator: a record may not claim an identifier another active dataset holds.

    It runs on the whole record because the identifier's field is the site's choice. Only a claim is
    checked: a record that keeps the identifier it already has is left alone, so a duplicate made before this
    check never blocks its records' other edits. Every path that writes a record meets this check (the form,
    the API and a harvest import alike), under the identifier's claim lock held until the write commits: two
    writers claiming one identifier at once take turns, and the second sees the first's record. A harvest has
    checked its claim already, per source (harvest.identifier_taken); here it meets what committed since.
    """
    field = (settings.identifier_field(),)
    value = data.get(field)
    if value is missing or not isinstance(value, str) or not value.strip():
        return
    package_id = data.get(("id",))
    package = context.get("package") or (
        model.Package.get(package_id) if isinstance(package_id, str) and package_id else None
    )
    if package is not None and stored_identifier(package) == value:
        return
    claim_lock(field[0], value)
    taken = holders(value, excluding=package.id if package is not None else None)
    if taken:
        errors.setdefault(field, []).append(
            tk._("The MR identifier {identifier} is already used by the record {name}").format(
                identifier=value.strip(), name=taken[0].name
            )
        )


def claim_lock(field: str, identifier: str) -> None:
    """Wait for the lock of claims on ``identifier`` in ``field``, then hold it until the transaction ends.

    A PostgreSQL advisory lock keyed by a 64-bit hash of both: a collision only makes two claims take turns.
    """
    model.Session.execute(
        text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
        {"key": f"ckanext.passport.identifier:{field}:{identifier.strip()}"},
    )


def stored_identifier(package: model.Package) -> Optional[str]:
    """The identifier ``package`` holds in the configured field (a core column or an extra)."""
    field = settings.identifier_field()
    if field in model.package_table.c:
        return getattr(package, field)
    return (package.extras or {}).get(field)


def validators() -> dict[str, Callable[..., Any]]:
    return {"passport_identifier_unique": identifier_unique}
