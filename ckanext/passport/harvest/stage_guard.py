"""A harvest stage never kills its consumer: what nobody foresaw becomes the object's (or the job's) coded error.

ckanext-harvest runs each stage inside its consumer's loop. An exception out of ``fetch_stage`` or
``import_stage`` ends the fetch consumer, and the object is delivered again to fail again; one out of
``gather_stage`` ends the gather consumer and fails the whole source on every run. So each stage runs its work
inside these guards: the traceback goes to the log for operators, the stage's transaction is rolled back, and a
``harvest.*`` finding naming the exception's class is stored on the object or the job; the stage then returns
as it does for any refused object (ckanext-harvest marks it ERROR).

The guards also commit what a stage stored: :mod:`findings` adds its errors without committing, so an
object with a thousand findings costs one commit, not a thousand.

An object is handled once. ckanext-harvest's Redis queue delivers at least once: each ``harvester run`` sends
again every object still WAITING that is not in the fetch queue, which takes in those a gather has committed and
not yet sent, so an object can reach a consumer twice. Handled again, it would be fetched again, find itself as
the record's current object, and turn its report from "added" to "not modified".
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable, Iterator, TypeVar, Union

import ckan.model as model
from ckanext.harvest.model import HarvestObject

from ckanext.passport.harvest.findings import save_gather_error, save_object_error
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

log = logging.getLogger(__name__)

T = TypeVar("T")

# What a stage answers for an object handled to its end before: ckanext-harvest then gives it the same state and
# report again ("added", "updated" and "deleted" it derives from the object itself, the others from the answer).
_HANDLED_BEFORE: dict[str, Union[str, bool]] = {"not modified": "unchanged", "errored": False}


def object_stage(harvest_object: Any, stage: str, work: Callable[[], T], again: bool = False) -> Union[T, bool, str]:
    """``work()``'s outcome with what it stored committed; False, with ``harvest.unexpected``, when it raises;
    for an object delivered again after it was handled (its report is made), the answer that leaves it as it was,
    unless it is run ``again`` on purpose (``check-index --repair`` importing a current object again).

    The commit is inside the guard: text the database refuses fails here, not in ckanext-harvest's save of the
    object after the stage.
    """
    if harvest_object.report_status is not None and not again:
        log.info("Harvest object %s was delivered again after it was handled (%s): left as it is",
                 harvest_object.id, harvest_object.report_status)
        return _HANDLED_BEFORE.get(harvest_object.report_status, True)
    try:
        outcome = work()
        model.Session.commit()
        return outcome
    except Exception as error:  # noqa: BLE001 (the point: nothing a stage raises reaches the consumer)
        failure = type(error).__name__
        model.Session.rollback()  # first: a failed flush leaves the session unusable, the object's id included
        log.exception("Harvest object %s: unexpected %s in the %s stage", harvest_object.id, failure, stage)
    save_object_error(problem("harvest.unexpected", error=failure), harvest_object, stage)
    model.Session.commit()
    return False


def gather_stage(job: Any, work: Callable[[], list[str]]) -> list[str]:
    """The object ids ``work()`` gathered; none, with ``harvest.gather_unexpected``, when it raises.

    Objects the failed gather committed already are removed, as ckanext-harvest removes them: nothing would
    ever fetch them, and the job would wait for them.
    """
    try:
        ids = work()
        model.Session.commit()
        return ids
    except Exception as error:  # noqa: BLE001 (the point: nothing gather raises reaches the consumer)
        failure = type(error).__name__
        model.Session.rollback()
        log.exception("Harvest job %s: unexpected %s in gather", job.id, failure)
    # One by one, as ckanext-harvest does: the ORM deletes their extras with them (the tables have no cascade).
    for harvest_object in model.Session.query(HarvestObject).filter(HarvestObject.harvest_job_id == job.id):
        model.Session.delete(harvest_object)
    save_gather_error(problem("harvest.gather_unexpected", error=failure), job)
    model.Session.commit()
    return []


def read_items(items: Iterable[T], url: str) -> Iterator[Union[T, Problem]]:
    """A registry's items as its reader yields them; an exception the reader raises ends them with
    ``harvest.registry_unexpected`` (an error: the entries after it are unknown, so nothing is deleted)."""
    try:
        yield from items
    except Exception as error:  # noqa: BLE001 (what was read before the failure is still gathered)
        log.exception("Registry %s: unexpected %s while reading it", url, type(error).__name__)
        yield problem("harvest.registry_unexpected", url=url or None, error=type(error).__name__)
