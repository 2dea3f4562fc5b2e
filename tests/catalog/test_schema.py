"""The Czech catalog record schema: every attribute of the record and of its data sources round-trips."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action

import ckanext.passport.catalog as catalog
from tests.support.catalog_records import (ALL_CONDITIONS_MET, CZSO_ICO, EUROVOC_DEMOGRAPHY, EUROVOC_ECONOMICS,
                                          complete_record)

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


@pytest.fixture
def curator() -> dict:
    return factories.User(fullname="Jana Kurátorová", email="jana@example.cz")


@pytest.fixture
def org(curator) -> dict:
    """The organization the curator edits: every record belongs to one (the test configuration, as a portal's)."""
    return factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])


@pytest.fixture
def created(curator, org) -> dict:
    call_action("package_create", {"user": curator["name"]}, **complete_record(owner_org=org["id"]))
    return call_action("package_show", id="obyvatelstvo-obci")


def test_record_attributes_round_trip(created):
    expected = complete_record()
    for field in (
        "title", "notes", "record_language", "record_validity", "publisher_id_scheme", "publisher_id",
        "publisher_name", "publisher_url", "publisher_email", "license_id", "license_url", "isvs_name",
        "isvs_ref", "isdp_elements", "related_records", "cz_nace", "spatial_area",
    ):
        assert created[field] == expected[field], field
    assert created["openness_conditions"] == ALL_CONDITIONS_MET
    assert sorted(tag["name"] for tag in created["tags"]) == ["obce", "obyvatelstvo"]


def test_eurovoc_concepts_keep_their_uri_and_get_a_label_in_the_record_language(created):
    assert created["eurovoc"] == [
        {"uri": EUROVOC_DEMOGRAPHY, "label": "demografie a obyvatelstvo"},
        {"uri": EUROVOC_ECONOMICS, "label": "EKONOMIKA"},
    ]


def test_new_record_starts_as_draft(created):
    assert created["editorial_state"] == "draft"


def test_geometry_is_filled_from_the_territorial_unit(created):
    geometry = json.loads(created["spatial"])
    assert geometry["type"] == "Polygon"
    west, south = geometry["coordinates"][0][0]
    assert 16.3 < west < 16.6 and 49.0 < south < 49.2  # around Brno


def test_geometry_cannot_be_typed_in(curator, org):
    record = complete_record(owner_org=org["id"], spatial_area="", spatial='{"type": "Point", "coordinates": [0, 0]}')
    call_action("package_create", {"user": curator["name"]}, **record)
    assert "spatial" not in call_action("package_show", id=record["name"])


def test_the_user_who_saved_the_record_is_neither_its_author_nor_its_contact(created):
    """A portal user's name and e-mail are never filled into the record (issue 24): ``author`` / ``author_email``
    keep nothing and are not returned; the record's contacts are what the curator typed."""
    assert "author" not in created and "author_email" not in created
    assert "jana@example.cz" not in json.dumps(created, ensure_ascii=False)
    assert "Jana Kurátorová" not in json.dumps(created, ensure_ascii=False)


def test_a_later_save_by_another_user_names_nobody_either(created):
    other = factories.Sysadmin(fullname="Petr Redaktor", email="petr@example.cz")
    call_action("package_patch", {"user": other["name"]}, id=created["id"], title="Obyvatelstvo obcí ČR")
    updated = call_action("package_show", id=created["id"])
    assert "author" not in updated and "author_email" not in updated
    assert "petr@example.cz" not in json.dumps(updated, ensure_ascii=False)


def test_resource_attributes_round_trip(created):
    resource = created["resources"][0]
    expected = complete_record()["resources"][0]
    for field in (
        "name", "description", "url", "source_type", "language", "format_label", "format", "format_docs",
        "schema_urls", "mimetype", "mimetype_inner", "size",
    ):
        assert resource[field] == expected[field], field
    assert resource["last_modified"].startswith("2024-02-01")


def test_openness_check_result_cannot_be_set_through_the_api(created, curator):
    resource = created["resources"][0]
    call_action(
        "resource_patch", {"user": curator["name"]}, id=resource["id"], openness_check={"passed": True, "checks": []}
    )
    assert "openness_check" not in call_action("resource_show", id=resource["id"])


def test_provider_may_be_identified_by_russian_inn(curator, org):
    record = complete_record(owner_org=org["id"], publisher_id_scheme="inn", publisher_id="7708234640",
                             publisher_name="Росстат")
    call_action("package_create", {"user": curator["name"]}, **record)
    shown = call_action("package_show", id=record["name"])
    assert (shown["publisher_id_scheme"], shown["publisher_id"]) == ("inn", "7708234640")


def test_spaces_in_the_identifier_are_dropped(curator, org):
    record = complete_record(owner_org=org["id"], publisher_id="000 25 593")
    call_action("package_create", {"user": curator["name"]}, **record)
    assert call_action("package_show", id=record["name"])["publisher_id"] == CZSO_ICO


def test_mr_passport_facts_of_a_harvested_record_are_kept(curator, org):
    facts = {
        "mr_identifier": "7708234640-okved2", "mr_standard_version": "http://opendata.gosmonitor.ru/standard/3.0",
        "mr_conformance": "92", "mr_publisher_phone": "+7 (495) 607-49-02", "mr_created": "2018-04-02",
        "mr_modified": "2025-11-01", "mr_valid": "2026-01-01", "mr_format": "csv",
        "mr_provenance": "Изменения ОКВЭД 2", "mr_periodicity": "ежемесячно",
    }
    record = complete_record(owner_org=org["id"], publisher_id_scheme="inn", publisher_id="7708234640", **facts)
    call_action("package_create", {"user": curator["name"]}, **record)
    shown = call_action("package_show", id=record["name"])
    assert {key: shown.get(key) for key in facts} == facts


# Fields the dataset form pre-fills: their schema ``default``.
DEFAULTS = {
    field["field_name"]: field["default"]
    for field in yaml.safe_load((Path(catalog.__file__).parent / "schemas" / "dataset.yaml").read_text("utf-8"))["dataset_fields"]
    if "default" in field
}


def test_the_record_has_defaults_for_its_validity_language_and_identifier_scheme():
    assert DEFAULTS == {"record_language": "cs", "record_validity": "valid", "publisher_id_scheme": "ico"}


def test_an_api_client_leaving_out_a_field_the_form_prefills_gets_its_default(curator, org):
    record = {key: value for key, value in complete_record(owner_org=org["id"]).items() if key not in DEFAULTS}
    call_action("package_create", {"user": curator["name"]}, **record)
    shown = call_action("package_show", id=record["name"])
    assert {key: shown[key] for key in DEFAULTS} == DEFAULTS


def test_a_value_sent_through_the_api_is_kept_over_the_default(curator, org):
    record = complete_record(owner_org=org["id"], record_validity="invalid", record_language="en")
    call_action("package_create", {"user": curator["name"]}, **record)
    shown = call_action("package_show", id=record["name"])
    assert (shown["record_validity"], shown["record_language"]) == ("invalid", "en")


def test_a_harvest_leaving_out_a_field_gets_no_default(org):
    """A harvest sends what the passport says: a fact it leaves out stays unknown until a curator states it."""
    record = {key: value for key, value in complete_record(owner_org=org["id"]).items() if key != "record_validity"}
    call_action("package_create", {"user": factories.Sysadmin()["name"], "passport_harvest": True}, **record)
    assert "record_validity" not in call_action("package_show", id=record["name"])


def test_the_dataset_form_still_prefills_the_defaults(web, curator):
    factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    token = factories.APIToken(user=curator["name"])["token"]
    form = BeautifulSoup(web.get("/en/dataset/new", headers={"Authorization": token}).body, "html.parser")
    selected = {name: form.select_one(f'select[name="{name}"] option[selected]') for name in DEFAULTS}
    assert {name: option["value"] for name, option in selected.items() if option} == DEFAULTS


def test_the_migration_empties_what_earlier_saves_stored(created, monkeypatch):
    """Records saved before issue 24 hold the saver's name and e-mail in the author fields: the migration empties
    them (a harvest source, another package type, keeps its own)."""
    import importlib.util
    import types

    import ckan.model as model

    path = Path(catalog.__file__).parents[1] / "migration/passport/versions/f2b6d8a4c1e3_author_fields_not_kept.py"
    spec = importlib.util.spec_from_file_location("author_fields_not_kept", path)
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    package = model.Package.get(created["id"])
    package.author, package.author_email = "Jana Kurátorová", "jana@example.cz"
    model.Session.commit()
    monkeypatch.setattr(migration, "op", types.SimpleNamespace(get_bind=model.Session.connection))
    migration.upgrade()
    model.Session.commit()
    model.Session.expire_all()
    package = model.Package.get(created["id"])
    assert (package.author, package.author_email) == (None, None)
