"""What browser walks share besides fixtures: the users' password, the editors organization, signing in, saving a
dataset's edit form, the accessibility check every walk runs on every page it visits."""
from __future__ import annotations

import re
import time
from pathlib import Path

import axe_playwright_python
from tests.support.harvest_processes import HarvestProcesses
from playwright.sync_api import Browser, Page, expect

EDITORS_ORG = "redakce"
PASSWORD = "Workflow-pass-2024"


def sign_in(browser: Browser, base_url: str, user: dict, locale: str = "en-GB") -> Page:
    """A new browser context signed in as ``user`` (created with :data:`PASSWORD`)."""
    page = browser.new_context(base_url=base_url, locale=locale).new_page()
    page.goto("/user/login")
    page.fill("#field-login", user["name"])
    page.fill("#field-password", PASSWORD)
    page.press("#field-password", "Enter")
    page.wait_for_url("**/dashboard/datasets")
    return page


def save_dataset_form(page: Page) -> None:
    """Press the dataset edit form's save button (CKAN 2.12 puts an Unpublish button, also ``name=save``, which makes
    the dataset a draft, before it) and wait for the page the save answers with: on a loaded machine a save (the
    record written, indexed and judged for the LKOD) can take longer than an expectation's 5 s."""
    with page.expect_navigation(timeout=30_000):
        page.click("button.btn-primary[name=save]")


def choose_in_vocabulary(page: Page, field: str, typed: str, label: str | re.Pattern) -> None:
    """Find a concept of a vocabulary field (EUROVOC, CZ-NACE, territory, data themes) as a curator does: open the
    field, type part of its label or its code, pick it among what the search offers."""
    # CKAN starts its modules once the page's translations arrive, which may be after the page has loaded: the field
    # is searchable when its id has moved to select2's container.
    page.locator(f"#field-{field}.select2-container").wait_for()
    four = page.locator(f"#field-{field}:has(.select2-selection)")  # select2 4 (CKAN 2.12)
    if four.count():
        four.click()
        page.keyboard.type(typed)
        page.locator(".select2-container--open .select2-results__option", has_text=label).click()
        return
    several = page.locator(f"#field-{field}.select2-container-multi input.select2-input")  # typed in place
    (several if several.count() else page.locator(f"#field-{field}")).click()
    page.keyboard.type(typed)
    page.locator(".select2-drop-active .select2-result-label", has_text=label).click()


REHARVEST = {"en": ("Reharvest", "Harvest will start shortly"), "cs": ("Sklidit znovu", "Sklizeň brzy začne"),
             "ru": ("Собрать заново", "Сбор скоро начнётся")}


def reharvest(page: Page, admin: str, language: str = "en") -> None:
    """The "Reharvest" button of the source's admin page (in the page's ``language``), confirmed in its dialog."""
    button, started = REHARVEST[language]
    page.goto(admin)
    module_started(page, "confirm-action")  # before it, the button is a bare link that asks nothing
    page.get_by_role("link", name=button).click()
    page.locator(".modal-footer .btn-primary").click()
    # The confirmation posts, creates the job and queues it before the page comes back: on a loaded machine that
    # takes longer than expect's default 5 s.
    expect(page.locator(".flash-messages, .alert").first).to_contain_text(started, timeout=30_000)


def module_started(page: Page, module: str) -> None:
    """Wait until CKAN has started the page's ``module``: CKAN starts its modules once the page's translations
    arrive, which on a loaded machine can be seconds after the page has loaded."""
    page.wait_for_function("name => !!(window.ckan && ckan.module && ckan.module.instances[name])", arg=module)


def wait_for_finished_job(page: Page, admin: str, machinery: HarvestProcesses, seconds: float = 60) -> None:
    """Reload the admin page, as an admin would, until it shows the last job finished with its counts. The page
    counts a running job's objects too, so the job's status is read from the API in the admin's session."""
    name = admin.rstrip("/").rsplit("/", 1)[-1]
    source = page.request.get(f"/api/3/action/harvest_source_show?id={name}").json()["result"]["id"]
    deadline = time.monotonic() + seconds
    while True:
        status = page.request.get(f"/api/3/action/harvest_source_show_status?id={source}").json()["result"]
        if (status.get("last_job") or {}).get("status") == "Finished":
            page.goto(admin)
            if page.locator(".badge[data-diff=added]").count():
                return
        assert time.monotonic() < deadline, "the job did not finish within a minute\n" + machinery.log_tails()
        time.sleep(2)


def expect_counts(page: Page, **counts: int) -> None:
    """The last job's badges: ``error``, ``added``, ``updated``, ``deleted``, ``not_modified``."""
    for action, count in counts.items():
        badge = page.locator(f".badge[data-diff='{action.replace('_', ' ')}']")
        expect(badge).to_have_text(re.compile(rf"^\s*{count}\s"))


# Accessibility: every page a walk visits is checked by axe-core (the copy in axe-playwright-python's wheel, nothing
# fetched) against WCAG 2.1 A and AA. A violation fails the walk when one of its nodes lies in what the extension
# draws. The extension's templates name their parts with classes and ids holding "passport", "lkod" or "opendata"
# (passport-workflow, lkod-organizations, opendata-list-error, ...): a node lies in the extension's templates when
# it, or an element around it, matches EXTENSION_PARTS. A template of the extension whose outer element carries no
# such name gets one (templates/catalog/passport/form/vocab_select.html: passport-vocab-select). Everything else
# (CKAN core's and ckanext-harvest's pages, CKAN's page chrome) is theirs, reported in docs/accessibility.md.
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
EXTENSION_PARTS = "[class*=passport], [id*=passport], [class*=lkod], [id*=lkod], [class*=opendata], [id*=opendata]"
_AXE_SCRIPT = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()

# For each violated rule, the nodes in the extension's parts: their target and HTML.
_OURS = """async ([parts, tags]) => {
  const results = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  const ours = [];
  for (const rule of results.violations) {
    for (const node of rule.nodes) {
      const target = node.target[node.target.length - 1];
      const element = typeof target === 'string' ? document.querySelector(target) : null;
      if (element && element.closest(parts)) {
        ours.push(`${rule.id} (${rule.help}) at ${target}: ${node.html.slice(0, 200)}`);
      }
    }
  }
  return ours;
}"""


def axe_violations(page: Page) -> list[str]:
    """The WCAG 2.1 AA violations axe finds in the extension's parts of the page as it is now, each named with the
    page's address, the rule and the node."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(_AXE_SCRIPT)
    return [f"{page.url}: {found}" for found in page.evaluate(_OURS, [EXTENSION_PARTS, WCAG_21_AA])]
