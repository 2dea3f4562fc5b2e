"""The background job of a site check, run by ``ckan jobs worker passport_site_check``: a queue of its own.

A check may run for half an hour. On CKAN's default queue a few users' checks would hold every worker while link
checks, openness checks and CKAN's own jobs wait; on their own queue they take only the workers started for it (a
fixed number: as many checks run at once), and the action refuses a check while ``site_check_max_queued`` wait or
run.

It reads the site with :func:`mr.report.check_site` (the code behind ``ckan passport check``), writing its
progress into the check's row after each passport, and keeps what it read (``site_check.report.kept``: the bounded
summary in the check's row, each passport read in a row of its own). Whatever goes wrong inside ends the
check as ``failed`` with a coded reason; the traceback goes to the worker's log, never to the reader.
"""
from __future__ import annotations

import datetime
import json
import logging
from typing import Any, Optional

import ckan.model as model
from ckan.lib import jobs

from ckanext.passport import settings
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.report import check_site

from .hosts import CheckHosts
from .model import FAILED, FINISHED, QUEUED, RUNNING, SiteCheck, SiteCheckPassport, now
from .report import kept

log = logging.getLogger(__name__)

# The queue the site checks' workers listen on (CKAN prefixes it with the site id).
QUEUE = "passport_site_check"

# A running check is taken as stopped this long after its job's timeout: the worker has given up on it by then.
TIMEOUT_GRACE = datetime.timedelta(seconds=60)


def stopped(check: SiteCheck, timeout: int, at: datetime.datetime) -> bool:
    """Whether ``check`` is still marked running well after its job's timeout: the worker stopped it."""
    return (check.status == RUNNING and check.started is not None
            and at - check.started > datetime.timedelta(seconds=timeout) + TIMEOUT_GRACE)


def timed_out(check: SiteCheck, timeout: int) -> tuple[dict[str, Any], datetime.datetime]:
    """The failure (a finding as JSON) and the end of a check its worker stopped."""
    assert check.started is not None
    return problem("site_check.timed_out", seconds=timeout).as_dict(), check.started + datetime.timedelta(seconds=timeout)


def waiting() -> int:
    """Checks queued or running now, as the queue counts them: a job lost with its worker leaves the count when RQ
    ends it, not a row kept ``queued`` for ever."""
    queue = jobs.get_queue(QUEUE)
    return queue.count + queue.started_job_registry.count


def _fail_stopped() -> None:
    """Write down as failed every check a worker stopped; ``passport_site_check_show`` only says so."""
    timeout, at = settings.site_check_timeout(), now()
    for check in model.Session.query(SiteCheck).filter(SiteCheck.status == RUNNING):
        if stopped(check, timeout, at):
            failure, check.finished = timed_out(check, timeout)
            check.failure, check.status = json.dumps(failure, ensure_ascii=False), FAILED
    model.Session.commit()


def run(check_id: str) -> None:
    """Run the check ``check_id`` (queued by action ``passport_site_check``) to its end, finished or failed."""
    _fail_stopped()
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
    report = check_site(check.url, policy, settings.site_check_max_passports(), progress=progress,
                        limits=settings.site_read_limits(), passport_budget=settings.site_check_passport_budget(),
                        admit=CheckHosts(check.host).admit)
    keeping = kept(report)
    check.result = json.dumps(keeping.summary, ensure_ascii=False)
    for number, passport in keeping.passports.items():
        model.Session.add(SiteCheckPassport(check_id=check.id, number=number, url=passport.url,
                                            passport=passport.passport))
    check.done = check.total = len(report.passports)
    check.status, check.finished = FINISHED, now()
    model.Session.commit()


def _fail(check_id: str, error: str) -> None:
    check: Optional[SiteCheck] = SiteCheck.get(check_id)
    if check is None:
        return
    check.failure = json.dumps(problem("site_check.failed", error=error).as_dict(), ensure_ascii=False)
    check.status, check.finished = FAILED, now()
    model.Session.commit()
