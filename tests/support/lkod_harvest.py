"""What the ``lkod`` harvester's tests share: a small LKOD served locally, an ``lkod`` source of an organization, a
job run in process, and reading its report."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from tests.support.factories import JobObj, LkodSource
from tests.support.lkod_site import build_lkod

ALLOW = {"allow_private_addresses": True}
# Fields of the record no LKOD states: the curator's.
CURATOR_FIELDS = ("openness_conditions", "record_validity", "isvs_name", "isvs_ref", "cz_nace")
CURATOR_PART = complete_record()


@pytest.fixture
def lkod(tmp_path, serve_site):
    root = tmp_path / "lkod"
    root.mkdir()
    site = serve_site(root)
    built = build_lkod(root, site.url)
    built.site = site
    return built


@pytest.fixture
def organization():
    return factories.Organization()


@pytest.fixture
def lkod_source(organization):
    """Create an ``lkod`` harvest source of ``organization``: ``lkod_source(url, config=None, **fields)``."""
    return lambda url, config=None, **fields: LkodSource(**{"owner_org": organization["id"], **fields}, url=url,
                                                         config=config)


@pytest.fixture
def run_lkod():
    """Run one job of an ``lkod`` source through gather, fetch and import in-process."""
    from ckan.plugins import toolkit
    from ckanext.harvest.model import HarvestSource
    from ckanext.harvest.tests.lib import run_harvest_job

    from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

    def run(source: dict):
        job = JobObj(source=HarvestSource.get(source["id"]))
        results = run_harvest_job(job, PassportLkodHarvesterPlugin())
        return results, toolkit.get_action("harvest_job_show")({"ignore_auth": True}, {"id": job.id})

    return run


def report_statuses(results) -> dict[str, str]:
    return {guid: result["report_status"] for guid, result in results.items()}


def object_error_codes(job: dict) -> dict[str, list[str]]:
    """guid → the codes of its object's errors."""
    report = call_action("harvest_job_report", id=job["id"])
    codes = {}
    for found in report["object_errors"].values():
        codes[found["guid"]] = [error["message"].split("]", 1)[0].lstrip("[") for error in found["errors"]]
    return codes
