"""``/lkod/`` says why each record is left out as its people read it (issue 24: one line per resource × field, with
API field names): one block per record, each reason once, naming the field by its form label in the reader's
language and saying what to do; a resource field lacking in several resources is one sentence counting them.
"""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from tests.support.catalog_records import complete_resource
from ckan.tests import factories
from tests.support.lkod_view_records import LKOD_CONFIG_READ_ONLY, create, token

pytestmark = list(LKOD_CONFIG_READ_ONLY)

FILES = 3
# The record-level fields of the schema a reason may be about: none of their API names may show.
API_NAMES = ("use_personal_data", "use_author_work", "data_themes", "editorial_state", "publisher_id_scheme",
             "accrual_periodicity", "record_language")


def files(count: int) -> list[dict]:
    return [complete_resource(name=f"Soubor {n}", url=f"https://data.example.cz/soubor-{n}.csv") for n in range(count)]


def records_left_out() -> dict[str, dict]:
    org, sysadmin = factories.Organization(), factories.Sysadmin()
    return {
        "sysadmin": sysadmin,
        "files-without-personal-data": create(org, sysadmin, "files-without-personal-data",
                                              use_personal_data="", resources=files(FILES)),
        "no-themes": create(org, sysadmin, "no-themes"),
        "draft": create(org, sysadmin, "draft"),
        "russian": create(org, sysadmin, "russian", record_language="ru"),
        # Two drafts of one title in two organizations.
        "twin": create(org, sysadmin, "twin", title="Počet obyvatel", editorial_state="draft"),
        "other-twin": create(factories.Organization(title="Jiný úřad"), sysadmin, "other-twin",
                             title="Počet obyvatel", editorial_state="draft"),
    }


@pytest.fixture
def made(built_once) -> dict[str, dict]:
    return built_once("records", records_left_out)


def reasons_of(app, made: dict, name: str, lang: str = "en", user: dict | None = None) -> list:
    response = app.get(f"/{lang}/lkod/", headers=token(user or made["sysadmin"]))
    soup = BeautifulSoup(response.body, "html.parser")
    block = soup.select_one(f'.lkod-left-out-record[data-id="{made[name]["id"]}"]')
    return block.select(".lkod-reason")


def text(reason) -> str:
    return reason.select_one(".lkod-reason-text").get_text(" ", strip=True)


def test_a_field_lacking_in_several_resources_is_one_sentence_counting_them(web, made):
    reasons = reasons_of(web, made, "files-without-personal-data")

    assert [(r["data-code"], r["data-field"]) for r in reasons] == [
        ("lkod.missing_resource_field", "use_personal_data")
    ]
    assert text(reasons[0]).startswith(f"{FILES} resources do not say whether their data are personal data")
    assert "Soubor" not in text(reasons[0])


@pytest.mark.parametrize("lang, label, count_words", [("cs", "Osobní údaje", "3"), ("ru", "Персональные данные", "3"),
                                                      ("en", "Personal data", "3 resources")])
def test_the_counted_sentence_names_the_field_by_its_form_label_in_the_reader_s_language(
    web, made, lang, label, count_words
):
    sentence = text(reasons_of(web, made, "files-without-personal-data", lang)[0])

    assert label in sentence
    assert count_words in sentence


@pytest.mark.parametrize("lang, label", [("cs", "Témata dat (EU)"), ("ru", "Темы данных (ЕС)"),
                                         ("en", "Data themes (EU)")])
def test_a_missing_field_is_named_by_its_form_label_with_what_to_do(web, made, lang, label):
    reasons = reasons_of(web, made, "no-themes", lang)

    assert [r["data-code"] for r in reasons] == ["lkod.missing_field"]
    assert label in text(reasons[0])
    if lang == "en":
        assert text(reasons[0]) == "'Data themes (EU)' has no EU data theme: choose at least one."


@pytest.mark.parametrize("name", ["files-without-personal-data", "no-themes", "draft", "russian"])
def test_no_reason_shows_an_api_field_name(web, made, name):
    for lang in ("en", "cs", "ru"):
        for reason in reasons_of(web, made, name, lang):
            assert not any(re.search(rf"\b{api}\b", text(reason)) for api in API_NAMES), text(reason)


def test_a_draft_is_told_to_go_to_review(web, made):
    reasons = reasons_of(web, made, "draft")

    assert text(reasons[0]) == "The record is a draft: submit it for review, and an editor publishes it."


def test_a_record_in_another_language_is_told_its_language_and_to_write_in_czech(web, made):
    reasons = reasons_of(web, made, "russian", "cs")

    assert [r["data-code"] for r in reasons] == ["lkod.not_czech"]
    assert "Jazyk záznamu" in text(reasons[0])
    assert "ruština" in text(reasons[0])


def test_its_editors_are_linked_to_the_field_in_the_record_form(web, made):
    reason = reasons_of(web, made, "no-themes")[0]

    assert reason.select_one(".lkod-reason-fix")["href"].endswith("/dataset/edit/no-themes#field-data_themes")


def test_a_reader_who_may_not_edit_the_record_gets_no_link_to_its_form(web, made):
    stranger = factories.User()

    reasons = reasons_of(web, made, "no-themes", user=stranger)

    assert reasons and all(reason.select_one(".lkod-reason-fix") is None for reason in reasons)


def test_two_left_out_records_of_one_title_are_told_apart_by_their_name_and_organization(web, made):
    page = BeautifulSoup(web.get("/cs/lkod/", headers=token(made["sysadmin"])).body, "html.parser")

    def identity(name: str) -> str:
        block = page.select_one(f'.lkod-left-out-record[data-id="{made[name]["id"]}"]')
        return " ".join(block.select_one(".lkod-left-out-identity").get_text(" ").split())

    assert made["twin"]["title"] == made["other-twin"]["title"]
    assert identity("twin") == f"twin · {made['twin']['organization']['title']}"
    assert identity("other-twin") == "other-twin · Jiný úřad"
