"""An ``lkod`` source takes dataset IRIs on its catalog's host, or on hosts a sysadmin lists (``iri_hosts``): a
catalog listing another host's datasets speaks for another publisher, so each such dataset is refused with
``harvest.lkod_iri_foreign_host``, before its document is fetched."""
from __future__ import annotations

import json

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj
from ckanext.harvest.tests.lib import run_harvest_job
from tests.support.lkod_site import GOOD, build_lkod

from ckanext.passport.plugins.lkod_harvester import PassportLkodHarvesterPlugin

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

ALLOW = {"allow_private_addresses": True}


@pytest.fixture
def foreign_lkod(tmp_path, serve_site):
    """A catalog read at 127.0.0.1 whose datasets' IRIs are on the host ``localhost`` (the same server)."""
    root = tmp_path / "lkod"
    root.mkdir()
    site = serve_site(root)
    return build_lkod(root, site.url.replace("127.0.0.1", "localhost"))


def harvest(catalog_url: str, config: dict) -> dict:
    source = call_action(
        "harvest_source_create", context={"user": factories.Sysadmin()["name"]}, name="another-lkod",
        title="Another LKOD", url=catalog_url.replace("localhost", "127.0.0.1"), source_type="lkod",
        owner_org=factories.Organization()["id"], config=json.dumps(config),
    )
    return run_harvest_job(HarvestJobObj(source=HarvestSource.get(source["id"]), run=False),
                           PassportLkodHarvesterPlugin())


def test_a_dataset_iri_on_another_host_is_refused_with_its_code(foreign_lkod):
    results = harvest(foreign_lkod.catalog_url, ALLOW)

    good = results[foreign_lkod.dataset_iri(next(iter(GOOD)))]
    assert good["report_status"] == "errored"
    assert [error.message.split("]")[0] for error in good["errors"]] == ["[harvest.lkod_iri_foreign_host"]
    assert call_action("package_search", include_private=True)["count"] == 0


def test_a_dataset_iri_on_a_host_a_sysadmin_listed_lands(foreign_lkod):
    results = harvest(foreign_lkod.catalog_url, ALLOW | {"iri_hosts": ["localhost"]})

    assert {results[foreign_lkod.dataset_iri(key)]["report_status"] for key in GOOD} == {"added"}
