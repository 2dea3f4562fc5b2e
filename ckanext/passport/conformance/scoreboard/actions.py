"""The scoreboard's actions: every publisher's conformance (``passport_scoreboard``) and one publisher's, or the
portal's, over time (``passport_scoreboard_history``).

Both read only ``passport_job_summary`` (one row per finished job, ``scoreboard.summary``) joined with the sources,
in one SQL query per call whose time and memory do not grow with the number of jobs: each source's latest summary
(and its latest before the period) is one lookup of the (source, finished) index, and one page is returned. Anyone may call them; only the rows of public
sources (the harvest source's dataset not private) are counted, unless the caller is a sysadmin.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Optional

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk
import sqlalchemy as sa

from ckanext.passport import source_types


PERIODS = {"week": dt.timedelta(days=7), "month": dt.timedelta(days=30)}
DEFAULT_PERIOD = "month"
# Each sort key's column, best first; a leading "-" reverses. Rows without a value (no mean, no change) come last
# either way; ties go by name.
SORTS = {"score": "mean_score DESC", "change": "change DESC", "passports": "listed DESC", "name": "lower(name) ASC"}
REVERSED = {"score": "mean_score ASC", "change": "change ASC", "passports": "listed ASC", "name": "lower(name) DESC"}
DEFAULT_SORT = "score"
LIMIT, MAX_LIMIT = 50, 500
# PostgreSQL's OFFSET is a bigint: a 20-digit offset failed the query (a 500). No portal has a million publishers.
MAX_OFFSET = 1_000_000
HISTORY_LIMIT = 30
TOP_CODES = 5
ALL_CODES = 10_000  # one publisher's row (its page) lists every code its findings have

# The sources whose summaries the caller may count: active passport sources, public ones unless a sysadmin asks.
_VISIBLE = f"""
    SELECT s.id, p.name, p.title FROM harvest_source s JOIN package p ON p.id = s.id
    WHERE s.type = '{source_types.PASSPORT}' AND p.state = 'active' AND (:all OR NOT p.private)
"""

_SCOREBOARD = """
WITH visible AS ({visible}),
latest AS (
    SELECT j.* FROM visible v CROSS JOIN LATERAL (
        SELECT * FROM passport_job_summary s WHERE s.source_id = v.id ORDER BY s.finished DESC LIMIT 1) j
),
publishers AS (
    -- named by the organization's title now (a renamed organization's row is renamed at once), else by the title
    -- its latest summary kept (an organization since purged, or a source of none)
    SELECT l.publisher_key,
           COALESCE((SELECT COALESCE(NULLIF(g.title, ''), g.name) FROM "group" g
                     WHERE l.publisher_key LIKE 'org:%' AND g.id = substr(l.publisher_key, 5)),
                    (array_agg(l.publisher_name ORDER BY l.finished DESC))[1]) AS name,
           jsonb_agg(jsonb_build_object('id', v.id, 'name', v.name, 'title', v.title) ORDER BY v.title, v.name)
               AS sources,
           sum(l.listed) AS listed, sum(l.read) AS read, sum(l.conformant) AS conformant,
           sum(l.mean_score * l.read) / NULLIF(sum(l.read) FILTER (WHERE l.mean_score IS NOT NULL), 0)
               AS mean_score,
           max(l.finished) AS last_finished,
           (array_agg(l.status ORDER BY l.finished DESC))[1] AS last_status,
           (array_agg(l.failure_code ORDER BY l.finished DESC))[1] AS failure_code
    FROM latest l JOIN visible v ON v.id = l.source_id
    GROUP BY l.publisher_key
),
past AS (
    -- each source's latest summary finished before the period began, counted for the publisher it has now
    SELECT l.publisher_key,
           sum(e.mean_score * e.read) / NULLIF(sum(e.read) FILTER (WHERE e.mean_score IS NOT NULL), 0) AS mean_score
    FROM latest l CROSS JOIN LATERAL (
        SELECT s.read, s.mean_score FROM passport_job_summary s
        WHERE s.source_id = l.source_id AND s.finished < :since ORDER BY s.finished DESC LIMIT 1) e
    GROUP BY l.publisher_key
),
code_counts AS (
    SELECT l.publisher_key, c.key AS code, sum(c.value::int) AS count,
           row_number() OVER (PARTITION BY l.publisher_key ORDER BY sum(c.value::int) DESC, c.key) AS place
    FROM latest l, jsonb_each_text(l.codes) c
    GROUP BY l.publisher_key, c.key
),
top_codes AS (
    SELECT publisher_key, jsonb_agg(jsonb_build_object('code', code, 'count', count) ORDER BY place) AS codes
    FROM code_counts WHERE place <= :top GROUP BY publisher_key
),
board AS (
    SELECT p.*, p.mean_score - past.mean_score AS change, COALESCE(t.codes, '[]'::jsonb) AS codes
    FROM publishers p LEFT JOIN past USING (publisher_key) LEFT JOIN top_codes t USING (publisher_key)
    WHERE (:pattern = '' OR p.name ILIKE :pattern ESCAPE '\\') AND (:publisher = '' OR p.publisher_key = :publisher)
),
page AS (
    SELECT * FROM board ORDER BY {order} NULLS LAST, lower(name), publisher_key LIMIT :limit OFFSET :offset
)
SELECT (SELECT count(*) FROM board) AS total, page.*
FROM (SELECT 1) AS one LEFT JOIN page ON true
"""

# The last :limit jobs of each publisher asked for (one publisher's history, or the trends of a page's rows).
_PUBLISHER_HISTORY = """
WITH visible AS ({visible})
SELECT * FROM (
    SELECT j.publisher_key, j.job_id, j.source_id, j.finished, j.status, j.failure_code, j.listed, j.read,
           j.conformant, j.refused, j.mean_score, j.errors, j.codes,
           row_number() OVER (PARTITION BY j.publisher_key ORDER BY j.finished DESC) AS place
    FROM passport_job_summary j JOIN visible v ON v.id = j.source_id
    WHERE j.publisher_key = ANY(:publishers)
) jobs WHERE place <= :limit ORDER BY publisher_key, finished
"""

_PORTAL_HISTORY = """
WITH visible AS ({visible})
SELECT * FROM (
    SELECT date_trunc('day', j.finished)::date AS day, count(*) AS jobs, sum(j.listed) AS listed,
           sum(j.read) AS read, sum(j.conformant) AS conformant,
           sum(j.mean_score * j.read) / NULLIF(sum(j.read) FILTER (WHERE j.mean_score IS NOT NULL), 0) AS mean_score
    FROM passport_job_summary j JOIN visible v ON v.id = j.source_id
    GROUP BY 1 ORDER BY 1 DESC LIMIT :limit
) days ORDER BY day
"""


@tk.side_effect_free
def passport_scoreboard(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Every publisher's MR conformance: one row per publisher (an organization: the one holding the INN its
    passports' identifiers start with, when its source speaks for it, else its source's; ``summary.publisher``),
    named by the organization's title, summed over the last finished job of each of its sources.

    :param period: ``week`` or ``month`` (default): ``change`` is the mean score now minus the mean of each source's
        latest job finished before now minus 7 or 30 days (null when there was none)
    :param q: only publishers whose name contains this text (any case)
    :param publisher: only the publisher with this key (its page); its row then lists every code of its findings,
        not only the five most frequent
    :param sort: ``score`` (default, best first), ``change`` (most improved first), ``passports`` (most listed
        first) or ``name`` (A to Z); a leading ``-`` reverses. Rows without a value come last.
    :param limit: rows per page (default 50, at most 500)
    :param offset: rows skipped (default 0, at most 1,000,000)
    :returns: ``{"count", "period", "rows": [{"publisher", "name", "sources": [{"id", "name", "title"}],
        "listed", "read", "conformant", "mean_score", "change", "codes": [{"code", "count"}], "last_finished",
        "last_status", "failure_code"}]}``; ``count`` is every matching publisher, ``rows`` one page of them
    """
    tk.check_access("passport_scoreboard", context, data_dict)
    period = _period(data_dict)
    order = _order(data_dict)
    limit, offset = _page(data_dict)
    query = (data_dict.get("q") or "").strip()
    publisher = str(data_dict.get("publisher") or "").strip()
    now = dt.datetime.utcnow()
    statement = sa.text(_SCOREBOARD.format(visible=_VISIBLE, order=order))
    result = model.Session.execute(statement, {
        "all": _sees_all(context), "since": now - PERIODS[period], "top": ALL_CODES if publisher else TOP_CODES,
        "pattern": f"%{_escaped(query)}%" if query else "", "publisher": publisher, "limit": limit, "offset": offset,
    }).mappings().all()
    count = result[0]["total"] if result else 0
    return {"count": count, "period": period,
            "rows": [_row(row) for row in result if row["publisher_key"] is not None]}


@tk.side_effect_free
def passport_scoreboard_history(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """A publisher's conformance per finished job, or the portal's per day, oldest first.

    :param publisher: a publisher's key (as ``passport_scoreboard`` gives it); omitted: the portal
    :param limit: the last this many jobs (or days with finished jobs) (default 30, at most 500)
    :returns: with ``publisher``: ``{"publisher", "jobs": [{"job_id", "source_id", "finished", "status",
        "failure_code", "listed", "read", "conformant", "refused", "mean_score", "errors", "codes"}]}`` (``codes``:
        the job's findings by code, ``{code: count}``); without:
        ``{"publisher": null, "days": [{"day", "jobs", "listed", "read", "conformant", "mean_score"}]}``, the mean
        over the passports read by the jobs finished that day
    """
    tk.check_access("passport_scoreboard_history", context, data_dict)
    limit = _int(data_dict, "limit", HISTORY_LIMIT, MAX_LIMIT)
    publisher = (data_dict.get("publisher") or "").strip()
    if publisher:
        return {"publisher": publisher, "jobs": histories(context, [publisher], limit)[publisher]}
    params = {"all": _sees_all(context), "limit": limit}
    rows = model.Session.execute(sa.text(_PORTAL_HISTORY.format(visible=_VISIBLE)), params).mappings()
    return {"publisher": None, "days": [
        {"day": row["day"].isoformat(), "jobs": row["jobs"], "listed": int(row["listed"]), "read": int(row["read"]),
         "conformant": int(row["conformant"]), "mean_score": _rounded(row["mean_score"])} for row in rows]}


def histories(context: dict, publishers: list[str], limit: int = HISTORY_LIMIT) -> dict[str, list[dict[str, Any]]]:
    """The last ``limit`` jobs of each of ``publishers``, oldest first, by publisher key (one query for all of
    them: the scoreboard page's trends); the jobs of sources the caller may not see are left out."""
    found: dict[str, list[dict[str, Any]]] = {key: [] for key in publishers}
    if not publishers:
        return found
    rows = model.Session.execute(sa.text(_PUBLISHER_HISTORY.format(visible=_VISIBLE)), {
        "all": _sees_all(context), "limit": limit, "publishers": list(publishers)}).mappings()
    for row in rows:
        job = {key: value for key, value in row.items() if key not in ("publisher_key", "place")}
        found[row["publisher_key"]].append(
            {**job, "finished": row["finished"].isoformat(), "mean_score": _rounded(row["mean_score"])})
    return found


def _row(row: Any) -> dict[str, Any]:
    return {
        "publisher": row["publisher_key"], "name": row["name"], "sources": row["sources"],
        "listed": int(row["listed"]), "read": int(row["read"]), "conformant": int(row["conformant"]),
        "mean_score": _rounded(row["mean_score"]), "change": _rounded(row["change"]), "codes": row["codes"],
        "last_finished": row["last_finished"].isoformat(), "last_status": row["last_status"],
        "failure_code": row["failure_code"],
    }


# --- parameters ----------------------------------------------------------------------------------------------


def _period(data_dict: dict[str, Any]) -> str:
    period = data_dict.get("period") or DEFAULT_PERIOD
    if period not in PERIODS:
        raise tk.ValidationError({"period": [tk._("Must be one of: week, month")]})
    return period


def _order(data_dict: dict[str, Any]) -> str:
    sort = str(data_dict.get("sort") or DEFAULT_SORT)
    key = sort[1:] if sort.startswith("-") else sort
    if key not in SORTS:
        raise tk.ValidationError({"sort": [tk._("Must be one of: score, change, passports, name (- reverses)")]})
    return (REVERSED if sort.startswith("-") else SORTS)[key]


def _page(data_dict: dict[str, Any]) -> tuple[int, int]:
    return _int(data_dict, "limit", LIMIT, MAX_LIMIT), _int(data_dict, "offset", 0, MAX_OFFSET, least=0)


def _int(data_dict: dict[str, Any], name: str, default: int, most: Optional[int], least: int = 1) -> int:
    value = data_dict.get(name)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise tk.ValidationError({name: [tk._("Invalid integer")]})
    if number < least or (most is not None and number > most):
        raise tk.ValidationError({name: [
            tk._("Must be at least {least}").format(least=least) if number < least
            else tk._("Must be at most {most}").format(most=most)]})
    return number


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _sees_all(context: dict) -> bool:
    # Only a sysadmin: an internal caller skipping the auth check (ignore_auth) still sees the public rows only.
    return authz.is_sysadmin(context.get("user") or "")


def _rounded(value: Any) -> Optional[float]:
    return None if value is None else round(float(value), 1)


# --- authorization ---------------------------------------------------------------------------------------------


@tk.auth_allow_anonymous_access
def scoreboard_auth(context: dict, data_dict: Optional[dict] = None) -> dict[str, Any]:
    """Anyone: the actions count only the public sources' jobs for whoever is not a sysadmin."""
    return {"success": True}


def actions() -> dict[str, Any]:
    return {"passport_scoreboard": passport_scoreboard, "passport_scoreboard_history": passport_scoreboard_history}


def auth_functions() -> dict[str, Any]:
    return {"passport_scoreboard": scoreboard_auth, "passport_scoreboard_history": scoreboard_auth}
