"""The database and the search index compared record by record, and put right from the database.

A record is compared by ``metadata_modified``, which every write of a dataset moves on and CKAN indexes with it:
Solr keeps it to the millisecond, so the database's value is cut to the millisecond first. Four differences:
``missing`` (in the database, not in the index), ``stale`` (the index holds an older state), ``ahead`` (the index
holds a state the database never kept: a write whose transaction was rolled back), ``orphan`` (in the index, but
deleted or gone in the database). A repair indexes the record again from the database, which removes it from the
index where the database no longer has it.

Each harvest's gather runs the check over its source's records first (:func:`converge`), so what the last job
failed to index is indexed by the next one even when no passport changed; ``ckan passport check-index`` runs it
over a source, the recently changed records, or the whole catalog.

The same check compares each source's current objects with their records (``records.drift``): a record absent
(purged, or never written) or deleted in the portal. The job finds its own source's and reads those entries again;
``check-index --repair`` imports each again from its current object.
"""
from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any, Iterable, Optional

import ckan.plugins.toolkit as tk
from ckan import model
from ckan.lib.search.common import make_connection
from ckan.lib.search.index import PACKAGE_TYPE, TYPE_FIELD
from ckanext.harvest.model import HarvestObject

from ckanext.passport.harvest import records, stored
from ckanext.passport.harvest.findings import save_gather_error
from ckanext.passport.harvest.index_commits import INDEX_ERRORS, failure_name, index_from_database
from ckanext.passport.mr.problems import N_, problem

log = logging.getLogger(__name__)

# Each kind's words for people (the CLI's lines), in the project's catalogs.
KINDS = {
    "missing": N_("missing from the search index"),
    "stale": N_("older in the search index than in the database"),
    "ahead": N_("newer in the search index than in the database (a write the database did not keep)"),
    "orphan": N_("in the search index, but deleted or absent in the database"),
}
# Each kind of drift between a source's current object and its record (records.drift), for the CLI's lines.
DRIFT_KINDS = {
    stored.ABSENT: N_("the source lists it, but its record is gone (purged, or never written)"),
    stored.DELETED: N_("the source lists it, but its record was deleted in the portal"),
}
_PAGE = 1000
_ID_BATCH = 200
_NAMED = 5  # records a refused repair names on the job page


@dataclass(frozen=True)
class Difference:
    package_id: str
    name: str
    kind: str  # a key of KINDS
    database: Optional[datetime.datetime]
    index: Optional[datetime.datetime]


_STORED_COLUMNS = (model.Package.id, model.Package.name, model.Package.state, model.Package.metadata_modified)


@dataclass(frozen=True)
class _Stored:
    name: str
    state: str
    modified: Optional[datetime.datetime]


def differences(source_id: Optional[str] = None, since: Optional[datetime.datetime] = None) -> list[Difference]:
    """The records whose index document differs from the database: a harvest source's (its current objects' records
    and the documents filed under it), those changed at or after ``since`` (UTC) on either side, or every one."""
    index_filter = []
    stored_query = model.Session.query(*_STORED_COLUMNS)
    if source_id:
        index_filter.append(f'+harvest_source_id:"{source_id}"')
        linked = model.Session.query(HarvestObject.package_id).filter(
            HarvestObject.harvest_source_id == source_id, HarvestObject.current == True)  # noqa: E712
        stored_query = stored_query.filter(model.Package.id.in_(linked.scalar_subquery()))
    if since is not None:
        index_filter.append(f"+metadata_modified:[{_solr_time(since)} TO *]")
        stored_query = stored_query.filter(model.Package.metadata_modified >= since)
    indexed = _indexed(index_filter)
    stored = _stored(stored_query)
    # A record one side selected and the other did not is looked up on the other side by its id.
    stored.update(_stored_by_id(indexed.keys() - stored.keys()))
    for ids in _batches(sorted(stored.keys() - indexed.keys())):
        indexed.update(_indexed([_ids_filter(ids)]))
    deleted_leave_index = tk.asbool(tk.config.get("ckan.search.remove_deleted_packages"))
    found = (_difference(package_id, stored.get(package_id), indexed.get(package_id), deleted_leave_index)
             for package_id in sorted(stored.keys() | indexed.keys()))
    return [difference for difference in found if difference is not None]


def repair(found: Iterable[Difference]) -> list[Difference]:
    """Each record indexed again from the database, one at a time so that one refusal leaves the others repaired;
    the differences that could not be repaired."""
    found = list(found)
    if not found:
        return []
    # CKAN's session keeps the objects it loaded across commits: the database's state is read anew.
    model.Session.expire_all()
    failed = []
    for difference in found:
        try:
            index_from_database([difference.package_id])
        except INDEX_ERRORS as error:
            log.warning("Index repair of %s refused: %s", difference.package_id, error)
            failed.append(difference)
    return failed


def converge(job: Any) -> dict[str, str]:
    """Before a gather: the source's records the index lacks or holds out of date are indexed again. When the index
    cannot be read the job gets ``harvest.index_check_failed``, when it refuses a record again
    ``harvest.index_repair_refused``; the gather goes on. Answers the source's drift (guid → ``stored.ABSENT`` or
    ``stored.DELETED``): the job's own objects repair it, each entry still listed read again and reported."""
    gone = {found.guid: found.kind for found in records.drift(job.source_id)}
    try:
        failed = repair(differences(source_id=job.source_id))
    except INDEX_ERRORS as error:
        log.warning("Harvest job %s: the index check failed: %s", job.id, error)
        save_gather_error(problem("harvest.index_check_failed", error=failure_name(error)), job)
        return gone
    if failed:
        names = ", ".join(difference.name or difference.package_id for difference in failed[:_NAMED])
        save_gather_error(problem("harvest.index_repair_refused",
                                  names=names + (", …" if len(failed) > _NAMED else "")), job)
    return gone


def repairable(found: records.Drift) -> bool:
    """An absent record is made again; a deleted one is restored only where its source restores them (else it
    stays deleted, as its source's jobs keep it)."""
    return found.kind == stored.ABSENT or _harvester(found.source_id)[1].restore_deleted


def repair_drift(found: Iterable[records.Drift]) -> list[records.Drift]:
    """Each repairable drifted entry imported again from its current object, as its source's next job would; the
    entries whose import failed."""
    failed = []
    for drifted in found:
        harvester = _harvester(drifted.source_id)[0]
        if not harvester.import_stage(HarvestObject.get(drifted.object_id), again=True):
            failed.append(drifted)
    return failed


def _harvester(source_id: str) -> tuple[Any, Any]:
    """A passport or lkod source's harvester and its effective config."""
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.queue import get_harvester

    source = HarvestSource.get(source_id)
    harvester = get_harvester(source.type)
    return harvester, harvester._config(source)


def _difference(package_id: str, stored: Optional[_Stored], indexed: Optional[str],
                deleted_leave_index: bool) -> Optional[Difference]:
    expected = stored is not None and not (stored.state == "deleted" and deleted_leave_index)
    database = _to_millisecond(stored.modified) if stored is not None and stored.modified else None
    index = _parsed(indexed)
    name = stored.name if stored is not None else ""
    if expected and indexed is None:
        kind = "missing"
    elif not expected and indexed is not None:
        kind = "orphan"
    elif not expected or database == index:
        return None
    elif index is None or (database is not None and database > index):
        kind = "stale"
    else:
        kind = "ahead"
    return Difference(package_id, name, kind, database, index)


def _indexed(filters: list[str]) -> dict[str, Any]:
    """id → ``metadata_modified`` (Solr's text: CKAN's date decoder would cut it to the second) of this site's dataset
    documents matching every filter, paged by a cursor."""
    connection = make_connection(decode_dates=False)
    query = {"fq": [f"+{TYPE_FIELD}:{PACKAGE_TYPE}", f'+site_id:"{tk.config.get("ckan.site_id")}"', *filters],
             "fl": "id,metadata_modified", "rows": _PAGE, "sort": "index_id asc", "cursorMark": "*"}
    found: dict[str, Any] = {}
    while True:
        results = connection.search("*:*", **query)
        found.update((doc["id"], doc.get("metadata_modified", "")) for doc in results.docs)
        if not results.docs or results.nextCursorMark == query["cursorMark"]:
            return found
        query["cursorMark"] = results.nextCursorMark


def _stored_by_id(ids: set[str]) -> dict[str, _Stored]:
    stored: dict[str, _Stored] = {}
    for batch in _batches(sorted(ids)):
        stored.update(_stored(model.Session.query(*_STORED_COLUMNS).filter(model.Package.id.in_(batch))))
    return stored


def _stored(rows: Iterable[Any]) -> dict[str, _Stored]:
    return {row.id: _Stored(row.name, row.state, row.metadata_modified) for row in rows}


def _batches(ids: list[str]) -> Iterable[list[str]]:
    return (ids[start:start + _ID_BATCH] for start in range(0, len(ids), _ID_BATCH))


def _ids_filter(ids: list[str]) -> str:
    return "+id:(" + " OR ".join(f'"{package_id}"' for package_id in ids) + ")"


def _to_millisecond(moment: datetime.datetime) -> datetime.datetime:
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000, tzinfo=None)


def _parsed(text: Optional[str]) -> Optional[datetime.datetime]:
    """Solr's ``metadata_modified`` text (to the millisecond, in UTC) as a naive datetime."""
    if not text:
        return None
    try:
        return _to_millisecond(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        return None


def _solr_time(moment: datetime.datetime) -> str:
    return _to_millisecond(moment).isoformat(timespec="milliseconds") + "Z"
