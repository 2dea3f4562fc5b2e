"""Public feedback on a record: anonymous through the dataset page, protected, limited, read by its reviewers.

The people and one clean database and index are made once for the module (no test changes who they are); each test
makes its own records.
"""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from ckan.lib.redis import connect_to_redis
from ckan.logic import NotAuthorized, ValidationError
from ckan.tests.helpers import call_action
from tests.support.workflow import CONFIG, People, act, draft_record, make_people, record_in_state

from ckanext.passport.catalog.workflow import feedback

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "clean_rate_limits"),
    *CONFIG,
]


@pytest.fixture(scope="module")
def people(stack_once) -> People:
    """The workflow's people on the module's one clean database and index."""
    return make_people()


@pytest.fixture
def clean_rate_limits():
    redis = connect_to_redis()
    for key in redis.scan_iter(feedback.rate_limit_keys()):
        redis.delete(key)


@pytest.fixture
def published(people):
    return record_in_state(people, "published")


def csrf_token(page_body: str) -> str:
    return re.search(r'name="_csrf_token" value="([^"]+)"', page_body).group(1)


def post_feedback(app, record: dict, **form: str):
    """Open the dataset page and send its feedback form, as one visitor (one cookie jar)."""
    visitor = app.test_client()
    page = visitor.get(f"/dataset/{record['name']}")
    form.setdefault("_csrf_token", csrf_token(page.body))
    return visitor.post(f"/dataset/{record['name']}/passport/feedback", data=form)


def stored_texts(record: dict) -> list[str]:
    return [item["text"] for item in call_action("passport_feedback_list", id=record["id"])]


def token(user: dict) -> str:
    return call_action("api_token_create", user=user["name"], name="pages")["token"]


def test_an_anonymous_visitor_leaves_feedback_through_the_dataset_page(web, published):
    response = post_feedback(web, published, text="The CSV has a wrong header", kind="error", email="a@example.cz")
    assert response.status_code == 200
    assert "Thank you for your feedback" in response.body
    [item] = call_action("passport_feedback_list", id=published["id"])
    assert (item["text"], item["kind"], item["email"]) == ("The CSV has a wrong header", "error", "a@example.cz")


def test_the_thanks_is_shown_and_focused_in_the_feedback_block_the_page_lands_on(web, published):
    visitor = web.test_client()
    page = visitor.get(f"/cs/dataset/{published['name']}")
    sent = visitor.post(f"/cs/dataset/{published['name']}/passport/feedback", follow_redirects=False,
                        data={"text": "Chybí rok 2023", "_csrf_token": csrf_token(page.body)})
    assert sent.headers["Location"].endswith("#passport-confirmation")  # the browser focuses it (tabindex -1)
    landed = BeautifulSoup(visitor.get(sent.headers["Location"]).body, "html.parser")
    [thanks] = landed.select("#passport-feedback .passport-confirmation")
    assert (thanks["id"], thanks["role"], thanks["tabindex"]) == ("passport-confirmation", "status", "-1")
    assert thanks.get_text(strip=True) == "Děkujeme za zpětnou vazbu"
    assert not landed.select(".flash-messages .alert")


@pytest.mark.ckan_config("ckanext.passport.feedback_max_length", "20")
def test_a_refused_message_is_said_as_an_alert_in_the_feedback_block(web, published):
    landed = BeautifulSoup(post_feedback(web, published, text="x" * 21).body, "html.parser")
    [refusal] = landed.select("#passport-feedback .passport-confirmation")
    assert refusal["role"] == "alert"
    assert "At most 20 characters" in refusal.get_text()


def test_feedback_without_the_csrf_token_is_rejected(web, published):
    response = web.post(f"/dataset/{published['name']}/passport/feedback", data={"text": "spam"})
    assert response.status_code == 400
    assert stored_texts(published) == []


def test_feedback_with_a_forged_csrf_token_is_rejected(web, published):
    response = post_feedback(web, published, text="spam", _csrf_token="forged")
    assert response.status_code == 400
    assert stored_texts(published) == []


def test_a_bot_filling_the_honeypot_is_thanked_and_ignored(web, published):
    response = post_feedback(web, published, text="Buy now", website="http://spam.example")
    assert "Thank you for your feedback" in response.body
    assert stored_texts(published) == []


@pytest.mark.ckan_config("ckanext.passport.feedback_max_length", "20")
def test_a_message_over_the_length_limit_is_refused_on_the_page(web, published):
    response = post_feedback(web, published, text="x" * 21)
    assert "At most 20 characters" in response.body
    assert stored_texts(published) == []


@pytest.mark.ckan_config("ckanext.passport.feedback_max_length", "20")
def test_a_message_at_the_length_limit_is_accepted(published):
    act(None, "passport_feedback_create", id=published["id"], text="x" * 20)
    assert stored_texts(published) == ["x" * 20]


def test_a_blank_message_is_refused(published):
    with pytest.raises(ValidationError) as raised:
        act(None, "passport_feedback_create", id=published["id"], text="   ")
    assert "text" in raised.value.error_dict


def test_a_bad_reply_address_is_refused(published):
    with pytest.raises(ValidationError) as raised:
        act(None, "passport_feedback_create", id=published["id"], text="Hello", email="not an address")
    assert "email" in raised.value.error_dict


def test_an_unknown_kind_is_refused(published):
    with pytest.raises(ValidationError) as raised:
        act(None, "passport_feedback_create", id=published["id"], text="Hello", kind="praise")
    assert "kind" in raised.value.error_dict


@pytest.mark.ckan_config("ckanext.passport.feedback_rate_per_client", "2")
def test_one_sender_is_limited_across_records(web, people):
    first, second = record_in_state(people, "published"), record_in_state(people, "published")
    post_feedback(web, first, text="one")
    post_feedback(web, second, text="two")
    response = post_feedback(web, first, text="three")
    assert "Too many messages were sent recently" in response.body
    assert stored_texts(first) == ["one"]


@pytest.mark.ckan_config("ckanext.passport.feedback_rate_per_dataset", "2")
def test_one_record_is_limited_across_senders(people, published):
    for sender in (people.curator, people.editor):
        act(sender, "passport_feedback_create", id=published["id"], text=f"from {sender['name']}")
    with pytest.raises(ValidationError) as raised:
        act(people.outsider, "passport_feedback_create", id=published["id"], text="third")
    assert "rate_limit" in raised.value.error_dict
    assert len(stored_texts(published)) == 2


def test_nobody_can_comment_on_a_record_they_cannot_see(people):
    hidden = draft_record(people)
    with pytest.raises(NotAuthorized):
        act(None, "passport_feedback_create", id=hidden["id"], text="Hello")


@pytest.mark.parametrize("role, allowed", [("curator", True), ("editor", True), ("outsider", False), (None, False)])
def test_feedback_is_read_by_curators_and_editors_only(people, published, role, allowed):
    act(None, "passport_feedback_create", id=published["id"], text="Wrong licence")
    reader = getattr(people, role) if role else None
    if allowed:
        assert [i["text"] for i in act(reader, "passport_feedback_list", id=published["id"])] == ["Wrong licence"]
    else:
        with pytest.raises(NotAuthorized):
            act(reader, "passport_feedback_list", id=published["id"])


def test_the_dataset_page_shows_feedback_to_curators_escaped(web, people, published):
    act(None, "passport_feedback_create", id=published["id"], text="<script>alert(1)</script> wrong")
    page = web.get(f"/dataset/{published['name']}", headers={"Authorization": token(people.curator)})
    assert "&lt;script&gt;alert(1)&lt;/script&gt; wrong" in page.body
    assert "<script>alert(1)</script>" not in page.body


def test_the_dataset_page_hides_feedback_from_the_public(web, published):
    act(None, "passport_feedback_create", id=published["id"], text="Wrong licence")
    page = web.get(f"/dataset/{published['name']}")
    assert "passport-feedback-form" in page.body
    assert "Wrong licence" not in page.body
