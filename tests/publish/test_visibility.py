"""Only what an anonymous visitor may see is published: private datasets and unreviewed records answer 404."""
from __future__ import annotations

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.publish_shapes import SHAPES

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

BASE = "/opendata/7712345678-showrooms"
PATHS = (
    BASE,
    f"{BASE}/meta.csv",
    f"{BASE}/meta.xml",
    f"{BASE}/meta.json",
    f"{BASE}/data-20130401T0000-structure-20130401T0000.csv",
    f"{BASE}/structure-20130401T0000.csv",
)
REGISTRIES = ("/opendata/", "/opendata/list.csv", "/opendata/list.xml", "/opendata/list.json",
              "/opendata/opendatalist.csv")


def assert_unpublished(app) -> None:
    for path in PATHS:
        assert app.get(path, follow_redirects=False).status_code == 404, path
    for path in REGISTRIES:
        assert "7712345678-showrooms" not in app.get(path).data.decode("utf-8"), path


@pytest.mark.ckan_config("ckanext.passport.review_scope", "none")
def test_private_dataset_is_not_published(web):
    organization = factories.Organization()
    factories.Dataset(**SHAPES["harvested"](organization), private=True)
    assert_unpublished(web)


@pytest.mark.ckan_config("ckanext.passport.review_scope", "none")
def test_private_dataset_stays_unpublished_for_a_logged_in_member(web):
    user = factories.User()
    organization = factories.Organization(users=[{"name": user["name"], "capacity": "admin"}])
    factories.Dataset(**SHAPES["harvested"](organization), private=True)
    response = web.get(f"{BASE}/meta.json", headers={"Authorization": factories.APIToken(user=user["name"])["token"]})
    assert response.status_code == 404


@pytest.mark.ckan_config("ckanext.passport.review_scope", "full")
def test_unreviewed_record_is_not_published_in_full_review_scope(web):
    organization = factories.Organization()
    factories.Dataset(**SHAPES["harvested"](organization))
    assert_unpublished(web)


@pytest.mark.ckan_config("ckanext.passport.review_scope", "full")
def test_record_is_published_once_the_editor_publishes_it(web):
    curator = factories.User()
    organization = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    dataset = factories.Dataset(**SHAPES["harvested"](organization), user=curator)
    call_action("passport_workflow_transition", {"user": curator["name"]}, id=dataset["id"], to="submitted")
    call_action("passport_workflow_transition", {"user": factories.Sysadmin()["name"]}, id=dataset["id"],
                to="published")
    assert web.get(f"{BASE}/meta.json").json["identifier"] == "7712345678-showrooms"
    assert "7712345678-showrooms" in web.get("/opendata/list.csv").data.decode("utf-8")


@pytest.mark.ckan_config("ckanext.passport.review_scope", "none")
def test_deleted_dataset_is_not_published(web):
    organization = factories.Organization()
    dataset = factories.Dataset(**SHAPES["harvested"](organization))
    call_action("package_delete", {"user": factories.Sysadmin()["name"]}, id=dataset["id"])
    assert_unpublished(web)
