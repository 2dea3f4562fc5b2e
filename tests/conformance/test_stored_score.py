"""The Conformance tab reads which objects read a passport, and their scores, from the stored object's score extra
(harvest.stored.SCORE), never from its JSON text; objects stored before that extra existed get it from the passport
plugin's migration, and read the same afterwards."""
from __future__ import annotations

import importlib
import shutil

import pytest
from ckan import model
from ckan.tests.helpers import call_action
from tests.support.demo_site import DEMO_SITE, IDENTIFIERS
from sqlalchemy import text

from ckanext.passport.harvest import stored

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}
MIGRATION = importlib.import_module(
    "ckanext.passport.migration.passport.versions.c4d8e2f1a6b9_harvest_object_conformance_score")


@pytest.fixture
def harvested_twice(tmp_path, serve_site, harvest_source, run_harvest):
    """The demo site harvested twice (the second job finds every passport unchanged), and the report of each."""
    root = tmp_path / "site"
    shutil.copytree(DEMO_SITE, root)
    source = harvest_source(f"{serve_site(root).url}/opendata/list.csv", ALLOW, name="stored-score")
    jobs = [run_harvest(source)[1] for _ in range(2)]
    return source, jobs


def _scores(source: dict, job: dict) -> dict[str, int]:
    report = call_action("passport_conformance_report", id=source["name"], job_id=job["id"])
    return {entry["identifier"]: entry["score"] for entry in report["passports"]}


def _drop_score_extras() -> None:
    model.Session.execute(text("DELETE FROM harvest_object_extra WHERE key = :key"), {"key": stored.SCORE})
    model.Session.commit()


def test_an_unchanged_passport_is_reported_with_the_score_extra_of_the_object_that_read_it(harvested_twice):
    source, (first, second) = harvested_twice
    assert set(_scores(source, first)) == IDENTIFIERS
    assert _scores(source, second) == _scores(source, first)

    _drop_score_extras()

    assert set(_scores(source, second).values()) == {None}
    assert {row["mean_score"] for row in call_action("passport_conformance_history", id=source["name"])} == {None}


def test_the_migration_gives_objects_stored_before_it_their_scores_back(harvested_twice):
    source, jobs = harvested_twice
    before = [_scores(source, job) for job in jobs]
    history = call_action("passport_conformance_history", id=source["name"])
    _drop_score_extras()

    model.Session.execute(text(MIGRATION.BACKFILL))
    model.Session.commit()

    assert [_scores(source, job) for job in jobs] == before
    assert call_action("passport_conformance_history", id=source["name"]) == history


def test_the_migration_adds_no_second_score_to_an_object_that_has_one(harvested_twice):
    count = text("SELECT count(*) FROM harvest_object_extra WHERE key = :key")
    scored = model.Session.execute(count, {"key": stored.SCORE}).scalar()

    model.Session.execute(text(MIGRATION.BACKFILL))
    model.Session.commit()

    assert model.Session.execute(count, {"key": stored.SCORE}).scalar() == scored > 0
