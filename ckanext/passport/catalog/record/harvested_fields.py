"""A record's MR identity survives every edit path: only a harvest, or a sysadmin explicitly, writes it.

This is the ownership engine's edit guard in CKAN (``catalog.ownership``: the rule
``Ownership.edit_writes_identity``, the fields each kind's tables give to ``MR_IDENTITY``). The MR identity (the
passport's identifier, standard, dates, and each resource's MR part and versions; an LKOD record's IRIs) is what
the ``/opendata/`` exports and permanent links are built from. The dataset and resource forms do not carry it,
and CKAN's resource_update replaces a resource with what was sent, so without this guard any edit in the web form
dropped it. The validator ``passport_mr_identity`` is the first
validator of each of those fields (the preset ``passport_harvested``); like the editorial state guard it must
not follow ``ignore_missing``, which would drop an omitted value before it could be restored.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Union

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckan.lib.navl.dictization_functions import missing

from ckanext.passport.catalog.ownership import Ownership

from .validators import harvesting

VALIDATOR = "passport_mr_identity"
_SYSADMIN_KEY = "passport_user_is_sysadmin"  # (user, flag), in the validated action's context


def _stored_object(key: tuple, data: dict) -> Optional[Union[model.Package, model.Resource]]:
    """The stored dataset (key ``(field,)``) or resource (key ``("resources", n, field)``) the key belongs to."""
    identifier = data.get(key[:-1] + ("id",))
    if not isinstance(identifier, str) or not identifier:
        return None
    return model.Resource.get(identifier) if len(key) == 3 else model.Package.get(identifier)


def stored_value(stored: Union[model.Package, model.Resource], name: str) -> Any:
    """A field as stored: a core column (a resource's ``resource_type``) or an extra."""
    if name in sa.inspect(stored).mapper.columns:
        return getattr(stored, name)
    return (stored.extras or {}).get(name)


def _by_sysadmin(context: dict) -> bool:
    """Whether the context's user is a sysadmin, asked of the database once per context and user: the validator
    runs for every identity field of every resource, and each ask is a query."""
    user = context.get("user")
    known = context.get(_SYSADMIN_KEY)
    if known is None or known[0] != user:
        known = context[_SYSADMIN_KEY] = (user, authz.is_sysadmin(user))
    return known[1]


def mr_identity(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Keep the stored value of an MR identity field unless a harvest or a sysadmin sets it.

    A harvest (context flag ``passport_harvest``) writes what it sends. A sysadmin's value wins when sent; a
    sysadmin omitting the field keeps the stored value. Anyone else's edit (dataset and resource forms,
    package_update/patch, resource_update/patch) keeps the stored value whatever it sends. A record or a
    resource that is not stored yet keeps what it is created with (a curator's new resource has none).
    """
    sent_by_sysadmin = data.get(key, missing) is not missing and _by_sysadmin(context)
    if Ownership.edit_writes_identity(harvesting=harvesting(context), sent_by_sysadmin=sent_by_sysadmin):
        return
    stored = _stored_object(key, data)
    if stored is None:
        return
    value = stored_value(stored, key[-1])
    if value is None:
        data.pop(key, None)
        raise tk.StopOnError
    data[key] = value


def validators() -> dict[str, Callable]:
    return {VALIDATOR: mr_identity}
