"""Actions of a harvest source's conformance report and of a harvested record's conformance.

``passport_conformance_report`` answers whoever may see the source (``harvest_source_show``: a private source's
organization members, sysadmins; anyone for a public one). ``passport_dataset_conformance`` answers the record's
curators (``package_update``) and the catalog's editors, who review records: a record's findings are work for
them, not for its readers. Both check access themselves, so every caller (API, pages, helpers) is held to it.
"""
from __future__ import annotations

from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestObjectExtra, HarvestSource

from ckanext.passport import source_types
from ckanext.passport.catalog.workflow import states
from ckanext.passport.harvest import stored as stored_object
from ckanext.passport.language import reader_translate

from ..shape import is_conformant, passport_entry
from . import fixed as harvest_fixed
from . import report as harvest_report

def source_of(id_or_name: str) -> tuple[HarvestSource, model.Package]:
    """The passport harvest source named or identified by ``id_or_name``, and its dataset (name, title…).

    Another source type's objects hold no passports (an ``lkod`` source's hold DCAT documents): no report.
    """
    package = model.Package.get(id_or_name or "")
    source = HarvestSource.get(package.id) if package is not None and package.type == "harvest" else None
    if source is None or package.state == "deleted":
        raise tk.ObjectNotFound(tk._("Harvest source not found"))
    if source.type != source_types.PASSPORT:
        raise tk.ObjectNotFound(tk._("Only MR passport sources have a conformance report"))
    return source, package


@tk.side_effect_free
def passport_conformance_report(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """The MR conformance report of a harvest source's job, in the request's language: all its passports, or the
    page of them a filter, an order, an offset and a limit select (the summary stays the whole job's).

    :param id: the harvest source's id or name
    :param job_id: one of the source's jobs (optional; default its last finished job)
    :param code: only the passports with a finding of this code, each with those findings only (optional)
    :param severity: only the passports with a finding of this severity (``error``, ``warning`` or ``info``), each
        with those findings only (optional)
    :param sort: ``score`` (lowest first, the passports not read before all), ``-score`` (highest first) or
        ``identifier`` (optional; default the registry's order)
    :param offset: how many of the passports selected to skip (optional, default 0)
    :param limit: at most this many passports (optional; default all of them; 0 for the summary only)
    :returns: ``{"source_id", "job_id", "finished", "problems", "passports": [{"identifier", "dataset_id",
        "url", "form", "score", "findings": [{"code", "severity", "message", "where", ...}], "fixed",
        "corrections", "refused"}], "summary": {"passports", "read", "refused", "mean_score", "conformant",
        "by_code"}, "count", "scores"}``; a source with no finished job has ``job_id`` null and no passports. An
        entry read but refused at import has ``refused`` true and no score; ``read`` counts the passports scored,
        the set ``mean_score`` and ``conformant`` are over. ``count`` is how many passports ``code`` and
        ``severity`` select (before ``offset`` and ``limit``); ``scores`` the score of each passport of the job
        but those refused (null: not read), in the registry's order.
    """
    if not data_dict.get("id"):
        raise tk.ValidationError({"id": [tk._("Missing value")]})
    source, package = source_of(data_dict["id"])
    tk.check_access("passport_conformance_report", context, {"id": source.id})
    selection = _selection(data_dict, context)
    job = job_of(source, data_dict.get("job_id"))
    return harvest_report.report(job, source.id, reader_translate(), harvest_fixed.fixer(package.name), selection)


def _selection(data_dict: dict[str, Any], context: dict) -> harvest_report.Selection:
    """The report's filter, order and page, validated as CKAN's list actions validate theirs."""
    optional, number = tk.get_validator("ignore_missing"), tk.get_validator("natural_number_validator")
    schema = {
        "code": [optional, tk.get_validator("unicode_safe")],
        "severity": [optional, tk.get_validator("one_of")(list(harvest_report.SEVERITIES))],
        "sort": [optional, tk.get_validator("one_of")(list(harvest_report.SORTS))],
        "offset": [optional, number],
        "limit": [optional, number],
    }
    # An empty query arg is one not given (a limit of 0 is a limit: the summary only).
    wanted = {key: data_dict[key] for key in schema if data_dict.get(key) not in (None, "")}
    valid, errors = tk.navl_validate(wanted, schema, context)
    if errors:
        raise tk.ValidationError(errors)
    return harvest_report.Selection(code=valid.get("code", ""), severity=valid.get("severity", ""),
                                    sort=valid.get("sort", ""), offset=valid.get("offset", 0),
                                    limit=valid.get("limit"))


@tk.side_effect_free
def passport_conformance_history(context: dict, data_dict: dict[str, Any]) -> list[dict[str, Any]]:
    """The mean score of each of the source's last finished jobs, oldest first (the tab's line chart).

    :param id: the harvest source's id or name
    :returns: ``[{"job_id", "finished", "passports", "mean_score"}]``
    """
    if not data_dict.get("id"):
        raise tk.ValidationError({"id": [tk._("Missing value")]})
    source, _ = source_of(data_dict["id"])
    tk.check_access("passport_conformance_report", context, {"id": source.id})
    return harvest_report.score_history(source.id)


@tk.side_effect_free
def passport_dataset_conformance(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """A harvested record's passport as its latest harvest found it: score, findings, fixed files.

    :param id: the dataset's id or name
    :returns: the report's passport entry (``identifier``, ``score``, ``findings``, ``fixed``, ``corrections``…)
        with ``conformant``, ``source_id``, ``source_name``, ``source_title``, ``job_id`` and
        ``harvest_object_id``; NotFound for a record no passport source harvested
    """
    package = model.Package.get(data_dict.get("id") or "")
    if package is None or package.state == "deleted":
        raise tk.ObjectNotFound(tk._("Dataset not found"))
    tk.check_access("passport_dataset_conformance", context, {"id": package.id})
    harvest_object = latest_object(package.id)
    if harvest_object is None:
        raise tk.ObjectNotFound(tk._("The dataset was not harvested from an MR passport"))
    source = model.Package.get(harvest_object.harvest_source_id)
    stored = harvest_report.object_passport(harvest_object)
    entry = passport_entry(harvest_report.conformance(stored, harvest_fixed.fixer(source.name)), reader_translate())
    return {**entry, "conformant": is_conformant(entry), "source_id": source.id, "source_name": source.name,
            "source_title": source.title, "job_id": harvest_object.harvest_job_id,
            "harvest_object_id": harvest_object.id}


def latest_object(package_id: str) -> Optional[HarvestObject]:
    """The latest processed object of the record's registry entry in the passport source that last wrote it.

    Not just the current object: when the latest harvest could not read the passport, the record keeps its
    current object, yet its curators must learn that the passport is now unreadable.
    """
    linked = (
        model.Session.query(HarvestObject)
        .join(HarvestSource, HarvestSource.id == HarvestObject.harvest_source_id)
        .filter(HarvestObject.package_id == package_id, HarvestSource.type == source_types.PASSPORT)
        .order_by(HarvestObject.current.desc(), HarvestObject.gathered.desc())
        .first()
    )
    if linked is None:
        return None
    deleting = (
        model.Session.query(HarvestObjectExtra.harvest_object_id)
        .filter(HarvestObjectExtra.key == stored_object.STATUS, HarvestObjectExtra.value == stored_object.DELETE)
    )
    return (
        model.Session.query(HarvestObject)
        .filter(HarvestObject.harvest_source_id == linked.harvest_source_id, HarvestObject.guid == linked.guid)
        .filter(HarvestObject.state.in_(("COMPLETE", "ERROR")))
        .filter(HarvestObject.id.notin_(deleting))
        .order_by(HarvestObject.gathered.desc())
        .first()
    ) or linked


def job_of(source: HarvestSource, job_id: Optional[str]) -> Optional[HarvestJob]:
    """The source's job ``job_id`` (NotFound for another source's), else its last finished job (``None``: none)."""
    if not job_id:
        return harvest_report.last_finished_job(source.id)
    job = HarvestJob.get(job_id)
    if job is None or job.source_id != source.id:
        raise tk.ObjectNotFound(tk._("Harvest job not found"))
    return job


# -- authorization -------------------------------------------------------------------------------------------


@tk.auth_allow_anonymous_access
def passport_conformance_report_auth(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """Whoever may see the source may read its report (ckanext-harvest's rule: package_show of the source)."""
    try:
        tk.check_access("harvest_source_show", dict(context), {"id": data_dict.get("id")})
    except tk.NotAuthorized:
        return {"success": False, "msg": tk._("Not authorized to see this harvest source")}
    return {"success": True}


def passport_dataset_conformance_auth(context: dict, data_dict: dict[str, Any]) -> dict[str, Any]:
    """The record's curators (who may update it) and the catalog's editors who may read it."""
    user = context.get("user")
    try:
        tk.check_access("package_update", dict(context), {"id": data_dict.get("id")})
        return {"success": True}
    except tk.NotAuthorized:
        pass
    if states.is_editor(user):
        try:
            tk.check_access("package_show", dict(context), {"id": data_dict.get("id")})
            return {"success": True}
        except tk.NotAuthorized:
            pass
    return {"success": False, "msg": tk._("Only the record's curators and editors may see its conformance")}


def actions() -> dict[str, Any]:
    return {
        "passport_conformance_report": passport_conformance_report,
        "passport_conformance_history": passport_conformance_history,
        "passport_dataset_conformance": passport_dataset_conformance,
    }


def auth_functions() -> dict[str, Any]:
    return {
        "passport_conformance_report": passport_conformance_report_auth,
        "passport_conformance_history": passport_conformance_report_auth,
        "passport_dataset_conformance": passport_dataset_conformance_auth,
    }
