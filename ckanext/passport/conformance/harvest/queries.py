"""The statements a job's conformance report reads the stored harvest objects by (report.py assembles their rows).

The stored object's layout is harvest/stored.py's: every key of an object's content or extras these statements
name comes from there (an MR content's keys through ``stored.mr_columns`` and its constants), never spelled out.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

import ckan.model as model
import sqlalchemy as sa
from sqlalchemy.orm import aliased
from ckanext.harvest.model import HarvestGatherError, HarvestObject, HarvestObjectError, HarvestObjectExtra

from ckanext.passport.harvest import problems as codes
from ckanext.passport.harvest import stored as stored_object
from ckanext.passport.harvest.findings import HarvestFinding
from ckanext.passport.harvest.stored import (
    CONFORMANCE, CONFORMANCE_PROBLEMS, CONFORMANCE_SCORE, ENTRY, FORM, PASSPORT, PROBLEMS, REGISTRY_URL, mr_columns)

IMPORT_STAGE = "Import"  # ckanext-harvest's stage name on an import's error rows
_STREAMED_ROWS = 500


def _parameters() -> dict[str, Any]:
    """The stored object's extras and the refusal rule, as both statements below take them."""
    return {"status": stored_object.STATUS, "delete": stored_object.DELETE, "score": stored_object.SCORE,
            "import": IMPORT_STAGE, "kept": sorted(codes.RECORD_KEPT)}


# Whether object ``o``'s import was refused: an import error row of it whose finding does not keep the record
# (RECORD_KEPT). A lateral subquery with LIMIT 1, so that it runs once per object by the error rows' index: as an
# EXISTS in the select list the planner may hash every import error row of the portal first (it did at 50,000
# records, 180 ms a report), misled by the rows it expects of the JSON functions (bench/bench_portal_scale.py).
REFUSAL = """LEFT JOIN LATERAL (
        SELECT true AS refused FROM harvest_object_error r
        LEFT JOIN passport_harvest_finding f ON f.error_id = r.id
        WHERE r.harvest_object_id = o.id AND r.stage = :import AND (f.code IS NULL OR f.code <> ALL (:kept))
        LIMIT 1
    ) AS refusal ON true"""

# One row per registry entry of the job (its objects but deletions), in registry order: the object's identifier
# (its gather entry's), whether its import was refused, and from the object that read its passport (itself, or
# for an unchanged one the latest earlier object of its guid with a score) the score and each
# finding's code and severity (the read's problems, then the conformance check's, then the object's error rows').
COUNTED = sa.text(
    f"""
    SELECT o.id, COALESCE(NULLIF(own.{ENTRY}->>'identifier', ''), o.guid), refusal.refused IS NOT NULL,
           (reader.{CONFORMANCE}->>'{CONFORMANCE_SCORE}')::int,
           json_build_array(
               (SELECT COALESCE(json_agg(json_build_array(p->>'code', COALESCE(p->>'severity', ''))), '[]')
                FROM json_array_elements(found.read) AS p),
               (SELECT COALESCE(json_agg(json_build_array(p->>'code', COALESCE(p->>'severity', ''))), '[]')
                FROM json_array_elements(found.checked) AS p),
               -- An error row repeating a finding of the read (hostile input is saved as both) counts once.
               (SELECT COALESCE(json_agg(json_build_array(f.code, COALESCE(f.finding::json->>'severity', ''))
                                         ORDER BY r.created, r.id), '[]')
                FROM harvest_object_error r JOIN passport_harvest_finding f ON f.error_id = r.id
                WHERE r.harvest_object_id = o.id AND NOT EXISTS (
                    SELECT 1 FROM json_array_elements(found.read) AS p WHERE p->>'code' = f.code
                    AND COALESCE((p->'location')::jsonb, '{{}}') = COALESCE(f.finding::jsonb->'location', '{{}}')
                    UNION ALL
                    SELECT 1 FROM json_array_elements(found.checked) AS p WHERE p->>'code' = f.code
                    AND COALESCE((p->'location')::jsonb, '{{}}') = COALESCE(f.finding::jsonb->'location', '{{}}')))
           )::text
    FROM harvest_object o
    {REFUSAL}
    CROSS JOIN LATERAL json_to_record(o.content::json) AS own({mr_columns(ENTRY, PASSPORT)})
    LEFT JOIN LATERAL (
        SELECT p.content FROM harvest_object p
        JOIN harvest_object_extra s ON s.harvest_object_id = p.id AND s.key = :score
        WHERE own.{PASSPORT} IS NULL AND o.report_status = 'not modified'
        AND p.harvest_source_id = o.harvest_source_id AND p.guid = o.guid AND p.gathered < o.gathered
        ORDER BY p.gathered DESC LIMIT 1
    ) AS earlier ON true
    LEFT JOIN LATERAL json_to_record(
        CASE WHEN own.{PASSPORT} IS NOT NULL THEN o.content ELSE earlier.content END::json
    ) AS reader({mr_columns(PASSPORT, PROBLEMS, CONFORMANCE)}) ON reader.{PASSPORT} IS NOT NULL
    CROSS JOIN LATERAL (SELECT COALESCE(reader.{PROBLEMS}, '[]') AS read,
                               COALESCE(reader.{CONFORMANCE}->'{CONFORMANCE_PROBLEMS}', '[]') AS checked) AS found
    WHERE o.harvest_job_id = :job AND o.content IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM harvest_object_extra e WHERE e.harvest_object_id = o.id
                    AND e.key = :status AND e.value = :delete)
    ORDER BY o.gathered, o.id
    """
)


def counted_rows(job_id: str) -> Iterator[tuple[str, str, bool, Any, str]]:
    """The rows of ``COUNTED`` for a job, streamed: (object id, identifier, refused, score, findings as JSON text:
    a list of lists of [code, severity])."""
    # The planner's cost of the JSON functions over thousands of rows passes jit_above_cost, and compiling the
    # query took 1.2 s of its 1.4 s on a 6,692-passport job: it is run without JIT (for this transaction only).
    model.Session.execute(sa.text("SET LOCAL jit = off"))
    yield from model.Session.execute(COUNTED, {"job": job_id, **_parameters()},
                                     execution_options={"stream_results": True, "yield_per": _STREAMED_ROWS})


# One row per finished job of a source (its last ``limit``), oldest first: its id, when it finished, its registry
# entries and the mean score of those read and not refused (an unchanged passport with its earlier score).
HISTORY = sa.text(
    f"""
    WITH jobs AS (
        SELECT id, finished FROM harvest_job
        WHERE source_id = :source AND status = 'Finished'
        ORDER BY finished DESC NULLS LAST LIMIT :limit
    ), entries AS (
        SELECT o.harvest_job_id, o.guid, o.gathered, o.report_status, own.value::int AS own_score,
               refusal.refused IS NOT NULL AS refused
        FROM harvest_object o JOIN jobs ON jobs.id = o.harvest_job_id
        {REFUSAL}
        LEFT JOIN harvest_object_extra own ON own.harvest_object_id = o.id AND own.key = :score
        WHERE NOT EXISTS (SELECT 1 FROM harvest_object_extra e WHERE e.harvest_object_id = o.id
                          AND e.key = :status AND e.value = :delete)
    )
    SELECT jobs.id, jobs.finished, count(entries.guid),
           avg(CASE WHEN NOT entries.refused THEN COALESCE(entries.own_score,
               CASE WHEN entries.report_status = 'not modified' THEN (
               SELECT earlier.value::int FROM harvest_object p
               JOIN harvest_object_extra earlier ON earlier.harvest_object_id = p.id AND earlier.key = :score
               WHERE p.harvest_source_id = :source AND p.guid = entries.guid AND p.gathered < entries.gathered
               ORDER BY p.gathered DESC LIMIT 1) END) END)
    FROM jobs LEFT JOIN entries ON entries.harvest_job_id = jobs.id
    GROUP BY jobs.id, jobs.finished
    ORDER BY jobs.finished NULLS FIRST
    """
)


def history_rows(source_id: str, limit: int) -> Iterable[tuple[str, Any, int, Any]]:
    """The rows of ``HISTORY``: (job id, finished, passports, mean score or None)."""
    return model.Session.execute(HISTORY, {"source": source_id, "limit": limit, **_parameters()})


def stored_parts() -> Any:
    """An object's content (MrContent's JSON) taken apart by PostgreSQL, each parsed once: the passport, the
    largest part, is read for its title only and never sent."""
    return sa.func.json_to_record(sa.cast(HarvestObject.content, sa.JSON)).table_valued(
        sa.column(ENTRY, sa.JSON), sa.column(REGISTRY_URL, sa.Text), sa.column(FORM, sa.Text),
        sa.column(PROBLEMS, sa.JSON), sa.column(CONFORMANCE, sa.JSON), sa.column(PASSPORT, sa.JSON),
    ).render_derived(name="stored", with_types=True)


def _row_columns(parts: Any, passport_url: Any) -> tuple:
    """(id, guid, package id, the content without its passport as JSON text, whether it holds a passport read,
    the passport's title, report status, gathered, the passport's URL extra) of an object."""
    light = sa.func.json_build_object(*(part for key in (ENTRY, REGISTRY_URL, FORM, PROBLEMS, CONFORMANCE)
                                        for part in (key, parts.c[key])))
    return (HarvestObject.id, HarvestObject.guid, HarvestObject.package_id, sa.cast(light, sa.Text),
            parts.c[PASSPORT].isnot(None), parts.c[PASSPORT].op("->>")("title"), HarvestObject.report_status,
            HarvestObject.gathered, passport_url.value)


def object_rows(condition: Any) -> list[tuple]:
    """The :func:`_row_columns` of the objects meeting ``condition`` that hold content, deletions aside, in
    registry order."""
    status = aliased(HarvestObjectExtra)
    passport_url = aliased(HarvestObjectExtra)
    parts = stored_parts()
    query = (
        model.Session.query(*_row_columns(parts, passport_url))
        .select_from(HarvestObject)
        .join(parts, sa.true())
        .outerjoin(status, sa.and_(status.harvest_object_id == HarvestObject.id, status.key == stored_object.STATUS))
        .outerjoin(passport_url, sa.and_(passport_url.harvest_object_id == HarvestObject.id,
                                         passport_url.key == stored_object.PASSPORT_URL))
        .filter(condition)
        .filter(sa.or_(status.value.is_(None), status.value != stored_object.DELETE))
        .filter(HarvestObject.content.isnot(None))
        .order_by(HarvestObject.gathered, HarvestObject.id)
    )
    return list(query)


def earlier_read_rows(source_id: str, guids: Iterable[str], before: Any) -> list[tuple]:
    """The :func:`_row_columns` of the latest object of each of ``guids`` (of one source, gathered before
    ``before`` unless ``None``) that read its passport, in one query."""
    score = aliased(HarvestObjectExtra)
    latest = (
        model.Session.query(HarvestObject.id)
        # A passport read is an object with a score.
        .join(score, sa.and_(score.harvest_object_id == HarvestObject.id, score.key == stored_object.SCORE))
        .filter(HarvestObject.harvest_source_id == source_id)
        .filter(HarvestObject.guid.in_(set(guids)))
        .distinct(HarvestObject.guid)
        .order_by(HarvestObject.guid, HarvestObject.gathered.desc())
    )
    if before is not None:
        latest = latest.filter(HarvestObject.gathered < before)
    passport_url = aliased(HarvestObjectExtra)
    parts = stored_parts()
    # Only the latest reads' contents are taken apart, not those of every earlier job.
    query = (
        model.Session.query(*_row_columns(parts, passport_url))
        .select_from(HarvestObject)
        .join(parts, sa.true())
        .outerjoin(passport_url, sa.and_(passport_url.harvest_object_id == HarvestObject.id,
                                         passport_url.key == stored_object.PASSPORT_URL))
        .filter(HarvestObject.id.in_(latest))
    )
    return list(query)


def contents(object_ids: Sequence[str]) -> Iterable[tuple[str, str]]:
    """(id, content) of these objects."""
    return model.Session.query(HarvestObject.id, HarvestObject.content).filter(HarvestObject.id.in_(object_ids))


def error_rows(object_ids: Sequence[str]) -> Iterable[tuple[str, str, Any, Any]]:
    """(object id, stage, finding's code, finding as JSON text) of these objects' error rows, oldest first; code and
    finding ``None`` for a row ckanext-harvest wrote without a finding of ours."""
    return (
        model.Session.query(HarvestObjectError.harvest_object_id, HarvestObjectError.stage, HarvestFinding.code,
                            HarvestFinding.finding)
        .outerjoin(HarvestFinding, HarvestFinding.error_id == HarvestObjectError.id)
        .filter(HarvestObjectError.harvest_object_id.in_(object_ids))
        .order_by(HarvestObjectError.created, HarvestObjectError.id)
    )


def gather_findings(job_id: str) -> Iterable[tuple[str]]:
    """The findings (JSON text) of a job's gather errors, oldest first."""
    return (
        model.Session.query(HarvestFinding.finding)
        .join(HarvestGatherError, HarvestGatherError.id == HarvestFinding.error_id)
        .filter(HarvestGatherError.harvest_job_id == job_id)
        .order_by(HarvestGatherError.created, HarvestGatherError.id)
    )
