"""Our findings in ckanext-harvest's error tables, shown in each reader's language.

ckanext-harvest keeps one text per error (``harvest_gather_error`` / ``harvest_object_error.message``): its job
counters, its error summary and its e-mails read that text. We store there ``[code] text`` in the site's
default language, and beside it, keyed by the error row's id, the finding itself (table
``passport_harvest_finding``: code, severity, params, location, repeats). The chained actions below render
each of a job's errors again in the reader's language; an error without that mirror (rows older than it,
another harvester's) keeps its stored text.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any, Callable, Collection, Iterable, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.logic import auth_audit_exempt
from ckan.model.types import make_uuid
from ckan.plugins.toolkit import BaseModel
from ckanext.harvest.model import HarvestGatherError, HarvestObject, HarvestObjectError
from sqlalchemy import Column, Integer, UnicodeText

from ckanext.passport.language import reader_translate, site_translate
from ckanext.passport.mr.model import Problem, Translate, english
from ckanext.passport.mr.problems import from_dict, severity_label, where

log = logging.getLogger(__name__)


class HarvestFinding(BaseModel):
    """The finding behind one ckanext-harvest error row (created by the ``passport`` plugin's migrations)."""

    __tablename__ = "passport_harvest_finding"

    error_id = Column(UnicodeText, primary_key=True)
    code = Column(UnicodeText, nullable=False)
    # Problem.as_dict() as JSON: code, severity, params and location rebuild it.
    finding = Column(UnicodeText, nullable=False)
    repeats = Column(Integer, nullable=False, default=1)


def line(found: Problem, repeats: int = 1, translate: Translate = english) -> str:
    """One line of the harvest UI: the stable code first, then severity and message, then where, then how often."""
    place = where(found.location, translate)
    text = f"[{found.code}] {severity_label(found.severity, translate)}: {found.message(translate)}"
    if place:
        text += f" ({place})"
    return text + (f" (×{repeats})" if repeats > 1 else "")


def shown(found: Problem, repeats: int = 1, translate: Translate = english) -> dict[str, str]:
    """One finding as our pages show it (the snippet passport/snippets/finding.html): its text in the reader's
    language, then where and how often, with its severity and code apart; ``message`` stays :func:`line`."""
    place = where(found.location, translate)
    text = found.message(translate) + (f" ({place})" if place else "") + (f" (×{repeats})" if repeats > 1 else "")
    return {"message": line(found, repeats, translate), "text": text, "code": found.code,
            "severity": found.severity.value, "severity_label": severity_label(found.severity, translate)}


# The stamp of the last error this process saved (see _stamp).
_last_stamp = dt.datetime.min


def _stamp() -> dt.datetime:
    """Now, and always after the last error this process saved: errors are listed in the order they were found
    (a job's gather errors say the cause, registry.not_discovered, before each address it tried), and rows saved
    in one flush often get one clock reading, which would leave their order to the database."""
    global _last_stamp
    _last_stamp = max(dt.datetime.utcnow(), _last_stamp + dt.timedelta(microseconds=1))
    return _last_stamp


def save_gather_error(found: Problem, job: Any) -> None:
    message = line(found, 1, site_translate())
    _save(HarvestGatherError(id=make_uuid(), message=message, job=job, created=_stamp()), found, 1)


def save_object_error(found: Problem, harvest_object: Any, stage: str, repeats: int = 1) -> None:
    message = line(found, repeats, site_translate())
    _save(HarvestObjectError(id=make_uuid(), message=message, object=harvest_object, stage=stage, created=_stamp()),
          found, repeats)


def _save(error: Any, found: Problem, repeats: int) -> None:
    """Added, not committed: the stage's guard (:mod:`stage_guard`) commits an object's errors at once."""
    finding = json.dumps(found.as_dict(), ensure_ascii=False, default=str)
    model.Session.add_all([error, HarvestFinding(error_id=error.id, code=found.code, finding=finding,
                                                 repeats=repeats)])
    log.info(error.message)


def localizer(job_id: str, translate: Translate,
              stored: Optional[Collection[str]] = None) -> Callable[[str], dict[str, str]]:
    """Stored text of one of the job's errors → the same finding in the language of ``translate`` (:func:`shown`;
    only its ``message`` for an error without a mirror).

    Within a job the stored text identifies the finding (it is rendered from code, params, location and
    repeats), so the texts ckanext-harvest's actions return are matched by it. ``stored`` narrows the lookup to
    the texts about to be shown (an error summary shows twenty of a job's errors).
    """
    gather = (
        model.Session.query(HarvestGatherError.message, HarvestFinding)
        .join(HarvestFinding, HarvestFinding.error_id == HarvestGatherError.id)
        .filter(HarvestGatherError.harvest_job_id == job_id)
    )
    objects = (
        model.Session.query(HarvestObjectError.message, HarvestFinding)
        .join(HarvestFinding, HarvestFinding.error_id == HarvestObjectError.id)
        .join(HarvestObject, HarvestObject.id == HarvestObjectError.harvest_object_id)
        .filter(HarvestObject.harvest_job_id == job_id)
    )
    if stored is not None:
        gather = gather.filter(HarvestGatherError.message.in_(list(stored)))
        objects = objects.filter(HarvestObjectError.message.in_(list(stored)))
    rendered: dict[str, dict[str, str]] = {}
    for text, mirror in [*gather, *objects]:
        found = from_dict(json.loads(mirror.finding))
        if found is not None:
            rendered[text] = shown(found, mirror.repeats, translate)
    return lambda text: rendered.get(text, {"message": text})


def _localize(errors: Iterable[dict[str, Any]], speak: Callable[[str], dict[str, str]]) -> None:
    for error in errors:
        error.update(speak(error["message"]))


def gather_messages(job_id: str) -> list[str]:
    """The texts of the job's gather errors in the order they were saved (ckanext-harvest lists the newest first,
    which put the probes of a registry not found before their cause)."""
    rows = (model.Session.query(HarvestGatherError.message)
            .filter(HarvestGatherError.harvest_job_id == job_id)
            .order_by(HarvestGatherError.created, HarvestGatherError.id))
    return [text for (text,) in rows]


def _in_saved_order(summary: list[dict[str, Any]], job_id: str) -> list[dict[str, Any]]:
    """An error summary by count as ckanext-harvest gives it, errors of one count in the order they were saved."""
    position = {text: index for index, text in reversed(list(enumerate(gather_messages(job_id))))}
    return sorted(summary, key=lambda error: (-error["error_count"], position.get(error["message"], len(position))))


def _localize_summaries(job: dict[str, Any]) -> None:
    if job.get("gather_error_summary"):
        job["gather_error_summary"] = _in_saved_order(job["gather_error_summary"], job["id"])
    summaries = [job.get("gather_error_summary") or [], job.get("object_error_summary") or []]
    shown = {error["message"] for summary in summaries for error in summary}
    if not shown:
        return
    speak = localizer(job["id"], reader_translate(), shown)
    for summary in summaries:
        _localize(summary, speak)


# Chained on ckanext-harvest's actions, which check access themselves: CKAN exempts an extension's actions
# from its auth audit, and a chained one keeps that only when it says so.
@tk.chained_action
@tk.side_effect_free
@auth_audit_exempt
def harvest_job_report(up: Any, context: dict, data_dict: dict) -> dict[str, Any]:
    report = up(context, data_dict)
    report["gather_errors"] = [{"message": text} for text in gather_messages(data_dict["id"])]
    speak = localizer(data_dict["id"], reader_translate())
    _localize(report["gather_errors"], speak)
    for found in report["object_errors"].values():
        _localize(found["errors"], speak)
    return report


@tk.chained_action
@tk.side_effect_free
@auth_audit_exempt
def harvest_job_show(up: Any, context: dict, data_dict: dict) -> dict[str, Any]:
    job = up(context, data_dict)
    _localize_summaries(job)
    return job


@tk.chained_action
@tk.side_effect_free
@auth_audit_exempt
def harvest_source_show_status(up: Any, context: dict, data_dict: dict) -> dict[str, Any]:
    status = up(context, data_dict)
    if status.get("last_job"):
        _localize_summaries(status["last_job"])
    return status


@tk.chained_action
@tk.side_effect_free
@auth_audit_exempt
def harvest_object_show(up: Any, context: dict, data_dict: dict) -> dict[str, Any]:
    harvest_object = up(context, data_dict)
    errors = harvest_object.get("errors") or []
    if errors:
        _localize(errors, localizer(harvest_object["job"], reader_translate(), {e["message"] for e in errors}))
    return harvest_object


def chained_actions() -> dict[str, Any]:
    return {
        "harvest_job_report": harvest_job_report,
        "harvest_job_show": harvest_job_show,
        "harvest_source_show_status": harvest_source_show_status,
        "harvest_object_show": harvest_object_show,
    }
