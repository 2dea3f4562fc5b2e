"""The registry as datasets are added to a catalog that starts empty: its ETag changes, it pages through search."""
from __future__ import annotations

import csv
import io

import pytest
from tests.support.publish_shapes import PUBLISH_CONFIG

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]


def test_registry_etag_changes_when_a_dataset_is_added(web, publish):
    publish("harvested")
    before = web.get("/opendata/list.csv").headers["ETag"]
    publish("structures")
    response = web.get("/opendata/list.csv", headers={"If-None-Match": before})
    assert response.status_code == 200
    assert "7712345678-budget" in response.data.decode("utf-8")


def test_registry_pages_through_more_than_one_search_page(web, publish, monkeypatch):
    from ckanext.passport.publish import search

    monkeypatch.setattr(search, "PAGE_ROWS", 2)
    for n in range(5):
        publish("structures", name=f"budget-{n}", mr_identifier=f"7712345678-budget{n}")
    rows = list(csv.reader(io.StringIO(web.get("/opendata/list.csv").data.decode("utf-8"), newline="")))
    assert [row[0] for row in rows[2:]] == [f"7712345678-budget{n}" for n in range(5)]
