"""The record's English texts (title_en, notes_en, keywords_en), its several territorial units and its HVD category
from the EU list: saved, kept through package_patch / package_update and the form, checked, shown.

One clean database for the module (``stack_once``); each test makes its own record.
"""
from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.logic import ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.browser_forms import DATASET_FORM, browser_post

from tests.support.catalog_records import complete_record

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

ENGLISH = {
    "title_en": "Population of municipalities",
    "notes_en": "Population of every Czech municipality.",
    "keywords_en": ["population", "municipalities"],
}
WATER_GAUGES = "http://data.europa.eu/bna/c_1e787364"
BRNO, BRNO_COUNTRY = "CZ0642", "CZ0643"  # Brno-město, Brno-venkov


@pytest.fixture(scope="module")
def people(stack_once) -> dict:
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    return {"curator": curator, "org": org, "sysadmin": factories.Sysadmin()}


def create(people: dict, **fields) -> dict:
    record = complete_record(owner_org=people["org"]["id"], name=factories.Dataset.stub().name, **fields)
    call_action("package_create", {"user": people["curator"]["name"]}, **record)
    return call_action("package_show", id=record["name"])


def refusal(people: dict, **fields) -> dict:
    with pytest.raises(ValidationError) as raised:
        create(people, **fields)
    return raised.value.error_dict


def headers(user: dict) -> dict:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


# --- English texts ---------------------------------------------------------------------------------------


def test_the_english_texts_are_kept_as_given(people):
    created = create(people, **ENGLISH)
    assert {field: created[field] for field in ENGLISH} == ENGLISH


def test_english_keywords_typed_comma_separated_as_the_tags_are_stored_as_a_list_each_once(people):
    created = create(people, keywords_en=" population , municipalities,population ")
    assert created["keywords_en"] == ["population", "municipalities"]


@pytest.mark.parametrize("keywords", ["x", "population/municipalities", "a" * 101])
def test_an_english_keyword_breaking_the_tag_rules_is_refused_on_its_field(people, keywords):
    assert "keywords_en" in refusal(people, keywords_en=keywords)


def test_package_patch_of_another_field_keeps_the_english_texts(people):
    created = create(people, **ENGLISH)
    call_action("package_patch", {"user": people["curator"]["name"]}, id=created["id"], title="Obyvatelstvo 2025")
    assert {field: call_action("package_show", id=created["id"])[field] for field in ENGLISH} == ENGLISH


def test_package_update_with_new_english_texts_stores_them(people):
    created = create(people, **ENGLISH)
    changed = {"title_en": "Inhabitants", "notes_en": "Inhabitants of towns.", "keywords_en": ["inhabitants"]}
    call_action("package_update", {"user": people["curator"]["name"]}, **{**created, **changed})
    assert {field: call_action("package_show", id=created["id"])[field] for field in ENGLISH} == changed


def test_the_form_posted_as_rendered_keeps_the_english_texts(web, people):
    created = create(people, **ENGLISH)
    page = web.get(f"/dataset/edit/{created['name']}", headers=headers(people["curator"])).body
    web.post(f"/dataset/edit/{created['name']}", data=browser_post(page, DATASET_FORM), headers=headers(people["curator"]))
    assert {field: call_action("package_show", id=created["id"])[field] for field in ENGLISH} == ENGLISH


def test_the_form_labels_the_english_fields_in_the_reader_language(web, people):
    page = BeautifulSoup(web.get("/cs/dataset/new", headers=headers(people["curator"])).body, "html.parser")
    labels = {field: page.select_one(f"label[for=field-{field}]").get_text(" ", strip=True) for field in ENGLISH}
    assert labels == {
        "title_en": "Název záznamu anglicky", "notes_en": "Popis dat anglicky", "keywords_en": "Klíčová slova anglicky",
    }


def test_the_record_page_shows_the_english_texts(web, people):
    created = create(people, **ENGLISH)
    page = web.get(f"/dataset/{created['name']}", headers=headers(people["curator"])).body
    text = BeautifulSoup(page, "html.parser").get_text(" ", strip=True)
    assert ENGLISH["title_en"] in text and ENGLISH["notes_en"] in text
    assert "population" in text and "municipalities" in text


# --- several territorial units ------------------------------------------------------------------------------


def test_several_territorial_units_are_kept_in_their_order(people):
    assert create(people, spatial_area=[BRNO_COUNTRY, BRNO])["spatial_area"] == [BRNO_COUNTRY, BRNO]


def test_one_unit_given_as_a_code_is_stored_as_a_list_of_it(people):
    assert create(people, spatial_area=BRNO)["spatial_area"] == [BRNO]


def test_an_unknown_unit_among_several_is_refused_by_its_code(people):
    errors = refusal(people, spatial_area=[BRNO, "CZ9999"])
    assert any("CZ9999" in message for message in errors["spatial_area"])


def test_the_geometry_is_the_box_around_every_unit(people):
    one = json.loads(create(people, spatial_area=[BRNO])["spatial"])["coordinates"][0]
    both = json.loads(create(people, spatial_area=[BRNO, "CZ080"])["spatial"])["coordinates"][0]  # + Moravskoslezský
    assert both[0] == one[0]  # west and south: Brno's
    assert both[2][0] > one[2][0] and both[2][1] > one[2][1]  # east and north: reach the Moravian-Silesian Region


def test_a_unit_stored_as_one_code_before_the_field_took_several_reads_as_a_list(web, people):
    created = create(people, spatial_area=[BRNO])
    package = model.Package.get(created["id"])
    package.extras = {**package.extras, "spatial_area": BRNO}  # as the field stored it: the code as plain text
    model.Session.commit()
    assert call_action("package_show", id=created["id"])["spatial_area"] == [BRNO]
    page = web.get(f"/dataset/edit/{created['name']}", headers=headers(people["curator"])).body
    chosen = BeautifulSoup(page, "html.parser").select("select#field-spatial_area option[selected]")
    assert [option["value"] for option in chosen] == [BRNO]


def test_the_territory_facet_counts_each_unit_of_a_record(people):
    create(people, spatial_area=[BRNO, "CZ080"])
    found = call_action(
        "package_search", q="*:*", rows=0, **{"facet.field": json.dumps(["vocab_spatial_area"])},
        fq=f"owner_org:{people['org']['id']}",
    )
    areas = {item["name"] for item in found["search_facets"]["vocab_spatial_area"]["items"]}
    assert {BRNO, "CZ064", "CZ080"} <= areas


# --- HVD category from the EU list ---------------------------------------------------------------------------


def test_an_hvd_category_of_the_eu_list_is_kept(people):
    assert create(people, hvd_category=WATER_GAUGES)["hvd_category"] == WATER_GAUGES


def test_an_hvd_category_iri_not_in_the_eu_list_is_refused(people):
    errors = refusal(people, hvd_category="http://data.europa.eu/bna/c_00000000")
    assert any("Unknown HVD category" in message for message in errors["hvd_category"])


def test_the_record_page_shows_the_hvd_category_by_its_label_linked_to_its_iri(web, people):
    created = create(people, hvd_category=WATER_GAUGES)
    page = BeautifulSoup(web.get(f"/cs/dataset/{created['name']}", headers=headers(people["curator"])).body, "html.parser")
    link = page.select_one(f'a[href="{WATER_GAUGES}"]')
    assert link.get_text(strip=True) == "Referenční údaje pro vodočty, které jsou důležité pro plavbu"


def test_the_form_searches_the_hvd_category_in_the_eu_list(web, people):
    created = create(people, hvd_category=WATER_GAUGES)
    page = BeautifulSoup(
        web.get(f"/dataset/edit/{created['name']}", headers=headers(people["curator"])).body, "html.parser"
    )
    select = page.select_one("select#field-hvd_category")
    assert select["data-module"] == "passport-vocab-select"
    assert "vocabulary=hvd_category" in select["data-module-source"]
    assert [(option["value"], option.get_text()) for option in select.select("option[selected]")] == [
        (WATER_GAUGES, "Reference data for water level gauges relevant to navigation")
    ]


def test_the_hvd_category_search_finds_a_sub_category_by_part_of_its_english_label(people):
    found = call_action("passport_vocab_search", {"user": ""}, vocabulary="hvd_category", q="water level", language="en")
    assert WATER_GAUGES in [concept["id"] for concept in found]


def test_the_hvd_category_search_offers_no_top_category(people):
    found = call_action("passport_vocab_search", {"user": ""}, vocabulary="hvd_category", q="", limit=100)
    offered = {concept["id"] for concept in found}
    assert len(offered) == 90  # the list's 96 categories but the six top ones
    assert not offered & {"http://data.europa.eu/bna/c_b79e35eb", "http://data.europa.eu/bna/c_164e0bf5"}
