"""The ownership of a record harvested from another LKOD: the ``LKOD`` instance of the one ownership engine.

The fields the DCAT-AP-CZ mapping fills (``graph_in.DATASET_FIELDS`` / ``RESOURCE_FIELDS``, what the ``dcat_ap_cz``
profile's ``parse_dataset`` returns) are the harvester's. The dataset and distribution IRIs (``lkod_iri``) are the
record's identity, kept by the ``passport_mr_identity`` guard on every other edit path. Any other field is the
curator's: no harvest writes it, and a resource without an IRI is one the curator added.
"""
from __future__ import annotations

from typing import Any, Optional

from ckanext.passport.catalog.ownership import HARVESTER, MR_IDENTITY, Ownership
from ckanext.passport.lkod.graph_in import DATASET_FIELDS, RESOURCE_FIELDS

IRI_FIELD = "lkod_iri"


def distribution_iri(resource: dict[str, Any]) -> Optional[str]:
    """A resource's distribution IRI, ``None`` for a resource the curator added (or a blank node's)."""
    return resource.get(IRI_FIELD) or None


LKOD = Ownership(
    kind="LKOD",
    dataset_owners={name: MR_IDENTITY if name == IRI_FIELD else HARVESTER for name in DATASET_FIELDS},
    resource_owners={name: MR_IDENTITY if name == IRI_FIELD else HARVESTER for name in RESOURCE_FIELDS},
    resource_key=distribution_iri,
    # The record says what the other catalog says: a field it no longer states is cleared.
    empty_harvested_value_keeps_curator_text=False,
)
