"""What browser walks share besides fixtures: the users' password, the editors organization, signing in, saving a
dataset's edit form."""
from __future__ import annotations

import re
import time

from harvest_processes import HarvestProcesses
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
    """Press the dataset edit form's save button: CKAN 2.12 puts an Unpublish button (also ``name=save``, it makes
    the dataset a draft) before it."""
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
    page.get_by_role("link", name=button).click()
    page.locator(".modal-footer .btn-primary").click()
    # The confirmation posts, creates the job and queues it before the page comes back: on a loaded machine that
    # takes longer than expect's default 5 s.
    expect(page.locator(".flash-messages, .alert").first).to_contain_text(started, timeout=30_000)


def wait_for_finished_job(page: Page, admin: str, machinery: HarvestProcesses, seconds: float = 60) -> None:
    """Reload the admin page, as an admin would, until its last job shows its counts (only a finished job does)."""
    deadline = time.monotonic() + seconds
    while True:
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
