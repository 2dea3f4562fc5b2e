"""The local catalog (LKOD) as its people use it, in a real browser.

A curator finds on the Czech /lkod/ page that a published record with a Russian INN publisher (as an MR harvest
leaves it) is left out of the national catalog and why, gives it its Czech IČO publisher in the record form, and
a visitor then finds it counted on the page and listed in the catalog document. A validator running in a page of
another origin (as the public LKOD validator does) reads the catalog document across origins.
"""
from __future__ import annotations

import re

import pytest
import rdflib
import requests
from tests.support.browser_walk import PASSWORD, module_started, save_dataset_form, sign_in
from ckan.tests import factories
from ckan.tests.helpers import call_action
from playwright.sync_api import Browser, expect

from tests.support.catalog_records import CZSO_ICO, ROSSTAT_INN
from tests.support.lkod_records import lkod_record

from ckanext.passport.lkod import context
from ckanext.passport.lkod.left_out import NO_ICO_PUBLISHER
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins")]

DCAT_DATASET = rdflib.URIRef("http://www.w3.org/ns/dcat#dataset")


def _listed(catalog_url: str) -> set[str]:
    graph = context.parse_jsonld(requests.get(catalog_url, timeout=30).content)
    return {str(iri) for iri in graph.objects(rdflib.URIRef(catalog_url), DCAT_DATASET)}


@pytest.fixture
def curator_and_inn_record(live_ckan: str) -> tuple[dict, dict]:
    """A published public record, complete for the LKOD except its publisher: a Russian INN."""
    curator = factories.User(name="kuratorka", password=PASSWORD)
    org = factories.Organization(name="csu", users=[{"name": curator["name"], "capacity": "editor"}])
    sysadmin = {"user": factories.Sysadmin()["name"]}
    fields = lkod_record(
        publisher_id_scheme="inn", publisher_id=ROSSTAT_INN, publisher_name="Росстат", tag_string="obyvatelstvo,obce"
    )
    for key in ("id", "tags", "editorial_state"):
        fields.pop(key)
    for resource in fields["resources"]:
        resource.pop("id", None)
    record = call_action("package_create", sysadmin, **dict(fields, owner_org=org["id"]))
    for state in ("submitted", "published"):
        call_action("passport_workflow_transition", sysadmin, id=record["id"], to=state)
    return curator, record


def test_a_curator_gives_a_left_out_record_its_ico_publisher_and_a_visitor_finds_it_in_the_catalog(
    browser: Browser, live_ckan: str, curator_and_inn_record
):
    curator, record = curator_and_inn_record
    catalog_url = f"{live_ckan}/lkod/catalog"
    iri = f"{live_ckan}/lkod/dataset/{record['id']}"
    assert iri not in _listed(catalog_url)
    before = browser.new_page(base_url=live_ckan, locale="cs")
    before.goto("/cs/lkod/")
    expect(before.locator(".lkod-listed")).to_have_text("Počet záznamů v katalogu: 0")

    page = sign_in(browser, live_ckan, curator, locale="cs")
    page.goto("/cs/lkod/")
    row = page.locator(f".lkod-left-out-record[data-id='{record['id']}']")
    reason = row.locator(".lkod-reason-text")
    expect(reason).to_have_text(translator("cs")(NO_ICO_PUBLISHER).format(label="Druh identifikátoru"))
    expect(row.locator(f"h3 a[href$='/dataset/{record['name']}']")).to_have_text(record["title"])
    row.locator(".lkod-reason-fix").click()
    expect(page).to_have_url(f"{live_ckan}/cs/dataset/edit/{record['name']}#field-publisher_id_scheme")
    module_started(page, "passport-field-target")  # the form's modules (the last of them) started: a curator fills
    page.select_option("#field-publisher_id_scheme", "ico")
    page.fill("#field-publisher_id", CZSO_ICO)
    page.fill("#field-publisher_name", "Český statistický úřad")
    save_dataset_form(page)
    # The browser keeps the form's fragment across the save's redirect.
    expect(page).to_have_url(re.compile(rf"{re.escape(live_ckan)}/cs/dataset/{record['name']}(#.*)?$"))

    visitor = browser.new_page(base_url=live_ckan, locale="cs")
    visitor.goto("/cs/lkod/")
    expect(visitor.locator(".lkod-catalog-url")).to_have_text(catalog_url)
    expect(visitor.locator(".lkod-listed")).to_have_text("Počet záznamů v katalogu: 1")
    expect(visitor.locator(".lkod-left-out")).to_have_count(0)
    assert iri in _listed(catalog_url)


def test_a_validator_in_a_page_of_another_origin_reads_the_catalog(
    browser: Browser, live_ckan: str, curator_and_inn_record, tmp_path, serve_site
):
    (tmp_path / "validator").mkdir()
    (tmp_path / "validator" / "index.html").write_text("<!doctype html><title>validator</title>", encoding="utf-8")
    validator = serve_site(tmp_path / "validator")
    page = browser.new_page()
    page.goto(f"{validator.url}/index.html")
    status, document = page.evaluate(
        "async (url) => { const r = await fetch(url); return [r.status, await r.json()]; }", f"{live_ckan}/lkod/catalog"
    )
    assert status == 200
    assert document["@context"] == context.CONTEXT_URL
    assert document["iri"] == f"{live_ckan}/lkod/catalog"
