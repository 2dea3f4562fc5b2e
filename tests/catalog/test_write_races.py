"""Writers at the same instant: an update never undoes a transition, and one MR identifier goes to one record.

Each test runs two writers in threads of their own (concurrency.overlapping): both are on their way, past what
they read, before either commits.
"""
from __future__ import annotations

import pytest
from ckan.logic import NotAuthorized
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from tests.support.concurrency import ROW_LOCK, Writer, overlapping
from tests.support.workflow import CONFIG, People, act, people, record_in_state  # noqa: F401

from ckanext.passport.catalog.record import identity

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]

# package_create adds the record to its organization: the member row's foreign key waits for the organization's
# row, after the record was validated and before it commits (params: id of the organization).
ORGANIZATION_LOCK = 'SELECT id FROM "group" WHERE id = :id FOR UPDATE'

IDENTIFIER = "00025593-obyvatelstvo"
CORRECTED_NOTES = "Počet obyvatel obcí, opravený popis."


def harvest_context() -> dict:
    """The context a harvest import writes with (harvester.py): the site user, the harvest's flag."""
    site_user = call_action("get_site_user")["name"]
    return {"user": site_user, "ignore_auth": True, "passport_harvest": True}


# Each update sends the whole record as its writer read it, published, as the dataset form and a harvest import
# do (package_patch reads the record under the row lock: CKAN's own for_update).


def curators_save(people: People, record: dict) -> Writer:
    return lambda: act(people.curator, "package_update", **{**record, "notes": CORRECTED_NOTES})


def harvest_import(people: People, record: dict) -> Writer:
    context = harvest_context()
    return lambda: call_action("package_update", context=context, **{**record, "notes": CORRECTED_NOTES})


@pytest.mark.parametrize("update", [curators_save, harvest_import], ids=["curators_save", "harvest_import"])
def test_an_update_beside_an_invalidation_leaves_the_record_invalidated_and_not_public(web, people, update):
    record = record_in_state(people, "published")

    def invalidate() -> None:
        act(people.editor, "passport_workflow_transition", id=record["id"], to="invalidated")

    outcomes = overlapping(web, ROW_LOCK, {"id": record["id"]}, [invalidate, update(people, record)])

    assert outcomes == ["done", "done"]
    stored = call_action("package_show", id=record["id"])
    assert (stored["editorial_state"], stored["notes"]) == ("invalidated", CORRECTED_NOTES)
    with pytest.raises(NotAuthorized):
        act(None, "package_show", id=record["id"])


def claim(people: People, name: str, context: dict) -> Writer:
    fields = complete_record(name=name, mr_identifier=IDENTIFIER, owner_org=people.publisher["id"])
    return lambda: call_action("package_create", context=context, **fields)


@pytest.mark.parametrize("second", ["curator", "harvest"])
def test_of_two_records_claiming_one_identifier_at_once_only_the_first_gets_it(web, people, second):
    contexts = {"curator": {"user": people.curator["name"], "ignore_auth": False}, "harvest": harvest_context()}
    writers = [claim(people, "first-claim", contexts["curator"]), claim(people, "second-claim", contexts[second])]

    outcomes = overlapping(web, ORGANIZATION_LOCK, {"id": people.publisher["id"]}, writers)

    assert outcomes == [
        "done",
        f"invalid: {{'mr_identifier': ['The MR identifier {IDENTIFIER} is already used by the record first-claim']}}",
    ]
    assert [holder.name for holder in identity.holders(IDENTIFIER)] == ["first-claim"]
