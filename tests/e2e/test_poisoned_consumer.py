"""A poisoned registry entry on a portal's harvest machinery: the fetch consumer process survives it, the entry is
an errored object with a coded error, fetched once, and every other entry of the job is imported.

The consumers are separate processes (support/harvest_processes.py); the site is support/poisoned_site.py: a link
no URL parser reads and a passport the search index refuses, both of which used to end the fetch consumer (and,
redelivered, end the next one).
"""
from __future__ import annotations

import time

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestObject, HarvestObjectError
from tests.support.harvest_processes import HarvestProcesses, harvest_machinery  # noqa: F401 (a fixture)
from tests.support.poisoned_site import BAD_LINK, GOOD, HUGE, poisoned_site

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def objects_once_finished(job_id: str, seconds: float) -> list[HarvestObject]:
    """The job's objects once the job is finished and each has its report status, or as they stand after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        model.Session.remove()  # read what the consumers committed, not this session's cached rows
        finished = call_action("harvest_job_show", id=job_id)["status"] == "Finished"
        objects = HarvestObject.filter(harvest_job_id=job_id).all()
        if (finished and all(o.report_status for o in objects)) or time.monotonic() > deadline:
            return objects
        time.sleep(1)


def test_poisoned_entries_leave_the_fetch_consumer_running_and_every_other_entry_imported(
    tmp_path, serve_site, harvest_source, harvest_machinery: HarvestProcesses
):
    poisoned_site(tmp_path)
    site = serve_site(tmp_path)
    source = harvest_source(f"{site.url}/opendata/list.json", {"allow_private_addresses": True})
    job = call_action("harvest_job_create", source_id=source["id"], run=True)

    objects = {o.guid: o for o in objects_once_finished(job["id"], 120)}

    assert harvest_machinery.groups["fetch-consumer"].poll() is None, harvest_machinery.log_tails()
    # The bad link is an object when the registry reader lets it through, else that reader's gather error.
    poisoned = [guid for guid in (BAD_LINK.lower(), HUGE.lower()) if guid in objects]
    assert {o.guid: o.state for o in objects.values()} == {
        **{guid.lower(): "COMPLETE" for guid in GOOD},
        **{guid: "ERROR" for guid in poisoned},
    }, harvest_machinery.log_tails()
    assert HUGE.lower() in poisoned
    for guid in poisoned:
        # Handled once: the consumer never died on it (above), and a second delivery (Redis's periodic re-send
        # can repeat an object the gather had yet to queue) leaves it as it was, so each error is there once.
        messages = [e.message for e in HarvestObjectError.filter(harvest_object_id=objects[guid].id)]
        assert messages and all(message.startswith("[") for message in messages)
        assert len(messages) == len(set(messages)), messages
