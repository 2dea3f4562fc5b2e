"""``/opendata/<identifier>/meta.csv|xml|json``: valid against the MR schemas, right values, right HTTP."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from lxml import etree

import ckanext.passport.mr as mr
from ckanext.passport.mr.passport import meta_csv, meta_json, meta_xml

from tests.support.publish_shapes import INN, PUBLISH_CONFIG

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

SCHEMAS = Path(mr.__file__).parent / "schemas"
SITE = "http://test.ckan.net"
BASE = f"{SITE}/opendata/7712345678-showrooms"
PUBLISHABLE = ["harvested", "portal", "structures"]


@pytest.mark.parametrize("shape", PUBLISHABLE)
def test_meta_xml_validates_against_the_mr_schema(web, publish, shape):
    dataset = publish(shape)
    identifier = dataset.get("mr_identifier") or f"{INN}-{dataset['name'].replace('-', '')}"
    response = web.get(f"/opendata/{identifier}/meta.xml")
    schema = etree.XMLSchema(etree.parse(str(SCHEMAS / "meta-schema.xsd")))
    document = etree.fromstring(response.data)
    assert schema.validate(document), schema.error_log


@pytest.mark.parametrize("shape", PUBLISHABLE)
def test_meta_json_validates_against_the_mr_schema(web, publish, shape):
    dataset = publish(shape)
    identifier = dataset.get("mr_identifier") or f"{INN}-{dataset['name'].replace('-', '')}"
    document = json.loads(web.get(f"/opendata/{identifier}/meta.json").data)
    jsonschema.validate(document, json.loads((SCHEMAS / "meta-schema.json").read_text("utf-8")))


@pytest.mark.parametrize("shape", PUBLISHABLE)
def test_meta_csv_is_rfc4180_with_the_mr_header(web, publish, shape):
    dataset = publish(shape)
    identifier = dataset.get("mr_identifier") or f"{INN}-{dataset['name'].replace('-', '')}"
    body = web.get(f"/opendata/{identifier}/meta.csv").data
    text = body.decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    assert rows[0] == ["property", "value"]
    assert [row[0] for row in rows[1:15]] == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "provenance", "valid", "publishername", "publisherphone", "publishermbox",
    ]
    assert all(len(row) == 2 for row in rows)


def test_meta_csv_holds_the_dataset_values(web, publish):
    publish("harvested")
    rows = dict(csv.reader(io.StringIO(web.get(f"{BASE}/meta.csv").data.decode("utf-8"), newline="")))
    assert rows["standardversion"] == "http://opendata.gosmonitor.ru/standard/3.0"
    assert rows["identifier"] == "7712345678-showrooms"
    assert rows["title"] == "Автосалоны"
    assert rows["description"] == "Перечень автосалонов, с адресами; и \"кавычками\"."
    assert rows["creator"] == "Департамент транспорта"
    assert rows["created"] == "20130401T0000"
    assert rows["modified"] == "20130601T0000"
    assert rows["subject"] == "автосалон,транспорт"
    assert rows["format"] == "csv"
    assert rows["provenance"] == "Обновление набора данных"
    assert rows["valid"] == "20140101"
    assert (rows["publishername"], rows["publisherphone"], rows["publishermbox"]) == (
        "Иванов Иван Иванович", "+7 (495) 123-45-67", "ivanov@example.com",
    )
    assert rows["data-20130601T0000-structure-20130401T0000"] == (
        f"{BASE}/data-20130601T0000-structure-20130401T0000.csv"
    )
    assert rows["data-20130401T0000-structure-20130401T0000"] == (
        f"{BASE}/data-20130401T0000-structure-20130401T0000.csv"
    )
    assert rows["structure-20130401T0000"] == f"{BASE}/structure-20130401T0000.csv"


def test_each_passport_form_reads_back_as_the_same_passport(web, publish):
    publish("structures")
    base = "/opendata/7712345678-budget"
    read = {
        "meta.csv": meta_csv.parse(web.get(f"{base}/meta.csv").data).value,
        "meta.xml": meta_xml.parse(web.get(f"{base}/meta.xml").data).value,
        "meta.json": meta_json.parse(web.get(f"{base}/meta.json").data).value,
    }
    for form, passport in read.items():
        assert passport.identifier == "7712345678-budget", form
        assert passport.title == "Budget", form
        assert passport.publisher.mbox == "smith@example.com", form
        assert passport.modified.text in ("20160301T1230",), form
        assert [v.version for v in passport.data_versions] == ["3", "2", "1"], form
        assert [v.structure_version for v in passport.data_versions] == ["2", "1", "1"], form
        assert [s.version for s in passport.structure_versions] == ["2", "1"], form


def test_portal_dataset_gets_an_identifier_from_publisher_and_name(web, publish):
    publish("portal")
    document = json.loads(web.get(f"/opendata/{INN}-busstops/meta.json").data)
    assert document["identifier"] == f"{INN}-busstops"
    assert document["title"] == "Bus stops"
    assert document["creator"] == "Департамент транспорта"
    assert document["publisher"] == {"name": "Jane Roe", "phone": "", "mbox": "jane@example.com"}
    [data] = document["data"]
    assert data["source"].startswith(f"{SITE}/opendata/{INN}-busstops/data-")
    assert data["source"].endswith(".csv")


SAVER = {"name": "jnovak", "fullname": "Jan Novák", "email": "jan.novak@example.cz"}


def _saved_by_a_user(publish, legacy: bool) -> dict:
    """A portal record saved by a user; ``legacy``: with the name and e-mail earlier saves stored in the record's
    author fields (the catalog filled them until issue 24; the migration empties them, here they are put back)."""
    saver = factories.Sysadmin(**SAVER)
    dataset = publish("portal", maintainer="", maintainer_email="", user=saver)
    if legacy:
        import ckan.lib.search as search
        import ckan.model as model

        package = model.Package.get(dataset["id"])
        package.author, package.author_email = SAVER["fullname"], SAVER["email"]
        model.Session.commit()
        search.rebuild(dataset["id"])
    return dataset


def _leaks(text: str) -> list[str]:
    return [word for word in (SAVER["name"], SAVER["fullname"], SAVER["email"]) if word in text]


@pytest.mark.parametrize("legacy", [False, True], ids=["new", "stored-before"])
@pytest.mark.parametrize("form", ["meta.csv", "meta.xml", "meta.json"])
def test_a_portal_record_never_publishes_the_login_of_whoever_saved_it(web, publish, form, legacy):
    """The passport names the provider, never whoever saved the record."""
    _saved_by_a_user(publish, legacy)
    text = web.get(f"/opendata/{INN}-busstops/{form}").data.decode("utf-8")
    assert _leaks(text) == []
    assert "Департамент транспорта" in text and "opendata@example.ru" in text


def test_the_user_who_saves_a_record_is_not_kept_in_it(publish):
    """CKAN's ``author`` / ``author_email`` were the saver's name and e-mail, published (issue 24): they keep nothing,
    whatever is given, and are never returned, not even to a sysadmin."""
    dataset = _saved_by_a_user(publish, legacy=False)
    call_action("package_patch", {"user": SAVER["name"]}, id=dataset["id"], author="jnovak",
                author_email="jan.novak@example.cz")
    import ckan.model as model

    package = model.Package.get(dataset["id"])
    assert (package.author, package.author_email) == (None, None)
    shown = call_action("package_show", {"user": SAVER["name"]}, id=dataset["id"])
    assert "author" not in shown and "author_email" not in shown


@pytest.mark.parametrize("legacy", [False, True], ids=["new", "stored-before"])
def test_no_page_document_or_api_answer_shows_whoever_saved_the_record(web, publish, legacy):
    """The record page (with its RDFa), the anonymous API, search, ckanext-dcat's documents and the LKOD's: none
    names the user who saved the record, nor finds it by their e-mail."""
    dataset = _saved_by_a_user(publish, legacy)
    urls = [
        f"/dataset/{dataset['name']}", f"/cs/dataset/{dataset['name']}", f"/ru/dataset/{dataset['name']}",
        f"/opendata/{INN}-busstops/", f"/api/3/action/package_show?id={dataset['name']}",
        f"/api/3/action/package_search?q=name:{dataset['name']}",
        f"/dataset/{dataset['name']}.ttl", f"/dataset/{dataset['name']}.jsonld", f"/lkod/dataset/{dataset['id']}",
    ]
    for url in urls:
        response = web.get(url)
        assert response.status_code in (200, 404), url
        assert _leaks(response.data.decode("utf-8")) == [], url
    shown = json.loads(web.get(f"/api/3/action/package_show?id={dataset['name']}").data)["result"]
    assert "author_email" not in shown and "author" not in shown
    for q in ('"jan.novak@example.cz"', "jnovak"):
        found = json.loads(web.get("/api/3/action/package_search", query_string={"q": q}).data)["result"]
        assert found["count"] == 0, q


@pytest.mark.parametrize(
    "form, content_type",
    [("meta.csv", "text/csv; charset=utf-8"), ("meta.xml", "application/xml; charset=utf-8"),
     ("meta.json", "application/json; charset=utf-8")],
)
def test_passport_files_have_content_type_and_file_name(web, publish, form, content_type):
    publish("harvested")
    response = web.get(f"/opendata/7712345678-showrooms/{form}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == content_type
    assert response.headers["Content-Disposition"] == f'inline; filename="{form}"'


def test_passport_file_answers_304_to_its_etag(web, publish):
    publish("harvested")
    first = web.get("/opendata/7712345678-showrooms/meta.json")
    etag = first.headers["ETag"]
    again = web.get("/opendata/7712345678-showrooms/meta.json", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""


def test_passport_file_answers_304_when_not_modified_since(web, publish):
    publish("harvested")
    modified = web.get("/opendata/7712345678-showrooms/meta.xml").headers["Last-Modified"]
    again = web.get("/opendata/7712345678-showrooms/meta.xml", headers={"If-Modified-Since": modified})
    assert again.status_code == 304


def test_passport_etag_changes_when_the_dataset_changes(web, publish):
    dataset = publish("harvested")
    before = web.get("/opendata/7712345678-showrooms/meta.json").headers["ETag"]
    call_action("package_patch", {"user": factories.Sysadmin()["name"]}, id=dataset["id"], title="Автосалоны города")
    response = web.get("/opendata/7712345678-showrooms/meta.json", headers={"If-None-Match": before})
    assert response.status_code == 200
    assert json.loads(response.data)["title"] == "Автосалоны города"


@pytest.mark.parametrize("form", ["meta.csv", "meta.xml", "meta.json"])
def test_dataset_without_data_or_structure_has_no_passport_files(web, publish, form):
    publish("empty")
    assert web.get(f"/opendata/7712345678-plans/{form}").status_code == 404


def test_unknown_identifier_answers_404(web, publish):
    publish("harvested")
    assert web.get("/opendata/7712345678-nothing/meta.json").status_code == 404
