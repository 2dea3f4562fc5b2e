"""The record's row lock: whoever writes a stored record holds its package row, and reads the record under it.

A workflow transition and an ordinary update (the form, package_update/patch, resource_* and a harvest import all
end in package_update) serialize on ``SELECT … FOR UPDATE`` of the package row, and each reads the record afresh
once it holds the lock. The guards that keep the editorial state and the MR identity therefore copy what is
stored at the moment of writing, never a value read before a concurrent transition committed: on CKAN 2.12 the
extras are one JSONB column that an update writes whole, so such a stale copy undid an invalidation.
"""
from __future__ import annotations

from typing import Any, Callable

import ckan.model as model
import ckan.plugins.toolkit as tk


def lock(package: model.Package) -> model.Package:
    """Hold ``package``'s row until the transaction ends and make the session read it (extras, resources) afresh.

    Taking it again in the same transaction is free. What the caller changed and has not written yet is flushed
    first: expiring the record must not drop it.
    """
    model.Session.flush()
    model.Session.query(model.Package.id).filter(model.Package.id == package.id).with_for_update().one()
    # The expiry cascades to the extras rows (CKAN 2.11) and the resources, so all of them are read again.
    model.Session.expire(package)
    return package


@tk.chained_action
def package_update(original_action: Callable[..., Any], context: dict, data_dict: dict[str, Any]) -> Any:
    """CKAN's package_update, under the record's row lock from before it reads the stored record."""
    package = model.Package.get(data_dict.get("id") or data_dict.get("name") or "")
    if package is not None:
        lock(package)
    return original_action(context, data_dict)


def chained_actions() -> dict[str, Callable[..., Any]]:
    return {"package_update": package_update}
