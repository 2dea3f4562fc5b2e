"""The workflow actions on the real stack: transitions, their record, the guard, the queue and e-mail.

The people and one clean database and index are made once for the module (no test changes who they are); each test
makes its own records. test_workflow_actions_alone.py has the tests that need an empty catalog or change the people.
"""
from __future__ import annotations

import logging
import re
import socket
from datetime import datetime

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories
from ckan.logic import NotAuthorized, ValidationError
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from tests.support.workflow import (CONFIG, People, act, draft_record, make_people, record_in_state,  # noqa: F401
                                    smtp_sink)
from tests.support.signed_in import SignedIn

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins"), *CONFIG]


@pytest.fixture(scope="module")
def people(stack_once) -> People:
    """The workflow's people on the module's one clean database and index."""
    return make_people()


def state(record: dict) -> str:
    return call_action("package_show", id=record["id"])["editorial_state"]


def move(user: dict, record: dict, target: str, comment: str = "") -> dict:
    return act(user, "passport_workflow_transition", id=record["id"], to=target, comment=comment)


# The guard ---------------------------------------------------------------------------------------------


def test_a_new_record_starts_as_draft(people):
    assert state(draft_record(people)) == "draft"


def test_a_curator_cannot_create_a_record_in_another_state(people):
    assert state(draft_record(people, editorial_state="published")) == "draft"


def test_package_update_keeps_the_stored_state_whatever_it_is_sent(people):
    record = record_in_state(people, "published")
    act(people.curator, "package_update", **{**record, "title": "Changed", "editorial_state": "draft"})
    assert state(record) == "published"


def test_package_update_omitting_the_state_keeps_it(people):
    record = record_in_state(people, "submitted")
    act(people.curator, "package_update", **{k: v for k, v in record.items() if k != "editorial_state"})
    assert state(record) == "submitted"


def test_package_patch_cannot_change_the_state(people):
    record = record_in_state(people, "returned")
    act(people.sysadmin, "package_patch", id=record["id"], editorial_state="published")
    assert state(record) == "returned"


@pytest.mark.ckan_config("ckanext.passport.initial_states", "published")
def test_a_sysadmin_may_create_a_record_in_an_allowed_initial_state(people):
    record = draft_record(people, user=people.sysadmin, editorial_state="published")
    assert state(record) == "published"


def test_a_sysadmin_gets_a_draft_when_the_site_allows_no_initial_state(people):
    record = draft_record(people, user=people.sysadmin, editorial_state="published")
    assert state(record) == "draft"


# Transitions and their record ----------------------------------------------------------------------------


def test_the_whole_review_is_recorded_with_who_when_from_to_and_comment(people):
    record = draft_record(people)
    before = datetime.utcnow()
    move(people.curator, record, "submitted", "please review")
    move(people.editor, record, "returned", "the licence is missing")
    move(people.co_curator, record, "submitted", "licence added")
    move(people.editor, record, "published")
    move(people.editor, record, "invalidated", "superseded")
    move(people.editor, record, "published", "reinstated")

    history = act(people.curator, "passport_workflow_history", id=record["id"])
    assert [(e["user_name"], e["from_state"], e["to_state"], e["comment"]) for e in history] == [
        (people.curator["name"], "draft", "submitted", "please review"),
        (people.editor["name"], "submitted", "returned", "the licence is missing"),
        (people.co_curator["name"], "returned", "submitted", "licence added"),
        (people.editor["name"], "submitted", "published", ""),
        (people.editor["name"], "published", "invalidated", "superseded"),
        (people.editor["name"], "invalidated", "published", "reinstated"),
    ]
    assert all(datetime.fromisoformat(e["created"]) >= before for e in history)
    assert state(record) == "published"


def test_a_transition_returns_its_event(people):
    record = draft_record(people)
    event = move(people.curator, record, "submitted", "ready")
    assert (event["package_id"], event["from_state"], event["to_state"], event["comment"]) == (
        record["id"],
        "draft",
        "submitted",
        "ready",
    )


def test_returning_a_record_without_a_comment_is_refused_and_changes_nothing(people):
    record = record_in_state(people, "submitted")
    with pytest.raises(ValidationError) as raised:
        move(people.editor, record, "returned", "   ")
    assert "comment" in raised.value.error_dict
    assert state(record) == "submitted"
    assert [e["to_state"] for e in act(people.editor, "passport_workflow_history", id=record["id"])] == ["submitted"]


def test_a_draft_cannot_be_published_without_review(people):
    record = draft_record(people)
    with pytest.raises(ValidationError) as raised:
        move(people.editor, record, "published")
    assert "to" in raised.value.error_dict
    assert state(record) == "draft"


def test_an_unknown_state_is_refused(people):
    record = draft_record(people)
    with pytest.raises(ValidationError):
        move(people.curator, record, "archived")


def test_a_sysadmin_may_publish_their_own_submission(people):
    record = draft_record(people)
    move(people.sysadmin, record, "submitted")
    move(people.sysadmin, record, "published")
    assert state(record) == "published"


# The queue -----------------------------------------------------------------------------------------------


def test_the_queue_is_for_editors_only(people):
    with pytest.raises(NotAuthorized):
        act(people.curator, "passport_workflow_queue")


def test_every_page_header_links_editors_to_their_queue_and_nobody_else(people, web):
    def queue_link(user):
        token = factories.APIToken(user=user["name"])["token"]
        page = BeautifulSoup(web.get("/dataset/", headers={"Authorization": token}).body, "html.parser")
        return page.select_one("a.passport-review-queue-link")

    assert queue_link(people.editor)["href"] == "/passport/queue"
    assert queue_link(people.curator) is None


# E-mail --------------------------------------------------------------------------------------------------


def test_a_submission_is_mailed_to_the_editors(people, smtp_sink, ckan_config, monkeypatch):
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    record = draft_record(people, title="Water quality")
    move(people.curator, record, "submitted", "please review")
    [message] = smtp_sink.to(people.editor["email"])
    assert "Water quality" in message["Subject"]
    assert "please review" in message.get_content()
    assert smtp_sink.to(people.curator["email"]) == []


def test_a_returned_record_is_mailed_to_its_curators_with_the_comment(people, smtp_sink, ckan_config, monkeypatch):
    record = record_in_state(people, "submitted")
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    move(people.editor, record, "returned", "add the licence")
    for curator in (people.curator, people.co_curator):
        [message] = smtp_sink.to(curator["email"])
        assert "add the licence" in message.get_content()
    assert smtp_sink.to(people.editor["email"]) == []


def test_a_published_record_is_mailed_to_its_curators(people, smtp_sink, ckan_config, monkeypatch):
    record = record_in_state(people, "submitted")
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    move(people.editor, record, "published")
    assert len(smtp_sink.to(people.curator["email"])) == 1


@pytest.mark.parametrize("server", [None, "", "localhost"])
def test_nothing_is_mailed_or_logged_without_an_smtp_server(people, smtp_sink, ckan_config, monkeypatch, caplog, server):
    """docs/workflow.md: mail goes out only when ``smtp.server`` is set. Unset, CKAN reads its default ``localhost``
    (None here: the option as CKAN fills it in); no mail is attempted and nothing is logged (issue 24)."""
    if server is not None:
        monkeypatch.setitem(ckan_config, "smtp.server", server)
    attempts = []
    monkeypatch.setattr("ckanext.passport.mail.mail_recipient", lambda *args, **kwargs: attempts.append(args))
    caplog.set_level(logging.INFO, logger="ckanext.passport")
    move(people.curator, draft_record(people), "submitted")
    assert smtp_sink.messages == [] and attempts == []
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []


def test_a_local_mail_server_named_with_its_port_is_used(people, smtp_sink, ckan_config, monkeypatch):
    """``localhost`` alone is CKAN's default, read as unset; a site with a local server names its port."""
    attempts = []
    monkeypatch.setattr("ckanext.passport.mail.mail_recipient", lambda *args, **kwargs: attempts.append(args))
    monkeypatch.setitem(ckan_config, "smtp.server", "localhost:25")
    move(people.curator, draft_record(people), "submitted")
    assert people.editor["email"] in [email for _, email, *_ in attempts]


@pytest.mark.ckan_config("ckanext.passport.notify_by_email", "false")
def test_nothing_is_mailed_when_notifications_are_off(people, smtp_sink, ckan_config, monkeypatch):
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    move(people.curator, draft_record(people), "submitted")
    assert smtp_sink.messages == []


def test_an_unreachable_mail_server_does_not_stop_the_transition(people, ckan_config, monkeypatch):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setitem(ckan_config, "smtp.server", f"127.0.0.1:{port}")
    record = draft_record(people)
    move(people.curator, record, "submitted")
    assert state(record) == "submitted"


def test_a_title_that_breaks_lines_is_mailed_with_its_subject_on_one_line(people, smtp_sink, ckan_config,
                                                                         monkeypatch):
    """A line break or U+2028 in a header made the email package raise ValueError (issue 37)."""
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    record = draft_record(people, title="Water\nquality\u2028 of  rivers")
    move(people.curator, record, "submitted")
    [message] = smtp_sink.to(people.editor["email"])
    assert message["Subject"].endswith("] Water quality of rivers: Submitted for review")


def test_a_curator_whose_name_breaks_lines_is_mailed_and_the_transition_answers(people, web, smtp_sink, ckan_config,
                                                                                monkeypatch):
    """The transition committed before its mails: a name no header could hold answered 500 and left the other
    curators unmailed (issue 37)."""
    oddly_named, plain = factories.User(fullname="Jana\r\nNováková\u2028z Brna"), factories.User()
    publisher = factories.Organization(users=[{"name": oddly_named["name"], "capacity": "editor"},
                                              {"name": plain["name"], "capacity": "admin"}])
    record = factories.Dataset(**complete_record(name=factories.Dataset.stub().name), owner_org=publisher["id"],
                               user=plain)
    move(plain, record, "submitted")
    monkeypatch.setitem(ckan_config, "smtp.server", smtp_sink.address)
    answer = web.post("/api/3/action/passport_workflow_transition",
                      json={"id": record["id"], "to": "returned", "comment": "add the licence"},
                      headers={"Authorization": factories.APIToken(user=people.editor["name"])["token"]})
    assert answer.status_code == 200 and state(record) == "returned"
    [to_odd] = smtp_sink.to(oddly_named["email"])
    assert to_odd["To"].addresses[0].display_name == "Jana Nováková z Brna"
    assert len(smtp_sink.to(plain["email"])) == 1


# Pages ---------------------------------------------------------------------------------------------------


def transition_forms(body: str) -> list[str]:
    return re.findall(r'class="passport-transition[^"]*" data-target="([a-z]+)"', body)


def test_the_dataset_page_offers_a_curator_the_submission_only(web, people):
    record = draft_record(people)
    page = SignedIn(web, people.curator).get(f"/dataset/{record['name']}")
    assert transition_forms(page.body) == ["submitted"]


def test_the_dataset_page_offers_an_editor_the_review_decisions(web, people):
    record = record_in_state(people, "submitted")
    page = SignedIn(web, people.editor).get(f"/dataset/{record['name']}")
    assert sorted(transition_forms(page.body)) == ["published", "returned"]


def test_the_dataset_page_offers_the_public_no_transition(web, people):
    record = record_in_state(people, "published")
    assert transition_forms(web.get(f"/dataset/{record['name']}").body) == []


def test_the_dataset_page_shows_the_history(web, people):
    record = record_in_state(people, "returned")
    page = SignedIn(web, people.curator).get(f"/dataset/{record['name']}")
    history = page.body.split('class="table table-sm passport-history"')[1]
    assert people.editor["name"] in history and "on the way" in history


def test_a_curator_submits_through_the_dataset_page(web, people):
    record = draft_record(people)
    browser = SignedIn(web, people.curator)
    page = browser.get(f"/dataset/{record['name']}")
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page.body).group(1)
    response = browser.post(
        f"/dataset/{record['name']}/passport/transition",
        data={"to": "submitted", "comment": "ready", "_csrf_token": token},
    )
    assert response.status_code == 200
    assert state(record) == "submitted"


def test_a_transition_form_without_the_csrf_token_is_rejected(web, people):
    record = draft_record(people)
    response = SignedIn(web, people.curator).post(
        f"/dataset/{record['name']}/passport/transition", data={"to": "submitted"}
    )
    assert response.status_code == 400
    assert state(record) == "draft"


@pytest.mark.parametrize("role, status", [("editor", 200), ("sysadmin", 200), ("curator", 403), (None, 403)])
def test_the_queue_page_is_for_editors(web, people, role, status):
    waiting = record_in_state(people, "submitted")
    client = SignedIn(web, getattr(people, role)) if role else web.test_client()
    response = client.get("/passport/queue")
    assert response.status_code == status
    assert (waiting["title"] in response.body) is (status == 200)
