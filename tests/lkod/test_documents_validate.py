"""The LKOD documents validate against the norm's JSON Schemas (resolved locally, see schema_registry)."""
from __future__ import annotations

import json
from pathlib import Path

import ckan.plugins.toolkit as tk
import pytest
from tests.support.lkod_records import CATALOG, HVD_CATEGORY, SITE_URL, lkod_record
from tests.support.schema_registry import errors

from ckanext.passport.lkod import iris, jsonld
from ckanext.passport.lkod.context import CONTEXT_URL

EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "dcat-ap-cz" / "příklady"


@pytest.fixture(autouse=True)
def site_url(monkeypatch):
    monkeypatch.setitem(tk.config, "ckan.site_url", SITE_URL)


@pytest.mark.parametrize(
    "example, schema",
    [("datová-sada.jsonld", "datová-sada.json"), ("datová-sada-hvd.jsonld", "datová-sada-hvd.json")],
)
def test_the_official_examples_validate_against_the_local_schemas(example, schema):
    assert errors(schema, json.loads((EXAMPLES / example).read_text(encoding="utf-8"))) == []


def test_the_dataset_document_of_a_complete_record_validates_against_the_dataset_schema():
    document = jsonld.dataset_document(lkod_record())
    assert errors("datová-sada.json", document) == []


def test_the_dataset_document_names_the_official_context_and_its_iri():
    document = jsonld.dataset_document(lkod_record())
    assert document["@context"] == CONTEXT_URL
    assert document["iri"] == f"{SITE_URL}/lkod/dataset/{lkod_record()['id']}"
    assert document["typ"] == "Datová sada"


def test_distributions_and_their_service_are_nested_in_the_dataset_document():
    record = lkod_record()
    document = jsonld.dataset_document(record)
    file, service = document["distribuce"]
    assert file["iri"] == iris.distribution_iri(record["id"], record["resources"][0]["id"])
    assert file["podmínky_užití"]["typ"] == "Specifikace podmínek užití"
    assert service["přístupová_služba"]["iri"] == iris.service_iri(record["id"], record["resources"][1]["id"])
    assert service["přístupová_služba"]["přístupový_bod"] == service["přístupové_url"]


def test_texts_are_language_maps_and_keywords_an_array_per_language():
    document = jsonld.dataset_document(lkod_record())
    assert document["název"] == {"cs": "Obyvatelstvo obcí"}
    assert document["klíčové_slovo"] == {"cs": ["obyvatelstvo", "obce"]}


RUSSIAN = {
    "record_language": "ru", "title": "Аптеки района", "notes": "Перечень аптек района",
    "publisher_name": "Администрация района", "tags": [{"name": "аптеки"}, {"name": "здоровье"}],
}


def _language_maps(node, found=None):
    """Every language-map key of the document's texts, with the term holding it."""
    found = [] if found is None else found
    if isinstance(node, dict):
        for term, value in node.items():
            if term in ("název", "popis", "klíčové_slovo", "jméno", "autor", "autor_databáze") and isinstance(value, dict):
                found += [(term, language) for language in value]
            else:
                _language_maps(value, found)
    elif isinstance(node, list):
        for item in node:
            _language_maps(item, found)
    return found


def test_a_russian_records_texts_are_russian_never_claimed_czech():
    """A Russian record was published as Czech: "název": {"cs": "Аптеки района …"} (issue 24)."""
    record = lkod_record(**RUSSIAN)
    document = jsonld.dataset_document(record)
    assert document["název"] == {"ru": "Аптеки района"}
    assert document["popis"] == {"ru": "Перечень аптек района"}
    assert document["klíčové_slovo"] == {"ru": ["аптеки", "здоровье"]}
    assert document["kontaktní_bod"]["jméno"] == {"ru": "Администрация района"}
    languages = _language_maps(document)
    assert {language for _, language in languages} == {"ru"}, languages
    assert {term for term, _ in languages} >= {"název", "popis", "klíčové_slovo", "jméno"}
    assert errors("datová-sada.json", document) == []


def test_the_turtle_of_a_russian_record_tags_its_texts_ru():
    turtle = jsonld.dataset_turtle(lkod_record(**RUSSIAN))
    assert '"Аптеки района"@ru' in turtle and "@cs" not in turtle


def test_a_record_naming_no_language_is_written_in_czech():
    document = jsonld.dataset_document(lkod_record(record_language=""))
    assert document["název"] == {"cs": "Obyvatelstvo obcí"}


def test_eurovoc_concepts_and_ruian_elements_get_their_own_terms():
    document = jsonld.dataset_document(lkod_record())
    assert document["téma"] == [str(iris.DATA_THEME["SOCI"]), str(iris.DATA_THEME["GOVE"])]
    assert all(concept.startswith(iris.EUROVOC) for concept in document["koncept_euroVoc"])
    assert document["prvek_rúian"] == [iris.RUIAN + "vusc/116"]


def test_an_hvd_record_document_validates_against_the_hvd_schema():
    document = jsonld.dataset_document(lkod_record(hvd_category=HVD_CATEGORY))
    assert errors("datová-sada-hvd.json", document) == []
    assert document["kategorie_hvd"] == [HVD_CATEGORY]


def test_a_record_without_hvd_category_does_not_validate_as_hvd():
    document = jsonld.dataset_document(lkod_record())
    assert errors("datová-sada-hvd.json", document) != []


def test_a_document_without_a_theme_fails_the_schema():
    document = jsonld.dataset_document(lkod_record(data_themes=[]))
    assert ": 'téma' is a required property" in errors("datová-sada.json", document)


def test_the_catalog_header_with_dataset_iris_validates_against_the_catalog_schema():
    header = jsonld.catalog_header(CATALOG)
    document = {**header, "datová_sada": [iris.dataset_iri(lkod_record()["id"])]}
    assert errors("katalog.json", document) == []
    assert header["iri"] == f"{SITE_URL}/lkod/catalog"
    assert "datová_sada" not in header


def test_the_catalog_header_names_its_publisher_contact_and_homepage():
    header = jsonld.catalog_header(CATALOG)
    assert header["poskytovatel"] == iris.RPP_PUBLISHER + "00025593"
    assert header["kontaktní_bod"]["e-mail"] == "mailto:opendata@example.cz"
    assert header["domovská_stránka"] == "https://data.example.cz/"
    assert header["název"] == {"cs": CATALOG["title"]}


def test_an_hvd_record_served_by_a_documented_service_alone_validates_against_the_hvd_schema():
    record = lkod_record(hvd_category=HVD_CATEGORY, documentation_url="")
    record["resources"] = [record["resources"][1]]
    assert errors("datová-sada-hvd.json", jsonld.dataset_document(record)) == []
