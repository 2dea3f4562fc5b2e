"""A job's gather errors are listed in the order they were found: a site address that holds no registry says
so (registry.not_discovered) before the addresses it tried, each of which answered 404 or an HTML page."""
from __future__ import annotations

import pytest
from ckan.tests.helpers import call_action

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

NOT_DISCOVERED = "registry.not_discovered"


@pytest.fixture
def no_registry_job(tmp_path, serve_site, harvest_source, run_harvest):
    """A job of a source whose address is a site's home page, with no registry anywhere on the site."""
    (tmp_path / "index.html").write_text("<html><body><p>Municipal news</p></body></html>", "utf-8")
    site = serve_site(tmp_path)
    source = harvest_source(f"{site.url}/", {"allow_private_addresses": True})
    _, job = run_harvest(source)
    return source, job


def test_the_job_report_lists_the_registry_not_found_before_the_addresses_tried(no_registry_job):
    _, job = no_registry_job
    messages = [error["message"] for error in call_action("harvest_job_report", id=job["id"])["gather_errors"]]
    assert len(messages) > 2, messages
    assert messages[0].startswith(f"[{NOT_DISCOVERED}]"), messages
    assert not any(text.startswith(f"[{NOT_DISCOVERED}]") for text in messages[1:])


def test_the_job_error_summary_lists_the_registry_not_found_first(no_registry_job):
    _, job = no_registry_job
    summary = call_action("harvest_job_show", id=job["id"])["gather_error_summary"]
    assert summary[0]["message"].startswith(f"[{NOT_DISCOVERED}]"), summary


def test_the_conformance_report_lists_the_registry_not_found_first(no_registry_job):
    source, job = no_registry_job
    problems = call_action("passport_conformance_report", id=source["name"], job_id=job["id"])["problems"]
    assert len(problems) > 2
    assert [found["code"] for found in problems].index(NOT_DISCOVERED) == 0
