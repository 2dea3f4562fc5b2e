"""What a visitor reads on the search pages and in links (issue 24): no facet block without a value, no dataset
facets on the harvest sources' search, the sources' type and frequency by their titles, and web addresses shown
decoded (the link itself unchanged)."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from tests.support.catalog_records import complete_record
from ckan.tests import factories
from ckan.tests.helpers import call_action

from ckanext.passport.catalog.record.display import readable_url
from ckanext.passport.catalog.vocabularies.vocab import FACET_FIELDS

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]


def facet_headings(body: str) -> list[str]:
    soup = BeautifulSoup(body, "html.parser")
    return [h.get_text(strip=True) for h in soup.select("section.module-narrow h2.module-heading")]


@pytest.mark.ckan_config("ckanext.passport.initial_states", "draft published")
def test_the_dataset_search_shows_no_empty_facet_block(web):
    factories.Dataset(**complete_record(owner_org=factories.Organization()["id"], editorial_state="published"),
                      user=factories.Sysadmin())
    body = web.get("/en/dataset/").body
    headings = facet_headings(body)
    assert "Organizations" in headings and "EUROVOC" in headings
    for empty in ("Groups",):
        assert empty not in headings, headings
    # Every block shown has values.
    for section in BeautifulSoup(body, "html.parser").select("section.module-narrow.module-shallow"):
        assert section.select(".nav-facet li"), section.get_text(" ", strip=True)


def test_the_harvest_source_search_has_no_dataset_facets_and_titles_its_codes(web):
    sysadmin = factories.Sysadmin()
    source = {"url": "https://data.example.cz/opendata/", "source_type": "passport", "frequency": "WEEKLY",
              "title": "Zdroj", "name": "zdroj", "owner_org": factories.Organization()["id"]}
    call_action("harvest_source_create", {"user": sysadmin["name"]}, **source)
    body = web.get("/en/harvest/").body
    headings = facet_headings(body)
    for name in FACET_FIELDS.values():
        assert f"{name}=" not in body
    assert not {"EUROVOC", "CZ-NACE", "Territory"} & set(headings), headings
    labels = [a.get_text(" ", strip=True) for a in BeautifulSoup(body, "html.parser").select(".nav-facet .item-label")]
    assert "Weekly" in labels and "WEEKLY" not in labels, labels
    assert "passport" not in labels, labels


def test_a_web_address_is_shown_decoded():
    encoded = "https://minzdrav.example.ru/opendata/%D0%90%D0%BF%D1%82%D0%B5%D0%BA%D0%B8%20%D1%80%D0%B0%D0%B9%D0%BE%D0%BD%D0%B0.csv"
    assert readable_url(encoded) == "https://minzdrav.example.ru/opendata/Аптеки%20района.csv"
    # What would change how it reads, and bytes that are no UTF-8, stay encoded.
    assert readable_url("https://x.cz/a%2Fb?q=%FF") == "https://x.cz/a%2Fb?q=%FF"


def test_a_job_page_lets_a_long_encoded_address_wrap(web):
    """The job page quotes the addresses its errors failed on; long percent-encoded ones wrap, not widen it (the
    page carries the rule; that the error lines themselves are shown is ckanext-harvest's report)."""
    from ckanext.harvest.model import HarvestGatherError, HarvestJob

    sysadmin = factories.SysadminWithToken()
    source = call_action("harvest_source_create", {"user": sysadmin["name"]}, url="https://data.example.ru/opendata/",
                        source_type="passport", title="Источник", name="istochnik",
                        owner_org=factories.Organization()["id"])
    job = call_action("harvest_job_create", {"user": sysadmin["name"]}, source_id=source["id"], run=False)
    address = "https://data.example.ru/opendata/" + "%D0%90%D0%BF%D1%82%D0%B5%D0%BA%D0%B8" * 40 + ".csv"
    HarvestGatherError(message=f"[registry.not_discovered] {address}", job=HarvestJob.get(job["id"])).save()
    body = web.get(f"/en/harvest/{source['name']}/job/{job['id']}",
                   headers={"Authorization": sysadmin["token"]}).body
    assert "overflow-wrap: anywhere" in body


@pytest.mark.parametrize("path", ["/cs/opendata/", "/cs/lkod/"])
def test_the_catalog_pages_have_no_empty_tab_strip_above_them(web, path):
    page = BeautifulSoup(web.get(path).body, "html.parser")
    assert page.select_one(".page-header") is None
    assert not [tabs for tabs in page.select("ul.nav-tabs") if not tabs.select("li")]
