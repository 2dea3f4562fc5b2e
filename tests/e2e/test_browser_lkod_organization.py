"""An organization's own catalog (LKOD) made from the web alone, in Czech, in a real browser.

A sysadmin gives the organization its IČO in the organization's form (publishers are who a sysadmin says they
are); its curator gives a record of it the English title, description and keywords and two territories in the
record's form, and submits it; an editor of the editors organization publishes it. The organization's catalog then
lists the record under the organization's IČO as publisher, /lkod/ offers that catalog to register, and the record's
document carries its English title beside the Czech one.
"""
from __future__ import annotations

import pytest
from tests.support.browser_walk import (EDITORS_ORG, PASSWORD, choose_in_vocabulary, module_started, save_dataset_form,
                                        sign_in)
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, Page, expect

from tests.support.catalog_records import complete_record

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG),
]

TOWN_ICO = "00064581"  # Statutární město Brno: a real IČO, its check digit right
RPP = "https://rpp-opendata.egon.gov.cz/odrpp/zdroj/orgán-veřejné-moci/"
TITLE_EN = "Population of municipalities"
NOTES_EN = "Number of inhabitants of every municipality."
# The territories' Czech labels as the form's search offers them: two regions.
REGIONS = {"CZ052": ("kralovehr", "Královéhradecký kraj"), "CZ053": ("pardub", "Pardubický kraj")}


@pytest.fixture
def cast(live_ckan: str) -> dict:
    """A sysadmin, the town's curator, an editor of the editors organization, and a draft record of the town
    complete for the national catalog but for its territory, made by its curator."""
    operator = factories.Sysadmin(name="spravce", password=PASSWORD)
    curator = factories.User(name="kurator", password=PASSWORD)
    editor = factories.User(name="redaktor", password=PASSWORD)
    town = factories.Organization(name="mesto-brno", title="Statutární město Brno", users=[
        {"name": curator["name"], "capacity": "editor"},
    ])
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    fields = complete_record(owner_org=town["id"], data_themes=["SOCI", "REGI"], accrual_periodicity="ANNUAL",
                             use_database_right="not-protected", use_personal_data="no-personal-data")
    fields.pop("spatial_area")
    record = call_action("package_create", {"user": curator["name"]}, **fields)
    return {"operator": operator, "curator": curator, "editor": editor, "town": town, "record": record}


def take_transition(page: Page, target: str) -> None:
    page.locator(f"form.passport-transition[data-target={target}] button[type=submit]").click()
    expect(page.locator(".passport-state .badge").first).to_have_attribute("data-state", target, timeout=30_000)


def test_an_organization_gets_its_ico_and_its_catalog_lists_a_record_published_in_czech_and_english(
    browser: Browser, live_ckan: str, cast
):
    town, record = cast["town"]["name"], cast["record"]

    operator = sign_in(browser, live_ckan, cast["operator"], locale="cs-CZ")
    operator.goto(f"/cs/organization/edit/{town}")
    expect(operator.locator("label[for=field-ico]")).to_have_text("IČO")
    operator.fill("#field-ico", TOWN_ICO)
    with operator.expect_navigation(timeout=30_000):
        operator.click("button.btn-primary[name=save]")
    expect(operator).to_have_url(f"{live_ckan}/cs/organization/{town}")
    operator.goto(f"/cs/organization/edit/{town}")
    expect(operator.locator("#field-ico")).to_have_value(TOWN_ICO)

    curator = sign_in(browser, live_ckan, cast["curator"], locale="cs-CZ")
    curator.goto(f"/cs/dataset/edit/{record['name']}")
    module_started(curator, "passport-field-target")  # the form's modules (the last of them) started
    curator.fill("#field-title_en", TITLE_EN)
    curator.fill("#field-notes_en", NOTES_EN)
    curator.fill("#field-keywords_en", "population, municipalities")
    for typed, label in REGIONS.values():
        choose_in_vocabulary(curator, "spatial_area", typed, label)
    save_dataset_form(curator)
    expect(curator).to_have_url(f"{live_ckan}/cs/dataset/{record['name']}")
    expect(curator.locator("tr[data-field=title_en] td")).to_have_text(TITLE_EN)
    expect(curator.locator("tr[data-field=keywords_en] td li")).to_have_text(["population", "municipalities"])
    expect(curator.locator("tr[data-field=spatial_area] td li")).to_have_text(
        [f"{code} {label}" for code, (_, label) in REGIONS.items()]
    )
    take_transition(curator, "submitted")

    editor = sign_in(browser, live_ckan, cast["editor"], locale="cs-CZ")
    editor.goto(f"/cs/dataset/{record['name']}")
    take_transition(editor, "published")
    expect(editor.locator(".passport-state .badge").first).to_have_text("Zveřejněno")

    catalog_url = f"{live_ckan}/lkod/organization/{town}/catalog"
    iri = f"{live_ckan}/lkod/dataset/{record['id']}"
    visitor = browser.new_context(base_url=live_ckan, locale="cs-CZ").new_page()
    catalog = visitor.request.get(catalog_url)
    assert catalog.ok, catalog.text()
    document = catalog.json()
    assert (document["iri"], document["datová_sada"], document["poskytovatel"]) == (catalog_url, [iri], RPP + TOWN_ICO)
    dataset = visitor.request.get(iri).json()
    assert dataset["název"] == {"cs": record["title"], "en": TITLE_EN}
    assert dataset["popis"]["en"] == NOTES_EN
    assert sorted(dataset["klíčové_slovo"]["en"]) == ["municipalities", "population"]

    visitor.goto("/cs/lkod/")
    row = visitor.locator(f"tr.lkod-organization[data-organization={town}]")
    expect(row.locator(".lkod-organization-catalog-url")).to_have_text(catalog_url)
    expect(row.locator(".lkod-organization-count")).to_have_text("1")
