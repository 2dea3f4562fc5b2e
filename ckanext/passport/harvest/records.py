"""Writing harvested records, for both source types: which record an object writes (the claim), the record made new,
merged or left unchanged, and the record withdrawn or deleted when its listing drops it.

A record is identified by a key in one of its fields: an MR passport's registry identifier in the site's identifier
field, an LKOD dataset's IRI in ``lkod_iri``. One record per key: a key another source's (or the portal's own)
record holds is refused, and a record of the same source holding it is taken up again rather than doubled.

An entry is "not modified" only while its record is there: a current object whose record is absent (purged, or never
written) or deleted in the portal is the source's drift (:func:`drift`). The absent record is written again from the
object's read; the deleted one stays deleted, said on the entry, unless the source restores such records.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

import ckan.model as model
import ckan.plugins as plugins
import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckanext.harvest.model import HarvestObject, HarvestSource

from ckanext.passport import source_types
from ckanext.passport.catalog.record import identity
from ckanext.passport.harvest import stored
from ckanext.passport.harvest.findings import save_object_error
from ckanext.passport.harvest.objects import link, make_current, source_of
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

# What ckanext-harvest's index adds to a harvested dataset (see existing_dataset).
HARVEST_INDEX_KEYS = frozenset({"harvest_object_id", "harvest_source_id", "harvest_source_title"})


@dataclass(frozen=True)
class Drift:
    """A source's current object whose record is not there as the last import left it."""

    source_id: str
    guid: str
    object_id: str
    package_id: Optional[str]
    name: str  # the deleted record's name; empty for an absent one
    kind: str  # stored.ABSENT or stored.DELETED


def drift(source_id: Optional[str] = None) -> list[Drift]:
    """The current objects of a source (or of every active passport and lkod source) whose record is absent (purged,
    or never written: the import died after its object was made current) or deleted."""
    rows = (
        model.Session.query(HarvestObject.harvest_source_id, HarvestObject.guid, HarvestObject.id,
                            HarvestObject.package_id, model.Package.name, model.Package.state)
        .join(HarvestSource, HarvestSource.id == HarvestObject.harvest_source_id)
        .outerjoin(model.Package, model.Package.id == HarvestObject.package_id)
        .filter(HarvestObject.current == True)  # noqa: E712 (SQLAlchemy needs ==)
        .filter(HarvestSource.type.in_(source_types.OURS), HarvestSource.active == True)  # noqa: E712
        .filter(sa.or_(model.Package.id.is_(None), model.Package.state == model.State.DELETED))
    )
    if source_id:
        rows = rows.filter(HarvestObject.harvest_source_id == source_id)
    return [Drift(row[0], row[1], row[2], row[3], row[4] or "", stored.ABSENT if row[4] is None else stored.DELETED)
            for row in rows.order_by(HarvestObject.harvest_source_id, HarvestObject.guid)]


@dataclass(frozen=True)
class Prior:
    """The record the last import of an entry wrote, as this import finds it."""

    record: Optional[dict] = None  # what the import merges into (a deleted record only when it is restored)
    gone: str = ""  # stored.ABSENT or stored.DELETED: the record is not there as the last import left it
    kept_deleted: Optional[Problem] = None  # the entry's warning when its deleted record stays deleted


def prior_record(previous: Optional[Any], restore_deleted: bool, context: dict) -> Prior:
    """The record of ``previous`` (the entry's current object): there, absent, restored (``restore_deleted``),
    or deleted in the portal and kept so."""
    if previous is None:
        return Prior()
    dataset = existing_dataset(previous.package_id, context, deleted=True)
    if dataset is None:
        return Prior(gone=stored.ABSENT)
    if dataset.get("state") != model.State.DELETED:
        return Prior(dataset)
    if restore_deleted:
        return Prior(dataset, stored.DELETED)
    return Prior(gone=stored.DELETED, kept_deleted=_deleted_in_portal(dataset))


def outcomes(job_id: str) -> dict[str, int]:
    """How many of a job's entries were brought back (their record made again or restored) and how many stay
    deleted in the portal (``stored.BROUGHT_BACK``, ``stored.KEPT_DELETED``)."""
    from ckanext.harvest.model import HarvestObjectExtra

    counted = dict(
        model.Session.query(HarvestObjectExtra.value, sa.func.count())
        .join(HarvestObject, HarvestObject.id == HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObject.harvest_job_id == job_id, HarvestObjectExtra.key == stored.RECORD_OUTCOME)
        .group_by(HarvestObjectExtra.value)
    )
    return {outcome: counted.get(outcome, 0) for outcome in (stored.BROUGHT_BACK, stored.KEPT_DELETED)}


def keep_deleted(harvest_object: Any, warning: Problem) -> str:
    """The entry whose record stays deleted: its warning, and "unchanged" (its object is not made current, so
    the next job finds the record deleted again and says so again)."""
    save_object_error(warning, harvest_object, "Import")
    stored.set_extras(harvest_object, **{stored.RECORD_OUTCOME: stored.KEPT_DELETED})
    return "unchanged"


def existing_dataset(package_id: Optional[str], context: dict, deleted: bool = False) -> Optional[dict]:
    """The stored record as a re-harvest merges into it, without the harvest keys the index adds; a deleted one
    only when asked for.

    ckanext-harvest adds ``harvest_*`` extras to the indexed dict package_show answers from; written back,
    they would be stored as the record's own extras.
    """
    if not package_id:
        return None
    try:
        dataset = tk.get_action("package_show")(dict(context), {"id": package_id})
    except tk.ObjectNotFound:
        return None
    if dataset.get("state") == model.State.DELETED and not deleted:
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
    brought_back: bool = False,
) -> Union[bool, str]:
    """Write one imported record: ``create`` it when new, make the object current when ``unchanged``, else update
    the stored record with ``merged`` (a deleted one restored). True when written, "unchanged", or False when the
    record was refused (the refusal saved as the object's error, no object left current). ``brought_back``: the
    record the last import wrote was absent or deleted (:func:`prior_record`), and is written again."""
    if brought_back:
        stored.set_extras(harvest_object, **{stored.RECORD_OUTCOME: stored.BROUGHT_BACK})
    restored = existing is not None and existing.get("state") == model.State.DELETED
    try:
        if existing is None:
            create()
        elif not restored and unchanged():
            make_current(harvest_object, previous, existing["id"])
            return "unchanged"
        else:
            link(harvest_object, previous, existing["id"])
            written = merged()
            if restored:
                written["state"] = model.State.ACTIVE
            tk.get_action("package_update")(dict(context, return_id_only=True), written)
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


def _deleted_in_portal(dataset: dict) -> Problem:
    """The warning naming who deleted the record and when, from the activity stream (the portal keeps neither
    without the activity plugin: package_delete moves no date of the record)."""
    deletion = _deletion_activity(dataset["id"]) if plugins.plugin_loaded("activity") else None
    user = model.User.get(deletion.user_id) if deletion is not None and deletion.user_id else None
    return problem(
        "harvest.record_deleted_in_portal", name=dataset.get("name"), title=dataset.get("title"),
        deleter=(user.display_name or user.name) if user is not None else problem("harvest.deleter_unknown"),
        deleted=(deletion.timestamp.strftime("%Y-%m-%d %H:%M UTC") if deletion is not None
                 else problem("harvest.deleted_unknown")),
    )


def _deletion_activity(package_id: str) -> Optional[Any]:
    # Read from the model: the activity actions show a private record's activity only to its organization's users.
    from ckanext.activity.model import Activity

    return (model.Session.query(Activity)
            .filter(Activity.object_id == package_id, Activity.activity_type == "deleted package")
            .order_by(Activity.timestamp.desc()).first())


def _validation_refusal(error: Any) -> Problem:
    # CKAN's validation messages are already words in the consumer's (the site's default) language.
    details = "; ".join(f"{field}: {messages}" for field, messages in (error.error_dict or {}).items())
    return problem("harvest.invalid_dataset", details=details)
