"""A visitor reads the portal in Russian, in a real browser (Debian's Chromium) against a live CKAN (issue 24).

The record is Rosstat's OKVED2 passport as a harvest stores it: 42 data versions and one structure version. Its page
shows the current data and structure versions and folds the earlier ones, says once that the openness check has not
run, and stays short: at most 3,000 px tall at 1280 px wide, its HTML at most 1.5 times that of the same record with
3 versions. What the visitor reads carries no raw stored values (ISO timestamps, state or MR part codes), dates in
the language's own order, and a language switcher that offers Czech, Russian and English with the current one chosen.
"""
from __future__ import annotations

import re

import pytest
import requests
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.harvested_records import harvested_dataset
from playwright.sync_api import Browser, expect

pytestmark = [
    pytest.mark.stack,
    pytest.mark.browser,
    pytest.mark.usefixtures("shared_plugins"),
    # The records are stored published, as a harvest into a site that publishes at once stores them.
    pytest.mark.ckan_config("ckanext.passport.initial_states", "draft published"),
]

RAW_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _store(org: str, name: str, keep: int | None = None) -> dict:
    dataset = harvested_dataset()
    if keep is not None:
        data = [r for r in dataset["resources"] if r["resource_type"] == "data"][:keep]
        dataset["resources"] = data + [r for r in dataset["resources"] if r["resource_type"] == "structure"]
    dataset["name"] = name
    if keep is not None:
        dataset["mr_identifier"] = dataset["mr_identifier"] + "-short"
    context = {"user": factories.Sysadmin()["name"], "ignore_auth": True, "passport_harvest": True}
    return call_action("package_create", context, owner_org=org, private=False,
                       editorial_state="published", **dataset)


@pytest.fixture
def records() -> tuple[dict, dict]:
    org = factories.Organization(name="rosstat", title="Росстат",
                                 description="Федеральная служба государственной статистики")
    return _store(org["id"], "okved2-long"), _store(org["id"], "okved2-short", keep=2)


def _visible_text(page) -> str:
    return page.locator("body").inner_text()


def test_a_visitor_reads_a_record_with_many_versions_in_russian(browser: Browser, live_ckan: str, records):
    long, short = records
    assert len(long["resources"]) == 43 and len(short["resources"]) == 3
    page = browser.new_page(base_url=live_ckan, locale="ru-RU", viewport={"width": 1280, "height": 900})
    page.goto(f"/ru/dataset/{long['name']}")

    height = page.evaluate("document.documentElement.scrollHeight")
    width = page.evaluate("document.documentElement.scrollWidth")
    long_html = len(requests.get(f"{live_ckan}/ru/dataset/{long['name']}", timeout=30).content)
    short_html = len(requests.get(f"{live_ckan}/ru/dataset/{short['name']}", timeout=30).content)
    print(f"height={height} width={width} html={long_html} short={short_html} ratio={long_html / short_html:.2f}")
    assert width <= 1280, width
    # 43 versions in about three screens; the record's validity row (its default shown, issue 41) is 38 px of it.
    assert height <= 3050, height
    # Every version stays in the page's RDFa (the passport page is this page): about 400 bytes each, folded.
    assert long_html <= 1.5 * short_html, (long_html, short_html)

    text = _visible_text(page)
    # Dates in the language's own order.
    assert re.search(r"1\sноября\s2025\sг\.", text)
    # The openness check that never ran: said once, not once per data source.
    assert "ещё не проверен" not in text and "not checked yet" not in text
    assert text.count("Проверка открытости источников данных ещё не проводилась.") == 1
    # The earlier versions are folded, the current ones shown.
    earlier = page.locator("#passport-data-versions details.passport-earlier-versions")
    expect(earlier.locator("summary")).to_have_text("41 более ранняя версия")
    expect(earlier.locator("li").first).not_to_be_visible()
    assert page.locator(".resource-list > li.resource-item:not(.passport-earlier-resources)").count() == 2
    # No raw stored values.
    assert not RAW_TIMESTAMP.search(text), RAW_TIMESTAMP.search(text)
    for raw in ("Stav: active", "MR part: data", "MR part: structure", ": active"):
        assert raw not in text, raw

    # The resource page: no empty rows, its MR part in words, its dates readable.
    page.goto(f"/ru/dataset/{long['name']}/resource/{long['resources'][0]['id']}")
    rows = page.locator("table.passport-resource-info tbody tr")
    empty = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())
             if not rows.nth(i).locator("td").inner_text().strip()]
    assert not empty, empty
    resource_text = _visible_text(page)
    assert "Версия данных" in resource_text and "\tdata\n" not in resource_text
    assert not RAW_TIMESTAMP.search(resource_text), RAW_TIMESTAMP.search(resource_text)

    # The language switcher: Czech, Russian and English, Russian chosen.
    options = page.locator("#field-lang-select option")
    languages = {options.nth(i).get_attribute("lang"): options.nth(i) for i in range(options.count())}
    assert {"cs", "ru", "en"} <= set(languages), set(languages)
    assert page.locator("#field-lang-select option[selected]").get_attribute("lang") == "ru"
    page.goto(f"/cs/dataset/{long['name']}")
    assert page.locator("#field-lang-select option[selected]").get_attribute("lang") == "cs"
    assert page.locator("#field-lang-select option[selected]").inner_text().strip() == "Čeština"
    assert re.search(r"1\.\slistopadu\s2025", _visible_text(page))


def test_a_visitor_reads_the_dataset_list_in_russian(browser: Browser, live_ckan: str, records):
    page = browser.new_page(base_url=live_ckan, locale="ru-RU", viewport={"width": 1280, "height": 900})
    page.goto("/ru/dataset/")
    text = _visible_text(page)
    assert "ОКВЭД2" in text
    # No facet block without a single value (no record here has CZ-NACE, EUROVOC or territory).
    for empty in ("CZ-NACE", "EUROVOC", "Территория"):
        assert page.locator("section.module-narrow", has_text=empty).count() == 0, empty
    assert page.locator("section.module-narrow", has_text="Росстат").count() == 1
    assert not RAW_TIMESTAMP.search(text)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
