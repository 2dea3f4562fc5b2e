"""Who may see a record, by its editorial state and ``ckanext.passport.review_scope``.

Permission labels carry the rule to every reader CKAN has: package_search (Solr filters on the labels),
package_show and so the dataset page, and every export built on those actions.

- ``full`` (default): only published records keep CKAN's ``public`` label; an unpublished record is seen
  by its organization's members (or its creator when unowned) and by the editors.
- ``partial``: every record is public; templates mark the unreviewed ones (``passport_unreviewed``).
- ``none``: no review; every record is public and unmarked.

Editors read every non-public active record, private ones included, because reviewing is their job.
"""
from __future__ import annotations

from typing import Any, Callable

import ckan.authz as authz
import ckan.model as model

from ckanext.passport import settings

from . import states
from ..record.validators import NOT_KEPT

FULL = "full"
PARTIAL = "partial"
NONE = "none"

PUBLIC = "public"
CATALOG_RECORD_TYPE = "dataset"
EDITOR_LABEL = "passport-editor"


def is_public_in_scope(state: str, scope: str) -> bool:
    return scope != FULL or state == states.PUBLISHED


def is_marked_unreviewed(state: str, scope: str) -> bool:
    """Partial scope shows records the editors have not approved, with a mark."""
    return scope == PARTIAL and state in (states.DRAFT, states.SUBMITTED, states.RETURNED)


def _owner_labels(dataset_obj: model.Package) -> list[str]:
    # What CKAN's DefaultPermissionLabels gives a non-public dataset.
    labels = []
    if authz.check_config_permission("allow_dataset_collaborators"):
        labels.append(f"collaborator-{dataset_obj.id}")
    if dataset_obj.owner_org:
        labels.append(f"member-{dataset_obj.owner_org}")
    else:
        labels.append(f"creator-{dataset_obj.creator_user_id}")
    return labels


def dataset_labels(labels: list[str], dataset_obj: model.Package) -> list[str]:
    if dataset_obj.type != CATALOG_RECORD_TYPE:
        # Harvest sources and other dataset types are not catalog records: review does not apply to them.
        return labels
    if PUBLIC in labels:
        if is_public_in_scope(states.state_of(dataset_obj.extras), settings.review_scope()):
            return labels
        labels = [label for label in labels if label != PUBLIC] + _owner_labels(dataset_obj)
    if dataset_obj.state == "active":
        labels = labels + [EDITOR_LABEL]
    return labels


def user_dataset_labels(labels: list[str], user_obj: Any) -> list[str]:
    # CKAN hands over None, "" or an anonymous user object for visitors who are not logged in.
    if user_obj and not user_obj.is_anonymous and states.is_editor(user_obj.name):
        return labels + [EDITOR_LABEL]
    return labels


def before_dataset_index(pkg_dict: dict[str, Any]) -> dict[str, Any]:
    """Index every record's state, drafts that never stored one included, for the queue and facets; never the
    fields naming whoever saved it (``validators.NOT_KEPT``, emptied by the migration of issue 24), which a search
    must not find a record by."""
    pkg_dict[states.FIELD] = states.state_of(pkg_dict)
    for field in NOT_KEPT:
        pkg_dict.pop(field, None)
    return pkg_dict


def unreviewed(pkg_dict: dict[str, Any]) -> bool:
    return is_marked_unreviewed(states.state_of(pkg_dict), settings.review_scope())


def helpers() -> dict[str, Callable]:
    return {"passport_unreviewed": unreviewed}
