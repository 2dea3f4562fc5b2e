"""What a curator and an editor read on the record page and in the review queue, in Czech: the record's validity as
the form fills it in (never "missing" beside a pre-filled form), no raw CKAN state under the editorial one, publishing
told apart from returning, and the queue's completeness, score and count."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan import model
from ckan.lib.search import rebuild
from tests.support.catalog_records import complete_record
from ckan.tests.helpers import call_action
from tests.support.factories import HarvestedRecord
from tests.support.workflow import CONFIG, People, act, make_people, record_in_state
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]


@pytest.fixture
def people() -> People:
    return make_people()


def page(app, user: dict, path: str) -> BeautifulSoup:
    return BeautifulSoup(SignedIn(app, user).get(path).body, "html.parser")


def submitted_as_harvested(people: People) -> dict:
    """A harvested record (its curator's part missing, MR score 80) waiting for review: the workflow refuses to
    submit an incomplete record, so its editorial state is set in the database, as a record submitted before a
    field became required would be."""
    record = HarvestedRecord(owner_org=people.publisher["id"])
    package = model.Package.get(record["id"])
    package.extras = {**package.extras, "editorial_state": "submitted"}
    model.repo.commit()
    rebuild(record["id"])
    return record


def test_a_harvested_records_page_shows_the_validity_the_form_fills_in(web, people):
    record = HarvestedRecord(owner_org=people.publisher["id"])
    assert not record.get("record_validity")
    shown = page(web, people.curator, f"/cs/dataset/{record['name']}")
    row = shown.select_one(".additional-info tr[data-field=record_validity]")
    assert "passport-missing-field" not in (row.get("class") or [])
    assert row.select_one("td").text.strip() == "Platný"
    edit = page(web, people.curator, f"/cs/dataset/edit/{record['name']}")
    assert edit.select_one("#field-record_validity option[selected]")["value"] == "valid"


def test_a_record_lacking_only_its_validity_is_complete_for_the_page_the_queue_and_the_submission(web, people):
    """A harvest states no validity; the page shows the default, so the queue counts nothing missing and the
    submission stores that default rather than refusing: the curator submits what the page showed."""
    fields = {key: value for key, value in complete_record(owner_org=people.publisher["id"]).items()
              if key != "record_validity"}
    record = call_action("package_create", {"user": people.sysadmin["name"], "passport_harvest": True}, **fields)
    assert not call_action("package_show", id=record["id"]).get("record_validity")
    shown = page(web, people.curator, f"/cs/dataset/{record['name']}")
    assert shown.select_one(".passport-missing") is None

    act(people.curator, "passport_workflow_transition", id=record["id"], to="submitted")
    queue = page(web, people.editor, "/cs/passport/queue")
    assert queue.select_one("tr.passport-queue-item .passport-queue-missing")["data-missing"] == "0"
    assert call_action("package_show", id=record["id"])["record_validity"] == "valid"


def test_the_record_page_shows_no_raw_ckan_state_to_its_curator(web, people):
    record = record_in_state(people, "submitted")
    shown = page(web, people.curator, f"/cs/dataset/{record['name']}")
    details = shown.select_one("section.additional-info:not(.passport-publication)").text
    assert "active" not in details
    assert shown.select_one(".passport-ckan-state") is None


def test_publishing_leads_and_returning_is_told_apart_from_it(web, people):
    record = record_in_state(people, "submitted")
    shown = page(web, people.editor, f"/cs/dataset/{record['name']}")
    publish = shown.select_one("form.passport-transition[data-target=published] button")
    send_back = shown.select_one("form.passport-transition[data-target=returned] button")
    assert (publish.text, send_back.text) == ("Zveřejnit", "Vrátit k úpravám")
    assert "btn-primary" in publish["class"]
    assert "btn-warning" in send_back["class"] and "btn-primary" not in send_back["class"]


def test_the_queue_shows_each_records_completeness_and_score(web, people):
    complete = record_in_state(people, "submitted")
    harvested = submitted_as_harvested(people)
    queue = page(web, people.editor, "/cs/passport/queue")
    headings = [th.text for th in queue.select("thead th")]
    assert headings[-2:] == ["Úplnost", "Shoda s MR"]
    rows = {row.select_one("a").text: row for row in queue.select("tr.passport-queue-item")}
    assert rows[complete["title"]].select_one(".passport-queue-missing").text.strip() == "Úplný"
    assert rows[complete["title"]].select_one(".passport-queue-score").text.strip() == "–"
    lacking = rows[harvested["title"]]
    count = int(lacking.select_one(".passport-queue-missing")["data-missing"])
    assert count > 0
    assert lacking.select_one(".passport-queue-missing").text.strip().startswith(f"chybí {count} povinn")
    assert lacking.select_one(".passport-queue-score").text.strip() == "80"


def test_the_header_queue_link_names_how_many_records_wait(web, people):
    record_in_state(people, "submitted")
    link = page(web, people.editor, "/cs/dataset/").select_one("a.passport-review-queue-link")
    assert link["aria-label"] == "Fronta ke kontrole: čeká 1 záznam"
    assert link.select_one(".passport-queue-count").text == "1"
