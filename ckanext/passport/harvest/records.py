"""Writing harvested records, for both source types: which record an object writes (the claim), the record made new,
merged or left unchanged, and the record withdrawn or deleted when its listing drops it.

A record is identified by a key in one of its fields: an MR passport's registry identifier in the site's identifier
field, an LKOD dataset's IRI in ``lkod_iri``. One record per key: a key another source's (or the portal's own)
record holds is refused, and a record of the same source holding it is taken up again rather than doubled.
"""
from __future__ import annotations

import uuid
from typing import Any, Callable, Optional, Union

import ckan.model as model
import ckan.plugins.toolkit as tk

from ckanext.passport.catalog import identity
from ckanext.passport.harvest import problems as codes
from ckanext.passport.harvest.findings import save_object_error
from ckanext.passport.harvest.objects import link, make_current, source_of
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

# What ckanext-harvest's index adds to a harvested dataset (see existing_dataset).
HARVEST_INDEX_KEYS = frozenset({"harvest_object_id", "harvest_source_id", "harvest_source_title"})


def existing_dataset(package_id: Optional[str], context: dict) -> Optional[dict]:
    """The stored record as a re-harvest merges into it, without the harvest keys the index adds.

    ckanext-harvest adds ``harvest_*`` extras to the indexed dict package_show answers from; written back,
    they would be stored as the record's own extras.
    """
    if not package_id:
        return None
    try:
        dataset = tk.get_action("package_show")(dict(context), {"id": package_id})
    except tk.ObjectNotFound:
        return None
    if dataset.get("state") == "deleted":
        return None
    if "extras" in dataset:
        dataset["extras"] = [e for e in dataset["extras"] if e.get("key") not in HARVEST_INDEX_KEYS]
    return dataset


def claim(
    key: str, field: str, harvest_object: Any, existing: Optional[dict], context: dict
) -> tuple[Optional[dict], Optional[model.Package]]:
    """The record the object writes, and the record of another source or of the portal holding ``key`` in
    ``field`` (the object then writes nothing).

    A record keeping its key claims nothing. A record of this very source holding it while no current object
    links them (withdrawn, a failed import, or linked before imports rolled back) is taken up again.
    """
    if existing is not None and existing.get(field) == key:
        return existing, None
    for holder in identity.holders(key, excluding=existing["id"] if existing else None, field=field):
        if existing is None and source_of(holder.id) == harvest_object.harvest_source_id:
            existing = existing_dataset(holder.id, context)
        else:
            return existing, holder
    return existing, None


def create_record(harvested: dict, harvest_object: Any, previous: Optional[Any], config: Any, context: dict) -> None:
    """A new record from ``harvested`` (named and placed in its organization by the caller), in the source's
    initial editorial state."""
    if config.default_editorial_state:
        harvested["editorial_state"] = config.default_editorial_state
    # The id is made here so the object can be current for it before the dataset is first indexed.
    harvested["id"] = str(uuid.uuid4())
    link(harvest_object, previous, harvested["id"], new=True)
    tk.get_action("package_create")(dict(context, return_id_only=True), harvested)


def source_organization(source: Any) -> Optional[str]:
    # A harvest source is stored as a dataset of type "harvest": its organization is that dataset's.
    source_dataset = model.Package.get(source.id)
    return source_dataset.owner_org if source_dataset is not None else None


def store_record(
    harvest_object: Any,
    previous: Optional[Any],
    existing: Optional[dict],
    create: Callable[[], None],
    unchanged: Callable[[], bool],
    merged: Callable[[], dict],
    context: dict,
) -> Union[bool, str]:
    """Write one imported record: ``create`` it when new, make the object current when ``unchanged``, else update
    the stored record with ``merged``. True when written, "unchanged", or False when the record was refused (the
    refusal saved as the object's error, no object left current)."""
    try:
        if existing is None:
            create()
        elif unchanged():
            make_current(harvest_object, previous, existing["id"])
            return "unchanged"
        else:
            link(harvest_object, previous, existing["id"])
            tk.get_action("package_update")(dict(context, return_id_only=True), merged())
    except tk.ValidationError as error:
        # The object was linked before the action; a refused dataset must leave no object current.
        model.Session.rollback()
        save_object_error(_validation_refusal(error), harvest_object, "Import")
        return False
    except Exception:
        model.Session.rollback()
        raise
    return True


def remove_record(harvest_object: Any, previous: Optional[Any], config: Any, context: dict) -> bool:
    """Withdraw or delete the dataset of a ``delete`` object (``config.on_missing``)."""
    package_id = harvest_object.package_id or (previous.package_id if previous else None)
    # Unlinked first, so the withdrawn or deleted record is indexed without its source.
    harvest_object.current = False
    harvest_object.add()
    if previous is not None:
        previous.current = False
        previous.add()
    model.Session.flush()
    if package_id:
        try:
            if config.on_missing == "withdraw":
                tk.get_action("package_patch")(dict(context), {"id": package_id, "private": True})
            else:
                tk.get_action("package_delete")(dict(context), {"id": package_id})
        except tk.ObjectNotFound:
            pass
    model.Session.commit()
    return True


def _validation_refusal(error: Any) -> Problem:
    # CKAN's validation messages are already words in the consumer's (the site's default) language.
    details = "; ".join(f"{field}: {messages}" for field, messages in (error.error_dict or {}).items())
    return problem(codes.INVALID_DATASET, details=details)
