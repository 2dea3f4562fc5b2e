"""The editorial workflow of a catalog record: states, transitions, roles and the state guard.

States and transitions follow the 2012 concept: a curator (editor or admin of the record's organization)
submits a draft, an editor (redaktor: a member of ``ckanext.passport.editors_organization``, or a sysadmin)
publishes it or returns it with a comment, and may later invalidate a published record or reinstate it.

The state machine is pure (no CKAN). Role resolution reads organization memberships through ``ckan.authz``.
The validator ``passport_editorial_state_guard`` keeps the state out of reach of the ordinary dataset
actions: only the workflow action, which sets ``TRANSITION_FLAG`` in the context, may change it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

import ckan.authz as authz
import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan.lib.navl.dictization_functions import missing

from ckanext.passport import settings

FIELD = "editorial_state"

DRAFT = "draft"
SUBMITTED = "submitted"
RETURNED = "returned"
PUBLISHED = "published"
INVALIDATED = "invalidated"
STATES = (DRAFT, SUBMITTED, RETURNED, PUBLISHED, INVALIDATED)
# What a new record may start as: draft, or (with the site's consent, for a sysadmin) a later state of the path
# a record walks; returned and invalidated only ever follow an editor's decision.
STARTING_STATES = (DRAFT, SUBMITTED, PUBLISHED)

CURATOR = "curator"
EDITOR = "editor"

# Set in an action context by the workflow action only; the guard then accepts the state it is given.
TRANSITION_FLAG = "passport_workflow_transition"


@dataclass(frozen=True)
class Transition:
    source: str
    target: str
    role: str
    comment_required: bool = False


TRANSITIONS = (
    Transition(DRAFT, SUBMITTED, CURATOR),
    Transition(RETURNED, SUBMITTED, CURATOR),
    Transition(SUBMITTED, PUBLISHED, EDITOR),
    Transition(SUBMITTED, RETURNED, EDITOR, comment_required=True),
    Transition(PUBLISHED, INVALIDATED, EDITOR),
    Transition(INVALIDATED, PUBLISHED, EDITOR),
)


class TransitionError(ValueError):
    """A transition the state machine refuses; ``code`` tells which rule was broken."""

    def __init__(self, code: str, source: str, target: str) -> None:
        super().__init__(f"{code}: {source} -> {target}")
        self.code = code
        self.source = source
        self.target = target


def state_label(state: str) -> str:
    labels = {
        DRAFT: tk._("Draft"),
        SUBMITTED: tk._("Submitted for review"),
        RETURNED: tk._("Returned for changes"),
        PUBLISHED: tk._("Published"),
        INVALIDATED: tk._("Invalidated"),
    }
    return labels.get(state, state)


def action_label(transition: Transition) -> str:
    """What the button taking ``transition`` says."""
    if transition.target == SUBMITTED:
        return tk._("Submit for review")
    if transition.target == RETURNED:
        return tk._("Return for changes")
    if transition.target == INVALIDATED:
        return tk._("Invalidate")
    return tk._("Publish")


def state_of(pkg_dict: dict[str, Any]) -> str:
    """The record's state; a record that never went through the guard (created before it existed) is a draft."""
    state = pkg_dict.get(FIELD)
    return state if state in STATES else DRAFT


def transitions_from(source: str) -> list[Transition]:
    return [t for t in TRANSITIONS if t.source == source]


def find_transition(source: str, target: str, comment: str = "") -> Transition:
    """The transition from ``source`` to ``target``; raises TransitionError when it is not allowed."""
    if target not in STATES:
        raise TransitionError("unknown_state", source, target)
    for transition in transitions_from(source):
        if transition.target == target:
            if transition.comment_required and not comment.strip():
                raise TransitionError("comment_required", source, target)
            return transition
    raise TransitionError("not_allowed", source, target)


def violates_four_eyes(source: str, target: str, actor_id: Optional[str], submitter_id: Optional[str]) -> bool:
    """Whoever submitted a record may not approve it: publishing a submission needs a second person."""
    return source == SUBMITTED and target == PUBLISHED and actor_id is not None and actor_id == submitter_id


def initial_state(requested: Any, trusted_creator: bool, allowed: Iterable[str]) -> str:
    """State of a new record: draft, unless a trusted creator asks for one of the site's allowed initial states."""
    return requested if initial_state_refusal(requested, trusted_creator, allowed) is None else DRAFT


def initial_state_refusal(requested: Any, trusted_creator: bool, allowed: Iterable[str]) -> Optional[str]:
    """Why a new record may not start as ``requested`` (a stable code), or ``None`` when it may.

    Draft is always allowed. Any other starting state needs the site's consent (``allowed``, the option
    ``ckanext.passport.initial_states``) and a trusted creator (a sysadmin; harvests run as one).
    """
    if requested == DRAFT:
        return None
    if requested not in STARTING_STATES or requested not in allowed:
        return "editorial_state_not_allowed"
    if not trusted_creator:
        return "editorial_state_sysadmin_only"
    return None


# Role resolution (CKAN memberships) -------------------------------------------------------------------


def editors_organization() -> Optional[model.Group]:
    name = settings.editors_organization()
    org = model.Group.get(name) if name else None
    return org if org is not None and org.is_organization else None


def is_editor(user_name: Optional[str]) -> bool:
    if not user_name:
        return False
    if authz.is_sysadmin(user_name):
        return True
    org = editors_organization()
    return org is not None and authz.users_role_for_group_or_org(org.id, user_name) is not None


def is_curator(user_name: Optional[str], package: model.Package) -> bool:
    """Editor or admin of the record's organization; an unowned record's curator is its creator."""
    if not user_name:
        return False
    if not package.owner_org:
        user = model.User.get(user_name)
        return user is not None and user.id == package.creator_user_id
    return authz.users_role_for_group_or_org(package.owner_org, user_name) in ("editor", "admin")


def _active_members(group_id: str, capacities: Optional[tuple[str, ...]] = None) -> list[model.User]:
    query = (
        model.Session.query(model.User)
        .join(model.Member, model.Member.table_id == model.User.id)
        .filter(model.Member.group_id == group_id)
        .filter(model.Member.table_name == "user")
        .filter(model.Member.state == "active")
        .filter(model.User.state == "active")
    )
    if capacities:
        query = query.filter(model.Member.capacity.in_(capacities))
    return query.all()


def curators_of(package: model.Package) -> list[model.User]:
    if not package.owner_org:
        creator = model.User.get(package.creator_user_id) if package.creator_user_id else None
        return [creator] if creator is not None else []
    return _active_members(package.owner_org, ("editor", "admin"))


def curated_organizations(user_name: Optional[str]) -> list[str]:
    """The ids of the organizations whose records ``user_name`` curates (editor or admin): their own membership,
    not a sysadmin's reach over every organization."""
    user = model.User.get(user_name) if user_name else None
    if user is None:
        return []
    rows = (
        model.Session.query(model.Member.group_id)
        .join(model.Group, model.Group.id == model.Member.group_id)
        .filter(model.Member.table_id == user.id, model.Member.table_name == "user")
        .filter(model.Member.state == "active", model.Member.capacity.in_(("editor", "admin")))
        .filter(model.Group.is_organization.is_(True), model.Group.state == "active")
        .all()
    )
    return [row.group_id for row in rows]


def editors() -> list[model.User]:
    """The editors to notify: the editors organization's members, or the sysadmins when there is none."""
    org = editors_organization()
    if org is not None:
        return _active_members(org.id)
    return model.Session.query(model.User).filter(model.User.sysadmin.is_(True), model.User.state == "active").all()


# The guard ------------------------------------------------------------------------------------------


def editorial_state_guard(key: tuple, data: dict, errors: dict, context: dict) -> None:
    """Keep the editorial state out of the ordinary dataset actions.

    An update (any user, package_update and package_patch alike) keeps the stored state whatever it is
    sent, read under the record's row lock that package_update takes first (record_lock): a transition that
    committed while the update was on its way is kept. A new record starts as draft; a sysadmin (harvesters
    run as the site user, a sysadmin) may give it one of ``ckanext.passport.initial_states``. The workflow
    action alone sets a new state. Must not follow ``ignore_missing``: an update that omits the field would
    otherwise drop the state.
    """
    requested = data.get(key)
    if context.get(TRANSITION_FLAG):
        if requested not in STATES:
            errors[key].append(tk._("Unknown editorial state"))
        return
    package_id = data.get(("id",))
    package = model.Package.get(package_id) if isinstance(package_id, str) and package_id else None
    if package is not None:
        data[key] = state_of(package.extras)
        return
    if requested is missing:
        requested = None
    data[key] = initial_state(requested, authz.is_sysadmin(context.get("user")), settings.initial_states())


def validators() -> dict[str, Callable]:
    return {"passport_editorial_state_guard": editorial_state_guard}
