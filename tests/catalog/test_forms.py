"""The dataset form: grouped parts in the reader's language, repeating fields, errors beside their field."""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.tests.helpers import call_action

from tests.support.catalog_records import complete_record, complete_resource

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


@pytest.fixture
def curator() -> dict:
    user = factories.User()
    factories.Organization(name="csu", users=[{"name": user["name"], "capacity": "editor"}])
    return {"Authorization": factories.APIToken(user=user["name"])["token"]}


def _group_headings(page: str) -> list[str]:
    return re.findall(r'<h2 class="passport-form-group[^"]*" id="group-[a-z_]+">([^<]+)</h2>', page)


@pytest.mark.parametrize(
    "language, headings",
    [
        ("cs", ["Poskytovatel dat", "Podmínky užití dat", "Vazba na ISVS a ISDP", "Klasifikace záznamu",
                "Geografické území", "Národní katalog (LKOD)"]),
        ("ru", ["Поставщик данных", "Условия использования", "Связь с ISVS и ISDP", "Классификация", "Территория",
                "Национальный каталог (LKOD)"]),
    ],
)
def test_form_groups_the_record_parts_in_the_reader_language(web, curator, language, headings):
    page = web.get(f"/{language}/dataset/new", headers=curator).body
    assert _group_headings(page) == headings


def test_form_offers_every_openness_condition_and_repeating_parts(web, curator):
    page = web.get("/en/dataset/new", headers=curator).body
    for condition in ("complete", "accessible", "machine_readable", "open_format", "open_terms", "free"):
        assert f'name="openness_conditions-{condition}"' in page
    for repeating in ("isdp_elements", "related_records", "eurovoc"):
        assert f'data-field="{repeating}"' in page  # the add/remove template of scheming's repeating subfields
    assert 'name="editorial_state"' not in page


def test_form_errors_are_shown_beside_their_field(web, curator):
    page = web.get("/cs/dataset/new", headers=curator).body
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)
    form = {
        "_csrf_token": token, "save": "continue", "_ckan_phase": "dataset_new_1",
        "title": "Školy", "name": "skoly", "notes": "Rejstřík škol", "owner_org": "csu",
        "record_language": "cs", "record_validity": "valid", "publisher_id_scheme": "ico",
        "publisher_id": "00025594", "publisher_name": "MŠMT", "publisher_email": "posta@msmt,cz",
        "eurovoc-0-uri": "http://eurovoc.europa.eu/100150", "eurovoc-0-label": "",
        **{f"openness_conditions-{c}": "yes" for c in ("complete", "accessible", "machine_readable", "open_format", "open_terms")},
    }
    page = web.post("/cs/dataset/new", data=form, headers=curator).body
    assert "Kontrolní číslice tohoto IČO je chybná" in page
    assert "Toto není platná e-mailová adresa" in page
    assert "U každé podmínky otevřenosti uveďte, zda ji data splňují" in page
    publisher_id = page.index('id="field-publisher_id"')
    assert publisher_id < page.index("Kontrolní číslice tohoto IČO je chybná", publisher_id) < page.index('id="field-publisher_name"')


def test_dataset_page_shows_every_attribute_readably(web, curator):
    sysadmin = factories.Sysadmin()
    call_action("package_create", {"user": sysadmin["name"]}, **complete_record(owner_org="csu"))
    page = web.get("/cs/dataset/obyvatelstvo-obci", headers=curator).body
    for shown in (
        "Český statistický úřad", "00025593", "infoservis@czso.cz", "Veřejná databáze ČSÚ", "ISDP-OBEC-KOD",
        "nahrazuje", "demografie a obyvatelstvo", "EKONOMIKA", "Veřejná správa a obrana", "Brno-město",
        "Úplná: zveřejněna jsou všechna data", "splněno", "nesplněno",
    ):
        assert shown in page, shown


def test_form_offers_the_national_catalog_fields_in_czech(web, curator):
    page = web.get("/cs/dataset/new", headers=curator).body
    themes = page.index('id="field-data_themes"')
    assert "passport_vocab_search?vocabulary=data_themes" in page[themes:page.index(">", themes)]  # searched
    periodicity = page.index('id="field-accrual_periodicity"')
    assert "čtvrtletně" in page[periodicity:page.index("</select>", periodicity)]
    for field in ("temporal_start", "temporal_end", "documentation_url", "hvd_category", "use_author",
                  "use_database_author"):
        assert f'id="field-{field}"' in page, field
    condition = page.index('id="field-use_personal_data"')
    assert "Neuvedeno (licence o tom nerozhoduje)" in page[condition:page.index("</select>", condition)]


def test_the_edit_form_names_the_condition_the_licence_decides(web, curator):
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **complete_record(owner_org="csu"))
    page = web.get("/cs/dataset/edit/obyvatelstvo-obci", headers=curator).body
    author_work = page.index('id="field-use_author_work"')
    assert '<option value="" selected>Podle licence: Licencováno pod CC BY 4.0</option>' in page[author_work:]
    right = page.index('id="field-use_database_right"')
    assert "Neuvedeno (licence o tom nerozhoduje)" in page[right:page.index("</select>", right)]


def test_dataset_page_shows_national_catalog_fields_and_the_conditions_that_hold(web, curator):
    record = complete_record(
        owner_org="csu", data_themes=["TRAN", "REGI"], accrual_periodicity="QUARTERLY",
        use_personal_data="no-personal-data",
    )
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **record)
    page = BeautifulSoup(web.get("/cs/dataset/obyvatelstvo-obci", headers=curator).body, "html.parser")

    def row(field: str) -> str:
        return " ".join(page.select_one(f'tr[data-field="{field}"] td').get_text(" ").split())

    assert row("data_themes") == "Doprava Regiony a města"
    assert row("accrual_periodicity") == "čtvrtletně"
    assert row("use_author_work") == "Licencováno pod CC BY 4.0 (odvozeno z licence)"
    assert row("use_author") == "Český statistický úřad (poskytovatel, neboť licence vyžaduje uvést autora)"
    assert row("use_personal_data") == "Neobsahuje osobní údaje"
    assert page.select_one('tr[data-field="use_database_right"]') is None  # undecided: no row


def test_resource_page_shows_the_datasets_conditions_as_holding_for_it(web, curator):
    record = complete_record(
        owner_org="csu", use_personal_data="no-personal-data",
        resources=[complete_resource(use_database_right="not-protected")],
    )
    created = call_action("package_create", {"user": factories.Sysadmin()["name"]}, **record)
    resource_id = created["resources"][0]["id"]
    page = web.get(f"/cs/dataset/obyvatelstvo-obci/resource/{resource_id}", headers=curator).body
    text = " ".join(BeautifulSoup(page, "html.parser").get_text(" ").split())
    assert "Neobsahuje osobní údaje (stejně jako u celé datové sady)" in text
    assert "Licencováno pod CC BY 4.0 (odvozeno z licence)" in text
    assert "Není chráněna zvláštním právem pořizovatele databáze" in text


def test_the_resource_form_names_the_datasets_condition_as_the_blank_choice(web, curator):
    record = complete_record(owner_org="csu", use_personal_data="no-personal-data")
    call_action("package_create", {"user": factories.Sysadmin()["name"]}, **record)
    page = web.get("/cs/dataset/obyvatelstvo-obci/resource/new", headers=curator).body
    personal = page.index('id="field-use_personal_data"')
    assert '<option value="" selected>Stejně jako datová sada: Neobsahuje osobní údaje</option>' in page[personal:]
    right = page.index('id="field-use_database_right"')
    assert "Stejně jako datová sada (neuvedeno)" in page[right:page.index("</select>", right)]


def _organization_chosen(app, organizations: int) -> tuple[str, str]:
    user = factories.User()
    for number in range(organizations):
        factories.Organization(name=f"urad-{number}", title=f"Úřad {number}",
                               users=[{"name": user["name"], "capacity": "editor"}])
    headers = {"Authorization": factories.APIToken(user=user["name"])["token"]}
    select = BeautifulSoup(app.get("/cs/dataset/new", headers=headers).body, "html.parser").select_one(
        "#field-organizations")
    chosen = select.select_one("option[selected]")
    return chosen["value"] if chosen else None, chosen.get_text(strip=True) if chosen else None


def test_a_curator_of_several_organizations_starts_the_record_at_choosing_one(web):
    assert _organization_chosen(web, 2) == ("", "Vyberte organizaci")


def test_a_curator_of_one_organization_has_it_preselected(web):
    assert _organization_chosen(web, 1)[1] == "Úřad 0"
