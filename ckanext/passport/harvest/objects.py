"""Harvest object bookkeeping both source types share: objects made at gather, linked to their record and made
current at import, and the conditional fetch that lets an unchanged publication cost one request.

ckanext-harvest lists a source's records by its current objects: exactly one object per record is current, and it
is made current before the record is written (its plugin indexes ``harvest_source_id`` only for such a record).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from typing import Any, NamedTuple, Optional, Union

import ckan.model as model
import sqlalchemy as sa
from sqlalchemy.orm import joinedload
from ckanext.harvest.model import HarvestObject, HarvestObjectExtra

from ckanext.passport.harvest import stored
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchPolicy, FetchResult, fetch


def add_object(job: Any, guid: str, status: str, content: Optional[str], package_id: Optional[str],
               position: Optional[int] = None, gone: str = "", extras: Optional[dict[str, str]] = None) -> str:
    """A new object of ``job``; ``position``, the entry's place in the listing, stamps it gathered that many
    microseconds after the gather started, so a job's objects sort in listing order (consecutive objects often
    get the same clock reading, and their random ids would then order them by chance). ``gone``: what the gather's
    comparison found of the entry's record (``stored.ABSENT`` or ``stored.DELETED``); ``extras``, any others."""
    # The id is made here rather than by a flush per object: one round trip per batch, not per entry.
    obj = HarvestObject(id=str(uuid.uuid4()), guid=guid, job=job, content=content, package_id=package_id)
    if position is not None:
        obj.gathered = (job.gather_started or dt.datetime.utcnow()) + dt.timedelta(microseconds=position)
    obj.extras = [HarvestObjectExtra(key=stored.STATUS, value=status)]
    if gone:
        obj.extras.append(HarvestObjectExtra(key=stored.RECORD_GONE, value=gone))
    obj.extras.extend(HarvestObjectExtra(key=key, value=value) for key, value in (extras or {}).items())
    model.Session.add(obj)
    return obj.id


def current_objects(source_id: str) -> dict[str, Optional[str]]:
    """guid → package id of the source's current objects."""
    rows = (
        model.Session.query(HarvestObject.guid, HarvestObject.package_id)
        .filter(HarvestObject.current == True)  # noqa: E712 (SQLAlchemy needs ==)
        .filter(HarvestObject.harvest_source_id == source_id)
    )
    return dict(rows)


def read_norms(source_id: str, job_id: Optional[str] = None) -> list[tuple[str, int]]:
    """(norm, documents) by the ``read_norm`` extra, sorted by norm: of the job's objects (the documents it
    read), or without a job of the source's current ones (the norm each record's document was last read in).
    One grouped query; a passport source's objects have no such extra, so its list is empty."""
    query = (
        model.Session.query(HarvestObjectExtra.value, sa.func.count(HarvestObject.id))
        .join(HarvestObject, HarvestObject.id == HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObjectExtra.key == stored.READ_NORM, HarvestObject.harvest_source_id == source_id)
    )
    if job_id:
        query = query.filter(HarvestObject.harvest_job_id == job_id)
    else:
        query = query.filter(HarvestObject.current == True)  # noqa: E712
    return sorted((value, count) for value, count in query.group_by(HarvestObjectExtra.value))


def catalog_norm(source_id: str, job_id: Optional[str] = None) -> Optional[str]:
    """The norm the catalog document was read in (the ``catalog_norm`` extra its gather put on each object): by
    the job, or without a job by the source's last gather that listed a dataset; ``None`` where none says."""
    query = (
        model.Session.query(HarvestObjectExtra.value)
        .join(HarvestObject, HarvestObject.id == HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObjectExtra.key == stored.CATALOG_NORM, HarvestObject.harvest_source_id == source_id)
    )
    if job_id:
        query = query.filter(HarvestObject.harvest_job_id == job_id)
    return query.order_by(HarvestObject.gathered.desc()).limit(1).scalar()


class SourceNorms(NamedTuple):
    """One ``lkod`` source's norms: its catalog's as last read, and its records' documents per norm."""
    source_id: str
    name: str
    title: str
    catalog: Optional[str]
    documents: list[tuple[str, int]]


def norms_by_source() -> list[SourceNorms]:
    """Every active public source whose objects carry a norm, by title: the portal's view of which publishers
    still publish which norm. Two grouped queries, whatever the number of sources."""
    read = (
        model.Session.query(HarvestObject.harvest_source_id, HarvestObjectExtra.value, sa.func.count(HarvestObject.id))
        .join(HarvestObjectExtra, HarvestObject.id == HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObjectExtra.key == stored.READ_NORM, HarvestObject.current == True)  # noqa: E712
        .group_by(HarvestObject.harvest_source_id, HarvestObjectExtra.value)
    )
    documents: dict[str, list[tuple[str, int]]] = {}
    for source_id, norm, count in read:
        documents.setdefault(source_id, []).append((norm, count))
    # The newest gathered object carrying a catalog norm, per source (PostgreSQL's DISTINCT ON).
    catalogs = dict(
        model.Session.query(HarvestObject.harvest_source_id, HarvestObjectExtra.value)
        .join(HarvestObjectExtra, HarvestObject.id == HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObjectExtra.key == stored.CATALOG_NORM)
        .distinct(HarvestObject.harvest_source_id)
        .order_by(HarvestObject.harvest_source_id, HarvestObject.gathered.desc())
    )
    ids = documents.keys() | catalogs.keys()
    if not ids:
        return []
    sources = (
        model.Session.query(model.Package.id, model.Package.name, model.Package.title)
        .filter(model.Package.id.in_(ids), model.Package.state == "active",
                model.Package.private == False)  # noqa: E712
    )
    return sorted((SourceNorms(source_id, name, title or name, catalogs.get(source_id),
                               sorted(documents.get(source_id, [])))
                   for source_id, name, title in sources), key=lambda row: (row.title.casefold(), row.name))


def previous_object(harvest_object: Any) -> Optional[Any]:
    """The current object of the same guid and source: the one the last import of this record left, its extras
    read with it (every reader of it reads them: one round trip, not two)."""
    return (
        model.Session.query(HarvestObject)
        .options(joinedload(HarvestObject.extras))
        .filter(HarvestObject.guid == harvest_object.guid)
        .filter(HarvestObject.harvest_source_id == harvest_object.harvest_source_id)
        .filter(HarvestObject.current == True)  # noqa: E712
        .first()
    )


def link(harvest_object: Any, previous: Optional[Any], package_id: str, new: bool = False) -> None:
    """Make the object the current one of its dataset before the dataset is written, as ckanext-harvest's own
    harvesters do. Flushed, not committed: the action commits it, or a failure rolls it back.
    """
    if previous is not None and previous.id != harvest_object.id:
        previous.current = False
        previous.add()
    harvest_object.package_id = package_id
    harvest_object.current = True
    harvest_object.add()
    if new:
        # The object points at a dataset the action has yet to write.
        model.Session.execute(sa.text("SET CONSTRAINTS harvest_object_package_id_fkey DEFERRED"))
    model.Session.flush()
    if not new and (previous is None or previous.package_id != package_id):
        # A taken-up record may still be linked to an object of another guid: that one is current no more.
        (
            model.Session.query(HarvestObject)
            .filter(HarvestObject.package_id == package_id)
            .filter(HarvestObject.id != harvest_object.id)
            .filter(HarvestObject.current == True)  # noqa: E712
            .update({"current": False}, synchronize_session=False)
        )


def make_current(harvest_object: Any, previous: Optional[Any], package_id: str) -> None:
    link(harvest_object, previous, package_id)
    model.Session.commit()


def unchanged(harvest_object: Any, current: Optional[Any]) -> Union[str, bool]:
    """What fetch answers for a publication unchanged since ``current`` read it: "unchanged" while its record is
    there; when the gather found the record gone, True, the object taking ``current``'s read (content and extras),
    so the import writes the record again from it without a new fetch."""
    if current is None or not stored.extras_of(harvest_object).get(stored.RECORD_GONE):
        return "unchanged"
    harvest_object.content = current.content
    stored.set_extras(harvest_object, **{key: value for key, value in stored.extras_of(current).items()
                                         if key not in _OWN_EXTRAS})
    return True


# What an object says of itself, not of the read it holds.
_OWN_EXTRAS = frozenset({stored.STATUS, stored.RECORD_GONE, stored.RECORD_OUTCOME})


def source_of(package_id: str) -> Optional[str]:
    """The harvest source whose object last wrote the dataset; ``None`` for a record made in the portal."""
    row = (
        model.Session.query(HarvestObject.harvest_source_id)
        .filter(HarvestObject.package_id == package_id)
        .order_by(HarvestObject.current.desc(), HarvestObject.import_finished.desc().nulls_last())
        .first()
    )
    return row[0] if row else None


def conditional_fetch(url: str, policy: FetchPolicy, previous: dict[str, str], url_key: str, session: Any,
                      deadline: Optional[Deadline] = None, accept: Optional[str] = None) -> FetchResult:
    """``url`` fetched with the validators the last read of that very URL answered (``url_key``: the extra
    naming where it was read), so an unchanged publication answers 304; ``accept`` as :func:`fetch` takes it."""
    conditional = previous.get(url_key) == url
    return fetch(
        url,
        policy,
        etag=previous.get(stored.ETAG) if conditional else None,
        last_modified=previous.get(stored.LAST_MODIFIED) if conditional else None,
        session=session,
        deadline=deadline,
        accept=accept,
    )


def new_content_hash(harvest_object: Any, fetched: FetchResult, previous: dict[str, str]) -> Optional[str]:
    """The fetched bytes' hash, or ``None`` when they are the bytes last imported (a server without validators
    answering the same document), unless the job forces imports."""
    digest = hashlib.sha256(fetched.content).hexdigest()
    if digest == previous.get(stored.CONTENT_HASH) and not getattr(harvest_object, "force_import", False):
        return None
    return digest


def remember_fetch(harvest_object: Any, fetched: FetchResult, digest: str, url_key: str, url: str,
                   **also: str) -> None:
    """What the next job's conditional fetch of this record sends, and the hash it compares (and ``also``, more
    extras the next fetch reads)."""
    stored.set_extras(harvest_object, **{
        stored.ETAG: fetched.etag or "", stored.LAST_MODIFIED: fetched.last_modified or "",
        stored.CONTENT_HASH: digest, url_key: url, **also,
    })
