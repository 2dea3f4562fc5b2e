"""A record's link check: the CKAN background job queued after each publication, and the check itself (the job's
and ``ckan passport lkod check-links``'s).

The job is queued whenever a record the LKOD lists is written: when it becomes published (the workflow's transition,
or a trusted creation straight into ``published``) and when it is updated, from the package hooks of plugin
``passport_lkod``;
those run before the write commits, so the job goes to the queue when the session commits (never for a write
rolled back), and the worker, another process, reads the record as written. Each link is asked once per check (a URL the record holds twice is fetched once), all within
the record's budget; what the budget does not reach is ``links.not_checked``.
"""
from __future__ import annotations

import logging
from typing import Any, Mapping, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from sqlalchemy import event

from ckanext.passport import settings
from ckanext.passport.lkod import eligibility
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.publish import search

from . import model as link_model
from . import probe as probing
from . import targets

log = logging.getLogger(__name__)

# Keys of ``Session.info``: the records whose checks wait for the session's commit, and whether it is listened to.
PENDING = "passport_link_checks_pending"
LISTENING = "passport_link_checks_listening"


def wanted(pkg_dict: Mapping[str, Any]) -> bool:
    """Whether a record just written gets a link check: an active record of the catalog type that the LKOD lists
    (published, public, nothing keeping it out). A harvested MR record (Russian, not in the LKOD) queues none, so a
    harvest of thousands of passports does not queue thousands of checks."""
    return (pkg_dict.get("type", search.PUBLISHED_TYPE) == search.PUBLISHED_TYPE
            and pkg_dict.get("state", "active") == "active"
            and not eligibility.reasons(pkg_dict))


def after_write(pkg_dict: Mapping[str, Any]) -> None:
    """The package hooks' rule: queue the record's check when it is wanted and the site checks on publication.

    The hooks run before the write commits, so the check is queued when the session commits (and forgotten if it
    rolls back): the worker, another process, must find the record as written.
    """
    if settings.link_check_on_publish() and pkg_dict.get("id") and wanted(pkg_dict):
        _after_commit(pkg_dict["id"])


def _after_commit(package_id: str) -> None:
    session = model.Session()
    pending: set[str] = session.info.setdefault(PENDING, set())
    pending.add(package_id)
    if not session.info.get(LISTENING):
        session.info[LISTENING] = True
        event.listen(session, "after_commit", _enqueue_pending)
        event.listen(session, "after_soft_rollback", _forget_pending)


def _enqueue_pending(session: Any) -> None:
    for package_id in sorted(session.info.pop(PENDING, set())):
        enqueue(package_id)


def _forget_pending(session: Any, previous_transaction: Any) -> None:
    session.info.pop(PENDING, None)


def enqueue(package_id: str) -> None:
    """Queue the check of one record on CKAN's default queue; a queue that cannot be reached loses the check (the
    record is written all the same; ``check-links`` catches up), never the write."""
    try:
        tk.enqueue_job(run, [package_id], title=f"passport link check {package_id}")
    except Exception:  # noqa: BLE001 (Redis down must not refuse a curator's save)
        log.exception("The link check of %s could not be queued", package_id)


def run(package_id: str) -> None:
    """The job: check the record's links and keep what was found; a record gone by now is left alone."""
    try:
        check(package_id)
    except Exception:  # noqa: BLE001 (logged with its traceback for the worker's log; the rows stay as they were)
        log.exception("The link check of %s failed", package_id)
        model.Session.rollback()


def check(package_id: str) -> Optional[list[link_model.LinkCheck]]:
    """Check every link of the record ``package_id`` now and replace its kept rows; ``None`` for no such record."""
    package = model.Package.get(package_id)
    if package is None or package.state != "active":
        return None
    dataset = tk.get_action("package_show")({"ignore_auth": True, "use_cache": False}, {"id": package.id})
    policy = settings.link_check_fetch_policy()
    seconds = settings.link_check_budget()
    budget = Deadline.after(seconds)
    found: dict[str, probing.Outcome] = {}
    rows = []
    for link in targets.links_of(dataset):
        if link.url not in found:
            found[link.url] = probing.not_checked(seconds) if budget.expired else probing.probe(link.url, policy, budget)
        outcome = found[link.url]
        rows.append({"resource_id": link.resource_id, "field": link.field, "url": link.url,
                     "status": outcome.status, "http_status": outcome.http_status, "finding": outcome.finding,
                     "checked_at": link_model.now()})
    link_model.replace(package.id, rows)
    return link_model.of_record(package.id)
