"""The licences offered: the list the extension ships through CKAN's ``licenses_group_url``, with versions, and
their titles in the reader's language wherever a record's licence is shown."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action

from tests.support.catalog_records import complete_record
from ckanext.passport.catalog.vocabularies import licences

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

CC_BY = {
    "en": "Creative Commons Attribution 4.0 (CC BY 4.0)",
    "cs": "Creative Commons Uveďte původ 4.0 (CC BY 4.0)",
    "ru": "Creative Commons «Атрибуция» 4.0 (CC BY 4.0)",
}


@pytest.fixture
def curator() -> dict:
    user = factories.User()
    factories.Organization(name="csu", users=[{"name": user["name"], "capacity": "editor"}])
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


def _picker(page: str) -> dict[str, str]:
    select = BeautifulSoup(page, "html.parser").select_one("select#field-license_id")
    return {option["value"]: option.get_text() for option in select.select("option")}


def test_ckan_reads_the_shipped_list_keeping_ckans_ids_for_the_same_licences():
    register = model.Package.get_license_register()
    assert register["cc-by"].url == "https://creativecommons.org/licenses/by/4.0/"
    assert register["cc-by-sa"].url == "https://creativecommons.org/licenses/by-sa/4.0/"
    assert register["cc-zero"].url == "https://creativecommons.org/publicdomain/zero/1.0/"
    assert {"odc-by", "odc-odbl", "odc-pddl", "cz-no-conditions"} <= set(register.keys())
    assert not {"uk-ogl", "gfdl"} & set(register.keys())


def test_the_czech_picker_names_each_licence_with_its_version_so_typing_cc_by_finds_it(web, curator):
    offered = _picker(web.get("/cs/dataset/new", headers=curator).body)
    assert offered["cc-by"] == CC_BY["cs"]
    assert offered["cc-zero"] == "Creative Commons Zero 1.0, volné dílo (CC0 1.0)"
    assert offered["cz-no-conditions"].startswith("Bez podmínek užití")
    assert [title for title in offered.values() if "CC BY" in title][0] == CC_BY["cs"]


def test_a_licence_missing_from_the_list_stays_offered_on_the_edit_form():
    assert licences.options("uk-ogl")[0] == ("uk-ogl", "uk-ogl")


@pytest.mark.parametrize("language", ["cs", "ru", "en"])
def test_the_record_page_shows_the_licence_in_the_readers_language_not_the_savers(web, curator, language):
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **complete_record(owner_org="csu"))
    page = web.get(f"/{language}/dataset/obyvatelstvo-obci", headers=curator).body
    assert CC_BY[language] in page
    assert not [title for other, title in CC_BY.items() if other != language and title in page]


def test_package_show_and_search_give_the_title_in_the_requests_language(web, curator):
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **complete_record(owner_org="csu"))
    shown = web.get("/ru/api/3/action/package_show?id=obyvatelstvo-obci", headers=curator).json["result"]
    assert shown["license_id"] == "cc-by"
    assert shown["license_title"] == CC_BY["ru"]
    found = web.get("/cs/api/3/action/package_search?facet.field=[\"license_id\"]", headers=curator).json["result"]
    assert found["results"][0]["license_title"] == CC_BY["cs"]
    assert found["search_facets"]["license_id"]["items"][0]["display_name"] == CC_BY["cs"]
