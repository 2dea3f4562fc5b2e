"""The curator's journey in Czech (issue 24): what a refused submission and an incomplete record's pages say.

A harvested record (HarvestedRecord) lacks the curator's part. Submitting it for review is refused; the dataset
page lands on its workflow block, and that block (not a row of flash messages at the top) names each field in
Czech by its form label, links it to its place in the edit form, and says no more than a person can act on: no raw
dict, no bare "Chybí hodnota", no API wording. The opened edit form of the record says what it lacks at the top.
The page titles of our pages have no empty segment; the review queue's header icon is one CKAN's Font Awesome
draws; the provider identifier is named by its scheme.
"""
from __future__ import annotations

import re
from pathlib import Path

import ckan
import pytest
from bs4 import BeautifulSoup
from ckan.tests.helpers import call_action
from tests.support.factories import HarvestedRecord
from tests.support.workflow import CONFIG, draft_record, make_people, record_in_state
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]

# The Czech form labels of the fields the harvested record lacks, by field.
MISSING_CS = {
    "publisher_email": "Kontaktní e-mail poskytovatele",
    "openness_conditions": "Přehled splnění podmínek otevřenosti",
    "eurovoc": "Koncepty EUROVOC",
}
# What the pages must never show a curator.
LEAKS = ("{'", "['", "Chybí hodnota", "complete, accessible", "machine_readable", "Missing value")


@pytest.fixture
def people():
    return make_people()


@pytest.fixture
def harvested(people) -> dict:
    return HarvestedRecord(owner_org=people.publisher["id"])


def submit(browser: SignedIn, record: dict, prefix: str = "/cs", lands_on: str = "passport-refusal"):
    """Press the dataset page's "submit for review" button; the page the redirect lands on, at ``lands_on`` (the
    element the browser focuses: the refusal's block, or the confirmation's)."""
    page = browser.get(f"{prefix}/dataset/{record['name']}")
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    response = browser.post(
        f"{prefix}/dataset/{record['name']}/passport/transition", data={"to": "submitted", "_csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"#{lands_on}")
    return browser.get(response.headers["Location"].split("#")[0])


def text_of(element) -> str:
    return " ".join(element.get_text(" ").split())


def test_a_refused_submission_names_the_missing_fields_in_czech_in_the_workflow_block(web, people, harvested):
    browser = SignedIn(web, people.curator)
    landed = submit(browser, harvested)
    assert landed.status_code == 200
    page = BeautifulSoup(landed.get_data(as_text=True), "html.parser")

    # One block, inside the workflow block the redirect lands on; no flash message at the top.
    block = page.select_one("#passport-workflow .passport-refusal")
    assert block is not None
    assert page.select(".passport-refusal") == [block]
    assert not [text_of(alert) for alert in page.select(".flash-messages .alert")]
    assert "Záznam zatím nelze odeslat ke kontrole" in text_of(block)

    items = {li["data-field"]: li for li in block.select("li[data-field]")}
    assert set(items) == set(MISSING_CS)
    edit = f"/cs/dataset/edit/{harvested['name']}"
    for field, label in MISSING_CS.items():
        link = items[field].select_one("a")
        assert text_of(link) == label
        assert link["href"].startswith(edit + "#field-"), link["href"]
    assert "U každé podmínky otevřenosti uveďte, zda ji data splňují" in text_of(items["openness_conditions"])
    assert "Zvolte alespoň jeden koncept EUROVOC" in text_of(items["eurovoc"])
    for leak in LEAKS:
        assert leak not in text_of(block), leak

    # Each link leads to its field in the edit form.
    form = BeautifulSoup(browser.get(edit).get_data(as_text=True), "html.parser")
    for li in items.values():
        anchor = li.select_one("a")["href"].split("#", 1)[1]
        assert form.find(id=anchor) is not None, anchor

    # Shown once: the page read again no longer carries it.
    again = BeautifulSoup(browser.get(f"/cs/dataset/{harvested['name']}").get_data(as_text=True), "html.parser")
    assert again.select(".passport-refusal") == []
    assert call_action("package_show", id=harvested["id"])["editorial_state"] == "draft"


def test_a_refused_transition_of_another_record_is_not_shown_on_this_one(web, people, harvested):
    other = draft_record(people)
    browser = SignedIn(web, people.curator)
    page = browser.get(f"/cs/dataset/{harvested['name']}")
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    browser.post(
        f"/cs/dataset/{harvested['name']}/passport/transition",
        data={"to": "submitted", "_csrf_token": token},
        follow_redirects=False,
    )
    assert "passport-refusal" not in browser.get(f"/cs/dataset/{other['name']}").get_data(as_text=True)
    assert "passport-refusal" in browser.get(f"/cs/dataset/{harvested['name']}").get_data(as_text=True)


def test_the_opened_edit_form_of_an_incomplete_record_says_what_it_lacks_at_the_top(web, people, harvested):
    browser = SignedIn(web, people.curator)
    body = browser.get(f"/cs/dataset/edit/{harvested['name']}").get_data(as_text=True)
    page = BeautifulSoup(body, "html.parser")
    summary = page.select_one(".passport-missing")
    assert summary is not None
    assert body.index("passport-missing") < body.index('id="dataset-edit"')
    assert "V záznamu chybí povinné údaje" in text_of(summary)
    items = {li["data-field"]: li for li in summary.select("li[data-field]")}
    # The record's validity is not asked for: the form fills in its default, as a save does.
    assert set(items) == set(MISSING_CS)
    for field, label in MISSING_CS.items():
        link = items[field].select_one("a")
        assert text_of(link) == label
        assert page.find(id=link["href"].split("#", 1)[1]) is not None, field
    for leak in LEAKS:
        assert leak not in text_of(summary), leak


def test_an_editor_returning_a_record_without_a_comment_is_told_so_in_the_workflow_block(web, people):
    record = record_in_state(people, "submitted")
    browser = SignedIn(web, people.editor)
    page = browser.get(f"/cs/dataset/{record['name']}")
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    response = browser.post(
        f"/cs/dataset/{record['name']}/passport/transition",
        data={"to": "returned", "comment": " ", "_csrf_token": token},
        follow_redirects=False,
    )
    landed = BeautifulSoup(browser.get(response.headers["Location"].split("#")[0]).get_data(as_text=True), "html.parser")
    block = landed.select_one("#passport-workflow .passport-refusal")
    assert text_of(block).startswith("Záznam nelze převést do stavu")
    assert [text_of(li) for li in block.select("li")] == ["Při vrácení záznamu je nutný komentář"]


def test_the_record_page_links_each_missing_field_to_the_form(web, people, harvested):
    page = BeautifulSoup(
        SignedIn(web, people.curator).get(f"/cs/dataset/{harvested['name']}").get_data(as_text=True), "html.parser"
    )
    link = page.select_one(".passport-missing li[data-field=publisher_email] a")
    assert link["href"].endswith(f"/cs/dataset/edit/{harvested['name']}#field-publisher_email")


def test_the_edit_form_of_a_complete_record_has_no_summary(web, people):
    record = draft_record(people)
    body = SignedIn(web, people.curator).get(f"/cs/dataset/edit/{record['name']}").get_data(as_text=True)
    assert "passport-missing" not in body


# Page titles, the header icon, the provider identifier's name ----------------------------------------------


def title_of(body: str) -> str:
    return " ".join(BeautifulSoup(body, "html.parser").title.get_text().split())


@pytest.mark.parametrize("path", ["/cs/passport/queue", "/cs/passport/check", "/cs/opendata/", "/cs/lkod/"])
def test_our_pages_have_no_empty_title_segment(web, people, path):
    title = title_of(SignedIn(web, people.editor).get(path).get_data(as_text=True))
    segments = [part.strip() for part in title.split(" - ")]
    assert all(segments), title
    assert "- -" not in title


def test_the_review_queue_icon_is_one_font_awesome_draws(web, people):
    body = SignedIn(web, people.editor).get("/cs/dataset/").get_data(as_text=True)
    icon = BeautifulSoup(body, "html.parser").select_one(".passport-review-queue-link i")
    names = [name for name in icon["class"] if name.startswith("fa-") and name not in ("fa-solid", "fa-regular")]
    assert names
    css = (Path(ckan.__file__).parent / "public" / "base" / "vendor" / "fontawesome-free" / "css" / "all.css").read_text()
    for name in names:
        assert re.search(rf"\.{re.escape(name)}[:,{{\s]", css), name


def identifier_label(app, user: dict, record: dict) -> str:
    page = BeautifulSoup(SignedIn(app, user).get(f"/cs/dataset/{record['name']}").get_data(as_text=True), "html.parser")
    return text_of(page.select_one("tr[data-field=publisher_id] th"))


def test_the_provider_identifier_is_named_by_its_scheme(web, people, harvested):
    assert harvested["publisher_id_scheme"] == "inn"
    assert identifier_label(web, people.curator, harvested) == "INN poskytovatele"
    assert identifier_label(web, people.curator, draft_record(people)) == "IČO poskytovatele"
    form = BeautifulSoup(
        SignedIn(web, people.curator).get(f"/cs/dataset/edit/{harvested['name']}").get_data(as_text=True),
        "html.parser",
    )
    assert "IČO nebo INN" in text_of(form.select_one("label[for=field-publisher_id]"))


# --- what an action answers, where the page lands (issue 41) ----------------------------------------------------


def focusable(element) -> bool:
    """Whether a browser focuses ``element`` when the page opens at its id: it takes the focus without being in the
    tab order."""
    return element.get("tabindex") == "-1"


def test_a_submission_is_confirmed_in_the_workflow_block_the_page_lands_on_and_focused(web, people):
    record = draft_record(people)
    landed = submit(SignedIn(web, people.curator), record, lands_on="passport-confirmation")
    page = BeautifulSoup(landed.get_data(as_text=True), "html.parser")
    [shown] = page.select("#passport-workflow .passport-confirmation")
    assert shown["id"] == "passport-confirmation" and focusable(shown) and shown["role"] == "status"
    assert text_of(shown) == "Záznam je nyní: Předáno ke kontrole"
    assert not page.select(".flash-messages .alert")


def test_a_refused_submission_is_focused_where_the_page_lands(web, people, harvested):
    landed = submit(SignedIn(web, people.curator), harvested)
    page = BeautifulSoup(landed.get_data(as_text=True), "html.parser")
    refusal = page.select_one("#passport-workflow .passport-refusal")
    assert refusal["id"] == "passport-refusal" and focusable(refusal) and refusal["role"] == "alert"
