"""What waits for a curator (issue 41): the records returned to them, with the editor's comment, and their drafts.

passport_workflow_my_records lists them for the signed-in user's own organizations; the dashboard and the
"Moje záznamy" page show that list, and a returned record's page and edit form say at the top who returned it,
when, and why.
"""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.logic import NotAuthorized
from tests.support.signed_in import SignedIn
from tests.support.workflow import CONFIG, People, act, draft_record, make_people, record_in_state

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *CONFIG]

COMMENT = "Doplňte prosím kontaktní e-mail a podmínky užití."


@pytest.fixture
def people() -> People:
    return make_people()


@pytest.fixture
def returned(people) -> dict:
    record = draft_record(people, title="Školy v obcích")
    act(people.curator, "passport_workflow_transition", id=record["id"], to="submitted")
    act(people.editor, "passport_workflow_transition", id=record["id"], to="returned", comment=COMMENT)
    return record


def test_a_curator_s_list_holds_the_records_returned_to_them_with_the_comment_and_their_drafts(people, returned):
    draft = draft_record(people, title="Rozpočet obce")
    record_in_state(people, "submitted")
    record_in_state(people, "published")
    mine = act(people.co_curator, "passport_workflow_my_records")
    [came_back] = mine["returned"]["results"]
    assert (came_back["id"], came_back["returned"]["comment"]) == (returned["id"], COMMENT)
    assert came_back["returned"]["user_name"] == people.editor["name"]
    assert [d["id"] for d in mine["draft"]["results"]] == [draft["id"]]


def test_another_organization_s_curator_and_the_editor_have_nothing_waiting(people, returned):
    for someone in (people.outsider, people.editor):
        mine = act(someone, "passport_workflow_my_records")
        assert (mine["returned"]["count"], mine["draft"]["count"]) == (0, 0)


def test_a_visitor_has_no_list(people):
    with pytest.raises(NotAuthorized):
        act(None, "passport_workflow_my_records")


def notice(page: str):
    return BeautifulSoup(page, "html.parser").select_one(".passport-return-notice")


def test_a_returned_record_s_page_and_edit_form_say_at_the_top_who_returned_it_and_why(web, people, returned):
    curator = SignedIn(web, people.curator)
    for path in (f"/cs/dataset/{returned['name']}", f"/cs/dataset/edit/{returned['name']}"):
        shown = notice(curator.get(path).get_data(as_text=True))
        assert shown is not None, path
        assert shown["role"] == "status"
        assert "Záznam vám byl vrácen k úpravám" in shown.get_text()
        assert shown.select_one(".passport-return-comment").get_text(strip=True) == COMMENT
        assert people.editor["display_name"] in shown.get_text()


def test_the_return_notice_goes_once_the_record_is_submitted_again(web, people, returned):
    act(people.curator, "passport_workflow_transition", id=returned["id"], to="submitted")
    assert notice(SignedIn(web, people.curator).get(f"/cs/dataset/{returned['name']}").get_data(as_text=True)) is None


@pytest.mark.parametrize("path", ["/cs/dashboard/datasets", "/cs/passport/my-records"])
def test_the_dashboard_and_my_records_page_list_what_waits_in_czech(web, people, returned, path):
    draft = draft_record(people, title="Rozpočet obce")
    page = BeautifulSoup(SignedIn(web, people.curator).get(path).get_data(as_text=True), "html.parser")
    listed = page.select_one(".passport-my-records")
    assert "Vráceno k úpravám" in listed.get_text() and "Koncepty k dokončení" in listed.get_text()
    [came_back] = listed.select("[data-state=returned]")
    assert came_back.select_one("a")["href"].endswith(f"/dataset/{returned['name']}")
    assert COMMENT in came_back.get_text()
    assert [a.get_text(strip=True) for a in listed.select("[data-state=draft] a")] == [draft["title"]]
