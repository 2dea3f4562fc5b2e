"""One dataset page carries what every plugin adds to it, under ckanext-scheming's own dataset page.

ckanext-scheming's ``scheming/package/read.html`` replaces the ``package_additional_info`` block without
``super()``: whatever the catalog or publish templates put there would silently vanish. This page is rendered
for a curator, on a record that went through the workflow, with the catalog schema test.ini configures.
"""
from __future__ import annotations

import io
import re

import pytest
from bs4 import BeautifulSoup
from tests.support.catalog_records import complete_record, complete_resource
from tests.support.factories import HarvestedRecord
from ckan.tests import factories
from ckan.tests.helpers import call_action
from pyRdfa import pyRdfa
from rdflib import Literal, Namespace

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

DC = Namespace("http://purl.org/dc/terms/")
SITE = "http://test.ckan.net"


@pytest.fixture
def returned_record() -> tuple[dict, dict]:
    """A record with MR data and structure versions, submitted by its curator and returned by an editor."""
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    record = factories.Dataset(
        **complete_record(
            owner_org=org["id"],
            name="obyvatelstvo-obci",
            mr_identifier="7708234640-obyvatelstvo",
            resources=[
                complete_resource(resource_type="data", mr_version="20240101T0000",
                                  mr_structure_version="20230101T0000"),
                complete_resource(url="https://data.example.cz/obyvatelstvo.schema.json", format="JSON",
                                  mimetype="application/json", mimetype_inner="", resource_type="structure",
                                  mr_version="20230101T0000"),
            ],
        ),
        user=curator,
    )
    call_action("passport_workflow_transition", {"user": curator["name"]}, id=record["id"], to="submitted")
    call_action("passport_workflow_transition", {"user": factories.Sysadmin()["name"]}, id=record["id"],
                to="returned", comment="Doplňte prosím popis struktury")
    return record, curator


def test_dataset_page_shows_workflow_feedback_openness_and_passport(web, returned_record):
    record, curator = returned_record
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body

    # The workflow panel: state badge, the curator's transition, the history with the editor's comment.
    assert re.search(r'<span class="badge [^"]*passport-state-returned" data-state="returned">', page)
    assert 'id="passport-workflow"' in page
    assert re.search(r'<form [^>]*class="passport-transition[^"]*" data-target="submitted">', page)
    assert 'class="table table-sm passport-history"' in page
    assert "Doplňte prosím popis struktury" in page
    # The public feedback form.
    assert 'id="passport-feedback"' in page and 'class="passport-feedback-form"' in page
    # The conditions of use: each condition with its fulfilment, and the openness check beside them.
    assert page.count('class="passport-condition passport-condition-') == 6
    assert page.count('class="passport-openness-results"') == 1
    assert page.index(' passport-conditions ') < page.index('class="passport-openness-results"')
    # The publish plugin's passport table, stating the record's MR identifier in RDFa: a plain literal, an
    # identifier being in no language (rdflib's Literal equality includes the language tag).
    assert 'class="additional-info passport-publication"' in page
    graph = pyRdfa(base=f"{SITE}/en/dataset/{record['name']}", media_type="text/html").graph_from_source(
        io.BytesIO(page.encode("utf-8")))
    assert set(graph.objects(predicate=DC.identifier)) == {Literal("7708234640-obyvatelstvo")}


def test_record_without_conditions_still_shows_the_openness_check_once(web):
    """A harvested record the curator has not completed has no conditions checklist; the check results stay."""
    sysadmin = factories.SysadminWithToken()
    org = factories.Organization()
    harvested = {key: value for key, value in complete_record(owner_org=org["id"]).items()
                 if key not in ("openness_conditions", "eurovoc")}
    record = call_action("package_create", {"user": sysadmin["name"], "passport_harvest": True}, **harvested)
    assert "openness_conditions" not in call_action("package_show", id=record["id"])
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": sysadmin["token"]}).body
    assert 'class="passport-condition passport-condition-' not in page
    assert page.count('class="passport-openness-results"') == 1
    # Never checked: one line saying so, not a line per data source (issue 24).
    assert page.count('class="passport-openness-not-run') == 1
    assert "The openness check has not run on the data sources yet." in page


# --- the record's table: filled fields to visitors, missing required ones to whoever completes the record ------

# What a harvested record lacks of the required fields (HarvestedRecord): the curator's part. Its validity is
# not among them: left empty, it holds its default, as the edit form fills it in and a submission stores it; the
# page shows it so (VALIDITY, in the reader's language), to visitors and curators alike.
HARVEST_LACKS = ["publisher_email", "openness_conditions", "eurovoc"]
VALIDITY = {"en": "Valid", "cs": "Platný", "ru": "Действительна"}
LABELS = {
    "en": ["Provider contact e-mail", "Openness conditions", "EUROVOC concepts"],
    "cs": ["Kontaktní e-mail poskytovatele", "Přehled splnění podmínek otevřenosti", "Koncepty EUROVOC"],
    "ru": ["Контактный e-mail поставщика", "Выполнение условий открытости", "Понятия EUROVOC"],
}


@pytest.fixture
def harvested() -> tuple[dict, dict]:
    """A harvested record lacking the curator's part, and its curator."""
    curator = factories.User()
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    return HarvestedRecord(owner_org=org["id"]), curator


def record_table(page: str) -> list[tuple[str, str]]:
    """The rows of the record's "Additional info" table: field name → the text shown for it."""
    soup = BeautifulSoup(page, "html.parser")
    return [(row["data-field"], row.td.get_text(" ", strip=True)) for row in soup.select("tr[data-field]")]


@pytest.mark.ckan_config("ckanext.passport.review_scope", "none")
def test_a_visitor_sees_only_the_records_filled_fields(web, harvested):
    record, _ = harvested
    page = web.get(f"/en/dataset/{record['name']}").body
    rows = record_table(page)
    assert rows and all(text for _, text in rows)
    assert {"mr_identifier", "publisher_id", "publisher_name"} <= {name for name, _ in rows}
    assert not {"isvs_name", "cz_nace", "spatial_area", "record_kind", *HARVEST_LACKS} & {name for name, _ in rows}
    assert ("record_validity", VALIDITY["en"]) in rows
    assert "passport-missing" not in page


@pytest.mark.parametrize("locale", ["en", "cs", "ru"])
def test_a_curator_is_shown_the_missing_required_fields_with_a_link_to_complete_them(web, harvested, locale):
    record, curator = harvested
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/{locale}/dataset/{record['name']}", headers={"Authorization": token}).body
    soup = BeautifulSoup(page, "html.parser")
    notice = soup.select_one(".passport-missing")
    assert [item.get_text(strip=True) for item in notice.select("li")] == LABELS[locale]
    links = [item.select_one("a")["href"] for item in notice.select("li")]
    assert all(link.split("#")[0].endswith(f"/dataset/edit/{record['name']}") and "#field-" in link for link in links)
    assert [row["data-field"] for row in soup.select("tr.passport-missing-field")] == HARVEST_LACKS
    assert ("record_validity", VALIDITY[locale]) in record_table(page)
    assert all(text for name, text in record_table(page))


def test_a_complete_record_shows_its_curator_no_missing_fields(web, returned_record):
    record, curator = returned_record
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body
    assert "passport-missing" not in page
