"""A portal admin reads the Conformance tab of a source one of whose entries was refused (its identifier held by
another source's record): the entry shows "not imported" instead of a score, the summary counts it apart, the mean
score is that of the passports imported, and the refusal names the source that holds the record."""
from __future__ import annotations

import json
import re
import shutil

import pytest
from tests.support.browser_walk import PASSWORD, sign_in
from ckan.tests import factories
from playwright.sync_api import Browser, expect

pytestmark = [
    pytest.mark.stack, pytest.mark.browser, pytest.mark.usefixtures("shared_plugins"),
    pytest.mark.ckan_config("ckanext.passport.review_scope", "none"),
]

ALLOW = {"allow_private_addresses": True}
TAKEN = "7709876545-pharmacies"
NIGHT = "7709876545-nightpharmacies"
HOLDER = "Pharmacies of the city"


def test_a_refused_entry_is_shown_not_imported_and_out_of_the_mean(
    browser: Browser, live_ckan: str, demo_site, tmp_path, serve_site, harvest_source, run_harvest
):
    run_harvest(harvest_source(f"{demo_site.url}/opendata/list.json", ALLOW, name="city", title=HOLDER))
    other = tmp_path / "other"
    shutil.copytree(demo_site.root, other)
    (other / "opendata" / NIGHT).mkdir()
    passport = (other / "opendata" / TAKEN / "meta.csv").read_bytes().replace(TAKEN.encode(), NIGHT.encode())
    (other / "opendata" / NIGHT / "meta.csv").write_bytes(passport)
    registry = other / "opendata" / "list.json"
    data = json.loads(registry.read_text("utf-8"))
    taken = next(e for e in data["meta"] if e["identifier"] == TAKEN)
    data["meta"] = [taken, {**taken, "identifier": NIGHT, "link": f"/opendata/{NIGHT}/meta.csv"}]
    registry.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    run_harvest(harvest_source(f"{serve_site(other).url}/opendata/list.json", ALLOW, name="night"))
    page = sign_in(browser, live_ckan, factories.Sysadmin(password=PASSWORD))

    page.goto("/harvest/night/conformance")
    refused = page.locator(f'.passport-conformance-row[data-identifier="{TAKEN}"]')
    expect(refused.locator(".passport-score")).to_have_text("not imported")
    expect(refused.locator('[data-code="harvest.identifier_taken"]')).to_contain_text(f"the harvest source {HOLDER}")
    imported = page.locator(f'.passport-conformance-row[data-identifier="{NIGHT}"]').get_attribute("data-score")
    expect(page.locator("[data-summary=refused]")).to_have_text("1")
    expect(page.locator("[data-summary=read]")).to_have_text("1")
    expect(page.locator("[data-summary=mean_score]")).to_have_text(re.compile(rf"^{imported}(\.0)?$"))
