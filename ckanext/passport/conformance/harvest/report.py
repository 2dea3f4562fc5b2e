"""A harvest job's conformance report: one passport per registry entry the job gathered, from its harvest objects.

Everything is read from what the harvest already stored (:mod:`ckanext.passport.harvest.stored`), never fetched
again: the fetch stage keeps what it read in the object's content (``MrContent``) and its score as an extra, and
an unreadable passport's
findings are its error rows' mirrors (``passport_harvest_finding``). An object whose fetch found its passport
unchanged keeps only the gather content, so its passport and findings are those of the latest earlier object of
the same guid and source that has them. A passport read whose import was refused (an import-stage error other than
those that keep the record, ``harvest.problems.RECORD_KEPT``) has no score: the portal holds nothing of it, so it
counts in neither the mean nor the conformant. The report is built in a fixed number of queries whatever the job's
size. Its statements are queries.py's; this module assembles their rows.

A report may be one page of its passports (:class:`Selection`: a code, a severity, an order, an offset and a
limit). Its summary, filter and order need only each passport's identifier, score and findings' codes and
severities (:class:`Counted`), so those are streamed for the whole job by one query in which PostgreSQL takes each
stored content apart, the passports left in the database; a view holds no more of them than its page. The
passports themselves are read, corrected and their findings rendered only for the passports of the page. The
whole report is the same call with no limit.
"""
from __future__ import annotations

import datetime as dt
import heapq
import json
import sys
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Optional, Sequence
from urllib.parse import urljoin

import ckan.model as model
from ckanext.harvest.model import HarvestJob, HarvestObject

from ckanext.passport.harvest import problems as codes
from ckanext.passport.harvest import stored as stored_object
from ckanext.passport.mr import serialize
from ckanext.passport.mr.model import Passport, Problem, Severity, Translate, english
from ckanext.passport.mr.problems import stored_problem

from ..shape import PassportConformance, document, summary
from . import queries

# How many finished jobs the score history shows: enough for a trend, few enough to read in one query.
HISTORY_JOBS = 30
SEVERITIES = tuple(s.value for s in Severity)


@dataclass
class StoredPassport:
    """What one harvest object holds about its passport: ``passport`` is ``None`` when none was read."""

    object_id: str
    guid: str
    package_id: Optional[str]
    identifier: str
    title: str
    url: str
    form: str = ""
    score: Optional[int] = None
    problems: Sequence[Problem] = ()
    # serialize.to_jsonable of the passport read: None when none was read, and until with_passports reads it
    passport: Optional[dict] = None
    read_by: Optional[str] = None  # the object that read the passport (this one, or an earlier one if unchanged)
    refused: bool = False  # read, but its import refused


# Builds a passport's fixed-file links and corrections: (object that read it, passport) → (fixed, corrections).
Fixer = Callable[[str, Passport, str], tuple[dict[str, str], list[Problem]]]


def last_finished_job(source_id: str) -> Optional[HarvestJob]:
    return (
        model.Session.query(HarvestJob)
        .filter(HarvestJob.source_id == source_id, HarvestJob.status == "Finished")
        .order_by(HarvestJob.finished.desc().nulls_last(), HarvestJob.created.desc())
        .first()
    )


def entries(object_ids: Sequence[str], source_id: str) -> list[StoredPassport]:
    """The registry entries of these objects (of one source) with what was found of each, in the order given; the
    passports read stay in the database until :func:`with_passports` reads those of the entries that need them."""
    if not object_ids:
        return []
    by_id = {entry.object_id: entry
             for entry in _resolved(_rows(queries.object_rows(HarvestObject.id.in_(list(object_ids)))), source_id)}
    return [by_id[object_id] for object_id in object_ids if object_id in by_id]


def object_passport(harvest_object: HarvestObject) -> StoredPassport:
    """One object's passport, resolved as in a job's report."""
    rows = _rows(queries.object_rows(HarvestObject.id == harvest_object.id))
    return with_passports(_resolved(rows, harvest_object.harvest_source_id))[0]


def with_passports(entries: Sequence[StoredPassport]) -> list[StoredPassport]:
    """``entries`` with the passport each read, from the objects that read them (one query)."""
    readers = {entry.read_by for entry in entries if entry.read_by}
    if not readers:
        return list(entries)
    read = {id_: stored_object.MrContent.from_json(content).passport for id_, content in queries.contents(readers)}
    return [replace(entry, passport=read.get(entry.read_by)) if entry.read_by else entry for entry in entries]


class Counted(NamedTuple):
    """What a report's summary, filter and order need of one registry entry (and a job's summary its publisher):
    read for every entry of a job as a stream (one row at a time), the passports and messages left in the database."""

    object_id: str
    identifier: str
    score: Optional[int]  # None: not read, or refused
    refused: bool
    findings: tuple[tuple[str, str], ...]  # (code, severity) of each finding, as the report lists them

    def as_entry(self) -> dict[str, Any]:
        """The entry as :func:`shape.summary` counts it."""
        return {"score": self.score, "refused": self.refused,
                "findings": [{"code": code, "severity": severity} for code, severity in self.findings]}


def counted_entries(job: HarvestJob) -> Iterator[Counted]:
    """The job's registry entries in registry order, each as :class:`Counted`, resolved as :func:`job_entries`
    resolves them (an unchanged passport's read is the latest earlier object of its guid that scored it; an
    import refused leaves no score); PostgreSQL takes each content apart and the rows are streamed."""
    for object_id, identifier, refused, score, found in queries.counted_rows(job.id):
        # Codes and severities are a few strings repeated over thousands of entries: interned, each is held once.
        findings = tuple((sys.intern(code), sys.intern(severity))
                         for part in json.loads(found) for code, severity in part)
        yield Counted(object_id, identifier, None if refused else score, refused, findings)


@dataclass(frozen=True)
class Selection:
    """The passports a report lists: those with a finding of ``code`` and/or ``severity`` (each with those findings
    only), in the order ``sort`` (empty: the registry's; see SORTS), ``limit`` of them (``None``: all) after the
    first ``offset``."""

    code: str = ""
    severity: str = ""
    sort: str = ""
    offset: int = 0
    limit: Optional[int] = None

    def wants(self, code: str, severity: str) -> bool:
        """Whether a finding of ``code`` and ``severity`` is one the selection lists."""
        return (not self.code or code == self.code) and (not self.severity or severity == self.severity)

    def matches(self, found: Problem) -> bool:
        return self.wants(found.code, found.severity.value)


class Page:
    """The page a selection picks from a stream of entries, holding no more than its offset and limit: the count
    of entries picked, and the object ids of the page, in the selection's order."""

    def __init__(self, selection: Selection) -> None:
        self.selection, self.count = selection, 0
        self.end = None if selection.limit is None else selection.offset + selection.limit
        self.kept: list[tuple[Any, int, str]] = []  # (order key, arrival, object id) of the best so far

    def add(self, entry: Counted) -> None:
        wanted = self.selection
        if (wanted.code or wanted.severity) and not any(wanted.wants(*found) for found in entry.findings):
            return
        arrival, self.count = self.count, self.count + 1
        key = _SORT_KEYS[wanted.sort](entry) if wanted.sort else ()
        if not wanted.sort and self.end is not None and arrival >= self.end:
            return
        self.kept.append((key, arrival, entry.object_id))
        if self.end is not None and len(self.kept) > 2 * max(self.end, 1):
            self.kept = heapq.nsmallest(self.end, self.kept)

    def object_ids(self) -> list[str]:
        return [object_id for _, _, object_id in sorted(self.kept)[self.selection.offset:self.end]]


def report(job: Optional[HarvestJob], source_id: str, translate: Translate = english,
           fixer: Optional[Fixer] = None, selection: Selection = Selection()) -> dict[str, Any]:
    """The report document of ``job`` (``None``: the source has no finished job yet, an empty report), its passports
    those ``selection`` picks; the summary, ``count`` (how many the selection picks before its offset and limit)
    and ``scores`` (the distribution's: each passport's but those refused, ``None`` when unread) are the job's.

    The job's entries are read once, as a stream, for the summary, the scores and the page; only the page's
    passports are then read whole."""
    if job is None:
        empty = document([], translate=translate, source_id=source_id, job_id=None, finished=None)
        return {**empty, "count": 0, "scores": []}
    page, scores = Page(selection), []

    def counted_once() -> Iterator[dict[str, Any]]:
        for entry in counted_entries(job):
            if not entry.refused:
                scores.append(entry.score)
            page.add(entry)
            yield entry.as_entry()

    whole = summary(counted_once())
    shown = entries(page.object_ids(), job.source_id)
    if selection.code or selection.severity:
        shown = [replace(entry, problems=[p for p in entry.problems if selection.matches(p)]) for entry in shown]
    checked = [conformance(stored, fixer) for stored in with_passports(shown)]
    return {**document(checked, gather_problems(job.id), translate, summarized=whole, source_id=source_id,
                       job_id=job.id, finished=_iso(job.finished)),
            "count": page.count, "scores": scores}


def conformance(stored: StoredPassport, fixer: Optional[Fixer] = None) -> PassportConformance:
    checked = PassportConformance(
        identifier=stored.identifier, url=stored.url, form=stored.form, score=stored.score,
        problems=list(stored.problems), dataset_id=stored.package_id, title=stored.title, refused=stored.refused,
    )
    if fixer is not None and stored.passport is not None and stored.read_by:
        checked.fixed, checked.corrections = fixer(
            stored.read_by, serialize.passport_from_jsonable(stored.passport), stored.url)
    return checked


def gather_problems(job_id: str) -> list[Problem]:
    """The job's gather errors (registry unreadable, deletions refused…) as findings about the site itself."""
    return [stored_problem(json.loads(text)) for (text,) in queries.gather_findings(job_id)]


def score_history(source_id: str, limit: int = HISTORY_JOBS) -> list[dict[str, Any]]:
    """``[{"job_id", "finished", "mean_score", "passports"}]`` of the source's last finished jobs, oldest first.

    The mean is the report's (scores of the passports read and not refused; an unchanged passport counts with its
    earlier score), computed by PostgreSQL from the stored contents: reading every job's report would parse every
    object again.
    """
    return [
        {"job_id": job_id, "finished": _iso(finished), "passports": passports,
         "mean_score": None if mean is None else round(float(mean), 1)}
        for job_id, finished, passports, mean in queries.history_rows(source_id, limit)
    ]


# -- sorting --------------------------------------------------------------------------------------------------


def _worst_first(entry: Counted) -> tuple:
    return (entry.score is not None, entry.score or 0, entry.identifier)


def _best_first(entry: Counted) -> tuple:
    return (entry.score is None, -(entry.score or 0), entry.identifier)


# score: worst first, unreadable passports before all; -score: best first; identifier.
_SORT_KEYS: dict[str, Callable[[Counted], tuple]] = {
    "score": _worst_first,
    "-score": _best_first,
    "identifier": lambda entry: (entry.identifier, ),
}
SORTS = tuple(_SORT_KEYS)


# -- reading the objects ------------------------------------------------------------------------------------


@dataclass
class _Row:
    id: str
    guid: str
    package_id: Optional[str]
    content: stored_object.MrContent  # without its passport, which stays in the database
    read: bool  # whether the object holds a passport it read (MrContent.read)
    passport_title: Optional[str]
    report_status: Optional[str]
    gathered: Optional[dt.datetime]
    passport_url: Optional[str]


def _rows(rows: Iterable[Iterable[Any]]) -> list[_Row]:
    return [_row(values) for values in rows]


def _row(values: Iterable[Any]) -> _Row:
    id_, guid, package_id, content, read, title, status, gathered, url = values
    return _Row(id_, guid, package_id, stored_object.MrContent.from_json(content), read, title, status, gathered,
                url)


def _resolved(rows: list[_Row], source_id: str) -> list[StoredPassport]:
    unchanged = [row for row in rows if not row.read and row.report_status == "not modified"]
    earlier = _earlier_reads(source_id, unchanged)
    errors, refused = _object_findings([row.id for row in rows])
    stored = []
    for row in rows:
        reader = row if row.read else earlier.get(row.guid)
        stored.append(_stored(row, reader, errors.get(row.id, []), row.id in refused))
    return stored


def _earlier_reads(source_id: str, unchanged: list[_Row]) -> dict[str, _Row]:
    """guid → the latest object before ``unchanged`` ones that read the passport (one query for them all)."""
    if not unchanged:
        return {}
    before = min((row.gathered for row in unchanged if row.gathered), default=None)
    rows = queries.earlier_read_rows(source_id, {row.guid for row in unchanged}, before)
    return {row.guid: row for row in map(_row, rows)}


def _object_findings(object_ids: list[str]) -> tuple[dict[str, list[Problem]], set[str]]:
    """object id → the findings of its error rows (fetch failures, structures not found, import refusals), and the
    objects whose import was refused (an import-stage error, save one that keeps the record)."""
    if not object_ids:
        return {}, set()
    found: dict[str, list[Problem]] = {}
    refused: set[str] = set()
    for object_id, stage, code, text in queries.error_rows(object_ids):
        if stage == queries.IMPORT_STAGE and code not in codes.RECORD_KEPT:
            refused.add(object_id)
        if text is not None:
            found.setdefault(object_id, []).append(stored_problem(json.loads(text)))
    return found, refused


def _stored(row: _Row, reader: Optional[_Row], errors: list[Problem], refused: bool = False) -> StoredPassport:
    entry = row.content.entry
    link = urljoin(row.content.registry_url, (entry.get("link") or "").strip())
    stored = StoredPassport(object_id=row.id, guid=row.guid, package_id=row.package_id,
                            identifier=entry.get("identifier") or row.guid, title=entry.get("title") or "",
                            url=row.passport_url or link)
    if reader is None:
        # Nothing read: the object's errors say why (for an object still waiting, there is nothing yet).
        stored.problems = errors
        return stored
    content = reader.content
    read = [stored_problem(d) for d in content.problems]
    checked = [stored_problem(d) for d in content.conformance_problems]
    # Errors the object's rows hold that the content does not (hostile input saved as an error is in both).
    kept = {(p.code, p.location) for p in read + checked}
    stored.problems = read + checked + [p for p in errors if (p.code, p.location) not in kept]
    stored.score = None if refused else content.score
    stored.refused = refused
    stored.form = content.form
    stored.url = reader.passport_url or stored.url
    stored.title = stored.title or reader.passport_title or ""
    stored.read_by = reader.id
    if stored.package_id is None:
        stored.package_id = reader.package_id
    return stored


def _iso(value: Any) -> Optional[str]:
    # ckanext-harvest sets a job's ``finished`` as text on the object it holds; the database gives a datetime.
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.isoformat() if value is not None else None
