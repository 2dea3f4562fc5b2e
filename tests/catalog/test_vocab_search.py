"""Vocabulary fields searched as the curator types: the passport_vocab_search action, and a form that holds only
the record's chosen concepts, so it stays small with a 7,000-concept EUROVOC loaded."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.browser_forms import DATASET_FORM, browser_post

from tests.support.eurovoc import synthetic_eurovoc
from tests.support.catalog_records import EUROVOC_DEMOGRAPHY, EUROVOC_ECONOMICS, complete_record
from ckanext.passport.catalog.vocabularies import vocab
from ckanext.passport.catalog.vocabularies.cli import vocab_group

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

SEARCHABLE_FIELDS = ("eurovoc-0-uri", "cz_nace", "spatial_area", "data_themes")
LOADED_CONCEPTS = 7000
FORM_SIZE_LIMIT = 300 * 1024


def search(**params) -> list[dict]:
    return call_action("passport_vocab_search", {"user": ""}, **params)


def id_and_label(concept: dict) -> dict:
    return {"id": concept["id"], "label": concept["label"]}


def test_search_finds_eurovoc_concepts_by_their_czech_label_and_answers_in_czech():
    found = search(vocabulary="eurovoc", q="demograf", language="cs")
    assert id_and_label(found[0]) == {"id": EUROVOC_DEMOGRAPHY, "label": "2816 demografie a obyvatelstvo"}


def test_search_finds_eurovoc_concepts_by_their_english_label_and_answers_in_english():
    found = search(vocabulary="eurovoc", q="population", language="en")
    assert id_and_label(found[0]) == {"id": EUROVOC_DEMOGRAPHY, "label": "2816 demography and population"}


def test_search_ignores_case_and_diacritics():
    found = search(vocabulary="spatial_area", q="BRNO-MESTO", language="cs")
    assert [unit["id"] for unit in found] == ["CZ0642"]


def test_search_finds_a_concept_by_its_code():
    found = search(vocabulary="cz_nace", q="85", language="en")
    assert id_and_label(found[0]) == {"id": "85", "label": "85 Education"}


def test_search_puts_labels_starting_with_the_query_first():
    labels = [concept["label"] for concept in search(vocabulary="data_themes", q="en", language="en")]
    assert labels[0] == "Energy" and "Government and public sector" in labels


def test_search_gives_each_concept_its_place_in_the_vocabulary():
    themes = [concept.key for concept in vocab.vocabulary(vocab.DATA_THEMES)]
    found = search(vocabulary="data_themes", q="", limit=100)
    assert [(concept["id"], concept["order"]) for concept in found] == [(code, themes.index(code)) for code in themes]


def test_search_returns_at_most_limit_concepts():
    assert len(search(vocabulary="eurovoc", q="", limit=5)) == 5


def test_search_of_an_unknown_vocabulary_is_a_validation_error():
    with pytest.raises(Exception) as refused:
        search(vocabulary="iso_countries", q="cz")
    assert refused.typename == "ValidationError"
    assert refused.value.error_dict == {"vocabulary": ["Unknown vocabulary"]}


@pytest.mark.parametrize("limit", ["0", "101", "many"])
def test_search_refuses_a_limit_out_of_range(limit):
    with pytest.raises(Exception) as refused:
        search(vocabulary="eurovoc", q="", limit=limit)
    assert refused.typename == "ValidationError" and list(refused.value.error_dict) == ["limit"]


def test_anyone_may_search_over_the_api(web):
    response = web.get("/api/3/action/passport_vocab_search", query_string={
        "vocabulary": "spatial_area", "q": "прага", "language": "ru", "limit": "1"})
    assert [id_and_label(unit) for unit in response.json["result"]] == [{"id": "CZ010", "label": "CZ010 Прага"}]


# --- the form ------------------------------------------------------------------------------------------------


@pytest.fixture
def curator() -> dict:
    user = factories.User()
    factories.Organization(name="csu", users=[{"name": user["name"], "capacity": "editor"}])
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


@pytest.fixture
def record() -> dict:
    return call_action(
        "package_create", {"user": factories.Sysadmin()["name"]},
        **complete_record(owner_org="csu", data_themes=["TRAN", "REGI"], accrual_periodicity="QUARTERLY"),
    )


def options(page: str, field: str) -> list[tuple[str, str, bool]]:
    select = BeautifulSoup(page, "html.parser").select_one(f"{DATASET_FORM} select#field-{field}")
    return [(option["value"], option.get_text(), option.has_attr("selected")) for option in select.select("option")]


def test_the_edit_form_holds_only_the_chosen_concepts_selected_and_labelled_in_the_reader_language(
    web, curator, record
):
    page = web.get(f"/cs/dataset/edit/{record['name']}", headers=curator).body
    assert options(page, "eurovoc-0-uri") == [("", "", False), (EUROVOC_DEMOGRAPHY, "2816 demografie a obyvatelstvo", True)]
    assert options(page, "cz_nace") == [
        ("84", "84 Veřejná správa a obrana; povinné sociální zabezpečení", True),
        ("O", "O Veřejná správa a obrana; povinné sociální zabezpečení", True),
    ]
    assert options(page, "spatial_area") == [("CZ0642", "CZ0642 Brno-město", True)]
    assert options(page, "data_themes") == [("TRAN", "Doprava", True), ("REGI", "Regiony a města", True)]


def test_each_vocabulary_field_searches_the_action_in_the_reader_language(web, curator):
    page = BeautifulSoup(web.get("/ru/dataset/new", headers=curator).body, "html.parser")
    for field, name in (("cz_nace", "cz_nace"), ("spatial_area", "spatial_area"), ("data_themes", "data_themes")):
        select = page.select_one(f"select#field-{field}")
        assert select["data-module"] == "passport-vocab-select"
        assert select["data-module-source"] == (
            f"/ru/api/3/action/passport_vocab_search?vocabulary={name}&language=ru"
        )


def test_the_edit_form_posted_as_rendered_without_a_script_keeps_every_chosen_concept(web, curator, record):
    page = web.get(f"/cs/dataset/edit/{record['name']}", headers=curator).body
    web.post(f"/cs/dataset/edit/{record['name']}", data=browser_post(page, DATASET_FORM), headers=curator)
    stored = call_action("package_show", id=record["id"])
    assert [item["uri"] for item in stored["eurovoc"]] == [EUROVOC_DEMOGRAPHY, EUROVOC_ECONOMICS]
    assert (stored["cz_nace"], stored["spatial_area"], stored["data_themes"]) == (["84", "O"], ["CZ0642"], ["TRAN", "REGI"])


@pytest.fixture
def full_eurovoc(cli, tmp_path, vocab_dir) -> None:
    loaded = cli.invoke(vocab_group, ["load", str(synthetic_eurovoc(tmp_path / "eurovoc.rdf", LOADED_CONCEPTS))])
    assert loaded.exit_code == 0, loaded.output
    assert len(list(vocab.vocabulary(vocab.EUROVOC))) == LOADED_CONCEPTS + 148


@pytest.mark.usefixtures("full_eurovoc")
@pytest.mark.parametrize("form", ["/cs/dataset/new", "/cs/dataset/edit/obyvatelstvo-obci"])
def test_with_a_7000_concept_eurovoc_loaded_the_dataset_form_stays_under_300_kb(web, curator, record, form):
    page = web.get(form, headers=curator).body
    assert len(page.encode()) <= FORM_SIZE_LIMIT
    assert "syntetický pojem" not in page


@pytest.mark.usefixtures("full_eurovoc")
def test_with_a_7000_concept_eurovoc_loaded_the_search_finds_a_loaded_concept_first():
    found = search(vocabulary="eurovoc", q="pojem číslo 6999", language="cs")
    assert id_and_label(found[0]) == {"id": "http://eurovoc.europa.eu/906999", "label": "syntetický pojem číslo 6999"}
