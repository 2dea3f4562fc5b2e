"""``/opendata/<identifier>/`` and the permanent links resolve one record, whatever the index's ranking.

The catalog refuses a second claim on an identifier (tests/harvester/test_identity.py), but two records made
before that rule may still hold one: the oldest answers, then the smaller id, however often either is saved.
"""
from __future__ import annotations

import datetime as dt
import json

import pytest
from ckan import model
from ckan.lib import search
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.publish_shapes import PUBLISH_CONFIG, harvested_shape

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

IDENTIFIER = "7712345678-showrooms"
VERSION_LINK = f"/opendata/{IDENTIFIER}/data-20130401T0000-structure-20130401T0000.csv"


def _copy(publish, organization) -> dict:
    """A second record of the same shape and files elsewhere, given the first one's identifier directly in
    the database, as a record made before identifiers were unique would hold it."""
    resources = [
        dict(r, url=r["url"].replace("/showrooms/", "/showrooms-copy/")) for r in harvested_shape(organization)["resources"]
    ]
    copy = publish("harvested", name="showrooms-copy", title="Автосалоны (копия)", mr_identifier="7712345678-copy",
                   resources=resources)
    model.Package.get(copy["id"]).extras["mr_identifier"] = IDENTIFIER
    model.repo.commit()
    search.rebuild(copy["id"])
    return copy


def _served_title(app) -> str:
    return json.loads(app.get(f"/opendata/{IDENTIFIER}/meta.json").body)["title"]


def test_two_records_under_one_identifier_resolve_to_the_older_however_saved(web, publish, publisher_organization):
    older = publish("harvested")
    copy = _copy(publish, publisher_organization)
    # The newer record is saved last: CKAN's own order (most recently modified first) would answer it.
    call_action("package_patch", context={"user": factories.Sysadmin()["name"]}, id=copy["id"], notes="Обновлено.")
    assert _served_title(web) == older["title"]
    link = web.get(VERSION_LINK, follow_redirects=False)
    assert link.headers["Location"] == "http://files.example.com/showrooms/1.csv"


def test_records_created_at_the_same_moment_resolve_to_the_smaller_id(web, publish, publisher_organization):
    smaller, larger = sorted((publish("harvested"), _copy(publish, publisher_organization)), key=lambda d: d["id"])
    created = model.Package.get(smaller["id"]).metadata_created
    for dataset, modified in ((smaller, created), (larger, created + dt.timedelta(seconds=1))):
        # The larger id is the more recently modified, so CKAN's own order would answer it.
        model.Package.get(dataset["id"]).metadata_created = created
        model.Package.get(dataset["id"]).metadata_modified = modified
    model.repo.commit()
    for dataset in (smaller, larger):
        search.rebuild(dataset["id"])
    assert _served_title(web) == smaller["title"]
