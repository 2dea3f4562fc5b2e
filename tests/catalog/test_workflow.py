"""The editorial state machine on its own: states, transitions, the four-eyes rule, initial states."""
from __future__ import annotations

import pytest

from ckanext.passport.catalog.workflow import states
from ckanext.passport.catalog.workflow.states import (
    CURATOR,
    DRAFT,
    EDITOR,
    INVALIDATED,
    PUBLISHED,
    RETURNED,
    STATES,
    SUBMITTED,
    TransitionError,
)

ALLOWED = {
    (DRAFT, SUBMITTED): CURATOR,
    (RETURNED, SUBMITTED): CURATOR,
    (SUBMITTED, PUBLISHED): EDITOR,
    (SUBMITTED, RETURNED): EDITOR,
    (PUBLISHED, INVALIDATED): EDITOR,
    (INVALIDATED, PUBLISHED): EDITOR,
}


@pytest.mark.parametrize("source, target", sorted(ALLOWED))
def test_each_allowed_transition_is_found_with_its_role(source, target):
    transition = states.find_transition(source, target, comment="why")
    assert (transition.source, transition.target, transition.role) == (source, target, ALLOWED[(source, target)])


@pytest.mark.parametrize(
    "source, target",
    [(s, t) for s in STATES for t in STATES if (s, t) not in ALLOWED],
)
def test_every_other_pair_of_states_is_refused(source, target):
    with pytest.raises(TransitionError) as raised:
        states.find_transition(source, target, comment="why")
    assert raised.value.code == "not_allowed"


def test_returning_a_record_needs_a_comment():
    with pytest.raises(TransitionError) as raised:
        states.find_transition(SUBMITTED, RETURNED, comment="  \n ")
    assert raised.value.code == "comment_required"


def test_other_transitions_need_no_comment():
    assert states.find_transition(DRAFT, SUBMITTED).target == SUBMITTED


def test_an_unknown_target_state_is_named_as_such():
    with pytest.raises(TransitionError) as raised:
        states.find_transition(DRAFT, "archived")
    assert raised.value.code == "unknown_state"


def test_transitions_from_a_submitted_record_are_the_editors_decisions():
    assert {t.target for t in states.transitions_from(SUBMITTED)} == {PUBLISHED, RETURNED}


def test_a_record_without_a_known_state_is_a_draft():
    assert states.state_of({}) == DRAFT
    assert states.state_of({"editorial_state": "bogus"}) == DRAFT
    assert states.state_of({"editorial_state": PUBLISHED}) == PUBLISHED


def test_the_submitter_may_not_publish_their_own_submission():
    assert states.violates_four_eyes(SUBMITTED, PUBLISHED, actor_id="u1", submitter_id="u1")


def test_a_second_person_may_publish_a_submission():
    assert not states.violates_four_eyes(SUBMITTED, PUBLISHED, actor_id="u2", submitter_id="u1")


def test_four_eyes_applies_to_publishing_a_submission_only():
    assert not states.violates_four_eyes(SUBMITTED, RETURNED, actor_id="u1", submitter_id="u1")
    assert not states.violates_four_eyes(INVALIDATED, PUBLISHED, actor_id="u1", submitter_id="u1")


def test_new_records_start_as_drafts():
    assert states.initial_state(None, trusted_creator=False, allowed=[PUBLISHED]) == DRAFT


def test_an_untrusted_creator_cannot_choose_the_initial_state():
    assert states.initial_state(PUBLISHED, trusted_creator=False, allowed=[PUBLISHED]) == DRAFT


def test_a_trusted_creator_gets_an_allowed_initial_state():
    assert states.initial_state(PUBLISHED, trusted_creator=True, allowed=[PUBLISHED]) == PUBLISHED


def test_a_trusted_creator_cannot_choose_a_state_the_site_does_not_allow():
    assert states.initial_state(PUBLISHED, trusted_creator=True, allowed=[SUBMITTED]) == DRAFT
