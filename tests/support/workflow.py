"""What the workflow tests share: the people of the workflow, acting as someone, and a real SMTP sink.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import complete_record
from tests.support.smtp_sink import SmtpSink

EDITORS_ORG = "redakce"

# Module-level marks every workflow test module applies.
CONFIG = [pytest.mark.ckan_config("ckanext.passport.editors_organization", EDITORS_ORG)]


@dataclass
class People:
    publisher: dict  # the organization owning the records
    curator: dict  # editor of the publisher organization
    co_curator: dict  # admin of the publisher organization
    editor: dict  # member of the editors organization
    outsider: dict  # member of some other organization
    sysadmin: dict


@pytest.fixture
def people() -> People:
    return make_people()


def make_people() -> People:
    """The publisher, the editors organization, another organization and their people (the ``people`` fixture's;
    a module whose tests only read them makes them once)."""
    curator, co_curator, editor, outsider = (factories.User() for _ in range(4))
    publisher = factories.Organization(
        users=[{"name": curator["name"], "capacity": "editor"}, {"name": co_curator["name"], "capacity": "admin"}]
    )
    factories.Organization(name=EDITORS_ORG, users=[{"name": editor["name"], "capacity": "member"}])
    factories.Organization(users=[{"name": outsider["name"], "capacity": "editor"}])
    return People(publisher, curator, co_curator, editor, outsider, factories.Sysadmin())


def act(user: Optional[dict], action: str, **data: Any) -> Any:
    """Call an action as ``user`` (None: anonymous) with authorization checked, as the API would."""
    return call_action(action, context={"user": user["name"] if user else "", "ignore_auth": False}, **data)


def draft_record(people: People, *, user: Optional[dict] = None, **fields: Any) -> dict:
    """A complete catalog record of the publisher, created by its curator (or ``user``)."""
    fields.setdefault("name", factories.Dataset.stub().name)
    return factories.Dataset(
        **complete_record(**fields), owner_org=people.publisher["id"], user=user or people.curator
    )


def record_in_state(people: People, state: str) -> dict:
    """A record of the publisher brought to ``state`` the only way there is: through the workflow."""
    record = draft_record(people)
    path = {
        "draft": [],
        "submitted": [("curator", "submitted")],
        "returned": [("curator", "submitted"), ("editor", "returned")],
        "published": [("curator", "submitted"), ("editor", "published")],
        "invalidated": [("curator", "submitted"), ("editor", "published"), ("editor", "invalidated")],
    }[state]
    for who, target in path:
        act(getattr(people, who), "passport_workflow_transition", id=record["id"], to=target, comment="on the way")
    return call_action("package_show", id=record["id"])


@pytest.fixture
def smtp_sink():
    with SmtpSink().serving() as sink:
        yield sink
