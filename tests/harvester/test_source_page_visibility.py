"""A public harvest source is not a catalog record: the review scope never hides it from visitors."""
from __future__ import annotations

import pytest
from ckan.tests.helpers import call_action

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def test_a_visitor_reads_a_public_harvest_source_page(web, harvest_source):
    harvest_source("http://127.0.0.1:9/opendata/", name="public-mr-site", title="Public MR site")
    response = web.get("/harvest/public-mr-site")
    assert response.status_code == 200
    assert "Public MR site" in response.body


def test_a_visitor_reads_a_public_harvest_sources_status(harvest_source):
    source = harvest_source("http://127.0.0.1:9/opendata/", name="public-mr-status")
    status = call_action("harvest_source_show_status", context={"user": "", "ignore_auth": False}, id=source["id"])
    assert status["total_datasets"] == 0
