"""An object's stored errors cost one database commit, however many there are: a passport whose thousand structure
files are all missing is a thousand ``fetch.not_found`` errors, written by its fetch stage in one commit.
"""
from __future__ import annotations

import pytest
from ckan import model
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestObjectError, HarvestSource
from tests.support.fault_passports import one_passport_site, valid_passport
from sqlalchemy import event
from sqlalchemy.orm import Session

from ckanext.passport.harvest.mr_harvester import PassportHarvester

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

IDENTIFIER = "7701234560-manystructures"
STRUCTURES = 1000


@pytest.fixture
def missing_structures_site(tmp_path, serve_site):
    """A passport listing STRUCTURES structure files, none of which the site has."""
    passport = valid_passport(IDENTIFIER, "Тысяча структур")
    passport["structure"] = [{"source": f"/opendata/{IDENTIFIER}/structure-{n}.csv", "created": "20240101T0000"}
                             for n in range(STRUCTURES)]
    one_passport_site(tmp_path, passport)
    return serve_site(tmp_path)


@pytest.fixture
def commits():
    """How many commits the process's database sessions make while the test runs."""
    counted = []

    def count(session: Session) -> None:
        counted.append(session)

    event.listen(Session, "after_commit", count)
    yield counted
    event.remove(Session, "after_commit", count)


def test_a_thousand_errors_of_one_object_are_stored_in_one_commit(missing_structures_site, harvest_source, commits):
    config = {"allow_private_addresses": True, "fetch_structures": True}
    source = harvest_source(f"{missing_structures_site.url}/opendata/list.csv", config)
    job = HarvestJob(source=HarvestSource.get(source["id"]))
    job.save()
    harvester = PassportHarvester()
    [object_id] = harvester.gather_stage(job)
    harvest_object = HarvestObject.get(object_id)
    commits.clear()

    assert harvester.fetch_stage(harvest_object) is True

    assert len(commits) == 1
    model.Session.remove()
    errors = model.Session.query(HarvestObjectError).filter_by(harvest_object_id=object_id).all()
    assert len(errors) == STRUCTURES
    assert {error.message.split("]", 1)[0] for error in errors} == {"[fetch.not_found"}
