"""The background job of a site check, run by ``ckan jobs worker`` (CKAN's default queue).

It reads the site with :func:`mr.report.check_site` (the code behind ``ckan passport check``), writing its
progress into the check's row after each passport, and keeps what it read. Whatever goes wrong inside ends the
check as ``failed`` with a coded reason; the traceback goes to the worker's log, never to the reader.
"""
from __future__ import annotations

import json
import logging
from typing import Optional

import ckan.model as model

from ckanext.passport import settings
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.report import check_site

from . import site_check_problems as codes
from .site_check_model import FAILED, FINISHED, QUEUED, RUNNING, SiteCheck, now
from .site_report import stored

log = logging.getLogger(__name__)


def run(check_id: str) -> None:
    """Run the check ``check_id`` (queued by action ``passport_site_check``) to its end, finished or failed."""
    check = SiteCheck.get(check_id)
    if check is None or check.status != QUEUED:
        # Deleted, or already taken (a job retried by hand): the row says what became of it.
        return
    check.status, check.started = RUNNING, now()
    model.Session.commit()
    try:
        _check(check)
    except Exception as error:  # noqa: BLE001 (any failure ends the check; the reader sees its code)
        log.exception("Site check %s of %s failed", check_id, check.url)
        model.Session.rollback()
        _fail(check_id, type(error).__name__)


def _check(check: SiteCheck) -> None:
    def progress(done: int, total: int) -> None:
        check.done, check.total = done, total
        model.Session.commit()

    policy = settings.site_check_fetch_policy(check.allow_private_addresses)
    report = check_site(check.url, policy, settings.site_check_max_passports(), progress=progress)
    check.result = json.dumps(stored(report), ensure_ascii=False)
    check.done = check.total = len(report.passports)
    check.status, check.finished = FINISHED, now()
    model.Session.commit()


def _fail(check_id: str, error: str) -> None:
    check: Optional[SiteCheck] = SiteCheck.get(check_id)
    if check is None:
        return
    check.failure = json.dumps(problem(codes.FAILED, error=error).as_dict(), ensure_ascii=False)
    check.status, check.finished = FAILED, now()
    model.Session.commit()
