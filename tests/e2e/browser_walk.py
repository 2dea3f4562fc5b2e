"""What browser walks share besides fixtures: the users' password, the editors organization, signing in, saving a
dataset's edit form."""
from __future__ import annotations

from playwright.sync_api import Browser, Page

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
