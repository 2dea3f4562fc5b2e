"""Every validation error of the record's form is shown beside its field and in the error summary, never as a 500.

A harvested record (HarvestedRecord) lacks the curator's part; saving its edit form as it is reports each
missing part in the reader's language. The shape tests hold every kind of field (plain, grouped, composite,
repeating) to what scheming's form and summary read: a list of messages, or one dict of messages per item.
"""
from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup
from ckan.logic import ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.browser_forms import DATASET_FORM, RESOURCE_FORM, browser_post
from tests.support.harvested_records import STRUCTURE_VERSION, resource_of
from tests.support.factories import HarvestedRecord

from tests.support.catalog_records import complete_record

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

# What the incomplete harvested record's form reports, by language: field → message.
MISSING = {
    "en": {
        "publisher_email": "Missing value",
        "openness_conditions": "State for each openness condition whether the data fulfil it",
        "eurovoc-0-uri": "Missing value",
    },
    "cs": {
        "publisher_email": "Chybí hodnota",
        "openness_conditions": "U každé podmínky otevřenosti uveďte, zda ji data splňují",
        "eurovoc-0-uri": "Chybí hodnota",
    },
    "ru": {
        "publisher_email": "Значение не указано",
        "openness_conditions": "Укажите для каждого условия открытости, выполняется ли оно",
        "eurovoc-0-uri": "Значение не указано",
    },
}


@pytest.fixture
def curator() -> dict:
    return factories.User()


@pytest.fixture
def harvested(curator) -> dict:
    org = factories.Organization(name="rosstat", users=[{"name": curator["name"], "capacity": "editor"}])
    return HarvestedRecord(owner_org=org["id"])


def headers(user: dict) -> dict[str, str]:
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


def summary(page: BeautifulSoup) -> dict[str, str]:
    """The error summary's items: the field they name (``data-field-label``) → their text."""
    return {
        item["data-field-label"]: " ".join(item.get_text(" ").split())
        for item in page.select(".error-explanation li[data-field-label]")
    }


def beside(page: BeautifulSoup, field: str) -> str:
    """The error text shown in the form group of ``field`` (its input or the composite's fieldset)."""
    element = page.select_one(f"#field-{field}")
    assert element is not None, field
    group = element if element.name == "fieldset" else element.find_parent(class_="form-group")
    return " ".join(" ".join(e.get_text(" ") for e in group.select(".error-block")).split())


@pytest.mark.parametrize("language", ["en", "cs", "ru"])
def test_saving_an_incomplete_harvested_record_shows_each_missing_part(web, curator, harvested, language):
    path = f"/{language}/dataset/edit/{harvested['name']}"
    form = web.get(path, headers=headers(curator)).body
    response = web.post(path, data=browser_post(form, DATASET_FORM), headers=headers(curator), status=None)
    assert response.status_code == 200
    page = BeautifulSoup(response.body, "html.parser")
    listed = " | ".join(summary(page).values())
    for field, message in MISSING[language].items():
        assert message in listed, field
        assert message in beside(page, field), field


def test_the_edit_form_offers_a_first_eurovoc_concept_to_a_record_without_one(web, curator, harvested):
    page = BeautifulSoup(web.get(f"/dataset/edit/{harvested['name']}", headers=headers(curator)).body, "html.parser")
    assert page.select_one("select#field-eurovoc-0-uri") is not None


def test_removing_every_eurovoc_concept_asks_for_one(web, curator, harvested):
    path = f"/cs/dataset/edit/{harvested['name']}"
    form = web.get(path, headers=headers(curator)).body
    posted = browser_post(form, DATASET_FORM, drop=["eurovoc-0-uri", "eurovoc-0-label"])  # scheming's Remove
    page = BeautifulSoup(web.post(path, data=posted, headers=headers(curator)).body, "html.parser")
    assert "Zvolte alespoň jeden koncept EUROVOC" in summary(page)["eurovoc-1"]
    assert "Zvolte alespoň jeden koncept EUROVOC" in beside(page, "eurovoc-0-uri")


@pytest.mark.parametrize("action", ["edit", "new"])
def test_a_resource_form_of_an_incomplete_record_reports_the_record_errors(web, curator, harvested, action):
    structure = resource_of(harvested, "structure", STRUCTURE_VERSION)
    path = f"/cs/dataset/{harvested['name']}/resource/" + (f"{structure['id']}/edit" if action == "edit" else "new")
    form = web.get(path, headers=headers(curator)).body
    changes = [("description", "Struktura"), ("url", "https://example.ru/s.csv"), ("name", "Struktura")]
    response = web.post(path, data=browser_post(form, RESOURCE_FORM, changes), headers=headers(curator), status=None)
    assert response.status_code == 200
    page = BeautifulSoup(response.body, "html.parser")
    listed = summary(page)
    assert listed["publisher_email"] == "Kontaktní e-mail poskytovatele: Chybí hodnota"
    assert "Zvolte alespoň jeden koncept EUROVOC" in listed["eurovoc-1"]
    assert page.select_one(".passport-record-incomplete a")["href"].endswith(f"/dataset/edit/{harvested['name']}")


def test_a_new_record_form_reports_errors_of_each_field_kind(web, curator):
    factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    form = web.get("/en/dataset/new", headers=headers(curator)).body
    bad = [
        ("title", "Školy"), ("name", "skoly"), ("notes", "Rejstřík škol"), ("owner_org", "csu"),
        ("publisher_id_scheme", "ico"), ("publisher_id", "00025594"),  # grouped field, wrong check digit
        ("publisher_name", "MŠMT"), ("publisher_email", "posta@msmt,cz"),  # plain field
        ("license_url", "ftp://example.cz/licence"),
        ("isvs_name", "Rejstřík škol"),  # its pair is left empty
        ("openness_conditions-complete", "yes"),  # composite, unanswered conditions
        ("eurovoc-0-uri", ""),  # repeating, empty item
    ]
    response = web.post("/en/dataset/new", data=browser_post(form, DATASET_FORM, bad), headers=headers(curator),
                        status=None)
    assert response.status_code == 200
    page = BeautifulSoup(response.body, "html.parser")
    listed = summary(page)
    expected = {
        "publisher_id": "This IČO's check digit is wrong",
        "publisher_email": "This is not a valid e-mail address",
        "license_url": "The address must start with http:// or https://",
        "isvs_ref": "Fill this in as well",
        "openness_conditions": "State for each openness condition whether the data fulfil it",
        "eurovoc-0-uri": "Missing value",
    }
    for field, message in expected.items():
        assert message in beside(page, field), field
        assert any(message in text for text in listed.values()), field


def chosen_conditions(page: BeautifulSoup) -> dict[str, str]:
    """The answer each openness condition's select shows as chosen: condition → value."""
    return {
        select["name"].removeprefix("openness_conditions-"): (select.select_one("option[selected]") or {}).get("value", "")
        for select in page.select('#field-openness_conditions select[name^="openness_conditions-"]')
    }


ANSWERS = {"complete": "yes", "accessible": "no", "machine_readable": "yes", "open_format": "no",
           "open_terms": "yes", "free": "no"}


def test_a_new_record_refused_for_a_wrong_ico_keeps_every_openness_answer(web, curator):
    factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    form = web.get("/cs/dataset/new", headers=headers(curator)).body
    changes = [("title", "Školy"), ("name", "skoly"), ("owner_org", "csu"),
               ("publisher_id_scheme", "ico"), ("publisher_id", "00025594")]  # wrong check digit
    changes += [(f"openness_conditions-{code}", value) for code, value in ANSWERS.items()]
    response = web.post("/cs/dataset/new", data=browser_post(form, DATASET_FORM, changes), headers=headers(curator),
                        status=None)
    page = BeautifulSoup(response.body, "html.parser")
    assert beside(page, "publisher_id")
    assert chosen_conditions(page) == ANSWERS


def test_an_edit_refused_for_a_wrong_ico_shows_the_answers_posted_not_the_stored_ones(web, curator, harvested):
    path = f"/cs/dataset/edit/{harvested['name']}"
    form = web.get(path, headers=headers(curator)).body
    changes = [("publisher_id_scheme", "ico"), ("publisher_id", "00025594")]
    changes += [(f"openness_conditions-{code}", value) for code, value in ANSWERS.items()]
    page = BeautifulSoup(web.post(path, data=browser_post(form, DATASET_FORM, changes), headers=headers(curator)).body,
                         "html.parser")
    assert beside(page, "publisher_id")
    assert chosen_conditions(page) == ANSWERS


# --- the shape of each field kind's errors, as the API returns them and the form reads them --------------------


def _errors(**overrides: Any) -> dict[str, Any]:
    with pytest.raises(ValidationError) as refused:
        call_action("package_create", {"user": factories.Sysadmin()["name"]},
                    **complete_record(owner_org=factories.Organization()["id"], **overrides))
    return refused.value.error_dict


def _is_messages(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(m, str) and m for m in value)


@pytest.mark.parametrize(
    "kind, overrides, field",
    [
        ("plain", {"publisher_email": "x@"}, "publisher_email"),
        ("grouped", {"publisher_id": "123"}, "publisher_id"),
        ("grouped pair", {"isvs_ref": ""}, "isvs_ref"),
        ("select", {"record_validity": "maybe"}, "record_validity"),
        ("multiple select", {"cz_nace": ["99.99.99"]}, "cz_nace"),
        ("composite", {"openness_conditions": {"complete": "yes"}}, "openness_conditions"),
    ],
)
def test_a_field_error_is_a_list_of_messages(kind, overrides, field):
    errors = _errors(**overrides)
    assert list(errors) == [field], kind
    assert _is_messages(errors[field]), kind


@pytest.mark.parametrize(
    "kind, overrides, field",
    [
        ("repeating item", {"isdp_elements": [{"name": "Kód obce", "ref": ""}]}, "isdp_elements"),
        ("repeating, none given", {"eurovoc": []}, "eurovoc"),
        ("repeating, unknown item", {"eurovoc": [{"uri": "http://eurovoc.europa.eu/1"}]}, "eurovoc"),
    ],
)
def test_a_repeating_field_error_is_one_dict_of_messages_per_item(kind, overrides, field):
    errors = _errors(**overrides)
    assert list(errors) == [field], kind
    items = errors[field]
    assert isinstance(items, list) and items and all(isinstance(item, dict) for item in items), kind
    assert all(_is_messages(messages) for item in items for messages in item.values()), kind
