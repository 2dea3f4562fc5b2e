"""The ``lkod`` harvest source type: another Czech local open-data catalog (DCAT-AP-CZ, documents variant).

Built on ckanext-dcat's RDF harvester, with the MR harvester's rules where they matter:

- gather reads the catalog document (the source's URL) and makes one object per listed dataset IRI (guid = the
  IRI); a dataset the catalog no longer lists is removed, as ckanext-dcat does, but never after a catalog that
  was not read whole (unreadable, or listing entries that are not IRIs), nor an empty one, nor more than
  ``max_delete_ratio`` of it (the MR harvester's deletion guard);
- fetch dereferences one dataset IRI (conditional GET, content hash: an unchanged document is not re-imported)
  and reads it with the ``dcat_ap_cz`` profile: a document that cannot be read is that object's coded error;
- import writes through CKAN actions with the harvest's context flag, only the fields the LKOD mapping owns
  (:mod:`.ownership`), after linking the object so the source lists its records; one record per IRI per source,
  and an IRI another source's record holds is refused (``harvest.lkod_iri_taken``).

Every network read goes through ``mr.fetch`` with the source's fetch policy (``settings.fetch_policy``).

Of ckanext-dcat's harvester it keeps the parser and its profiles, the dataset IRI as guid, resources matched by
their IRI and the removal of datasets the catalog stopped listing; its stages themselves are replaced (its gather
fetches without our guard and deletes after any read, its import rewrites the whole record), and its
``IDCATRDFHarvester`` hooks are not called.
"""
from __future__ import annotations

import hashlib
import json
import unicodedata
import uuid
from typing import Any, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.dcat.harvesters.rdf import DCATRDFHarvester

from ckanext.passport import settings

from ckanext.passport.harvest import stage_guard, index_check, mapping
from ckanext.passport.harvest import problems as codes
from ckanext.passport.catalog import identity
from ckanext.passport.harvest.findings import save_gather_error, save_object_error
# The MR harvester's object bookkeeping (objects made, linked, made current, removed; the deletion guard) is this
# type's too: shared, not copied.
from ckanext.passport.harvest.mr_harvester import (
    PassportHarvester,
    _add_object,
    _link,
    _previous_extras,
    _previous_object,
    _session,
    _set_extras,
    _source_of,
    _status,
    checked_config,
    queue_deletions,
    store_record,
)
from ckanext.passport.harvest.index_commits import import_indexed
from ckanext.passport.mr.fetch import fetch
from ckanext.passport.mr.limits import ReadLimits
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

from . import documents
from .harvest_config import LkodConfig, config_errors, load_config
from .ownership import IRI_FIELD, LKOD

_ = tk._


class LkodHarvester(DCATRDFHarvester):
    """Harvests another LKOD's catalog (DCAT-AP-CZ documents) into Czech catalog records."""

    def info(self) -> dict[str, str]:
        return {
            "name": "lkod",
            "title": _("Czech local open-data catalog (LKOD, DCAT-AP-CZ)"),
            "description": _(
                "Harvests another Czech local open-data catalog through its DCAT-AP-CZ interface: the catalog "
                "document and the document of each dataset it lists."
            ),
            "form_config_interface": "Text",
        }

    def validate_config(self, config: str) -> str:
        """The config, or a ValueError with each coded refusal: the MR harvester's config authority over this
        type's schema (fetch limits, private addresses and the new records' state mean the same here)."""
        return checked_config(config, config_errors(config))

    # -- gather -----------------------------------------------------------------------------------------

    def gather_stage(self, harvest_job: Any) -> list[str]:
        return stage_guard.gather_stage(harvest_job, lambda: self._gather(harvest_job))

    def _gather(self, harvest_job: Any) -> list[str]:
        index_check.converge(harvest_job)
        source = harvest_job.source
        config = self._config(source)
        listed = self._read_catalog(source.url, config, harvest_job)
        if listed is None:
            # Not read whole: nothing is gathered, so nothing is deleted.
            return []
        iris, damage = listed
        for found in damage:
            save_gather_error(found, harvest_job)

        previous = PassportHarvester._current_objects(source.id)
        ids = [
            _add_object(harvest_job, iri, "change" if iri in previous else "new", json.dumps({"iri": iri}),
                        previous.get(iri))
            for iri in iris
        ]
        model.Session.commit()

        return ids + queue_deletions(harvest_job, previous, set(iris), config, damage)

    @staticmethod
    def _read_catalog(url: str, config: LkodConfig, job: Any) -> Optional[tuple[list[str], list[Problem]]]:
        """The catalog's dataset IRIs and the problems of its entries; ``None`` (with a gather error) when the
        catalog document cannot be read."""
        limit = settings.max_lkod_catalog_bytes()
        policy = ReadLimits.policy(config.policy, limit)
        fetched = fetch(url, policy, session=_session(job.source_id, policy))
        if fetched.problem is not None:
            save_gather_error(fetched.problem, job)
            return None
        try:
            return documents.read_catalog(
                fetched.content, fetched.url, fetched.content_type, url, config.rdf_format, limit=limit
            )
        except documents.DocumentRefused as refused:
            save_gather_error(refused.problem, job)
            return None

    # -- fetch ------------------------------------------------------------------------------------------

    def fetch_stage(self, harvest_object: Any) -> Any:
        return stage_guard.object_stage(harvest_object, "Fetch", lambda: self._fetch(harvest_object))

    def _fetch(self, harvest_object: Any) -> Any:
        if _status(harvest_object) == "delete":
            return True
        config = self._config(harvest_object.source)
        iri = harvest_object.guid
        previous = _previous_extras(harvest_object)
        conditional = previous.get("document_url") == iri
        limit = settings.max_lkod_dataset_bytes()
        policy = ReadLimits.policy(config.policy, limit)
        fetched = fetch(
            iri,
            policy,
            etag=previous.get("etag") if conditional else None,
            last_modified=previous.get("last_modified") if conditional else None,
            session=_session(harvest_object.harvest_source_id, policy),
        )
        if fetched.not_modified:
            return "unchanged"
        if fetched.problem is not None:
            save_object_error(fetched.problem, harvest_object, "Fetch")
            return False
        digest = hashlib.sha256(fetched.content).hexdigest()
        if digest == previous.get("content_hash") and not getattr(harvest_object, "force_import", False):
            return "unchanged"
        try:
            dataset = documents.parse_dataset(
                fetched.content, fetched.url, fetched.content_type, iri, config.rdf_format, limit=limit
            )
        except documents.DocumentRefused as refused:
            save_object_error(refused.problem, harvest_object, "Fetch")
            return False
        _set_extras(harvest_object, etag=fetched.etag or "", last_modified=fetched.last_modified or "",
                    content_hash=digest, document_url=iri)
        harvest_object.content = json.dumps(
            {"iri": iri, "dataset": LKOD.harvested_part(dataset)}, ensure_ascii=False
        )
        # ckanext-harvest saves the object as soon as this stage returns.
        return True

    # -- import -----------------------------------------------------------------------------------------

    def import_stage(self, harvest_object: Any) -> Any:
        return import_indexed(harvest_object, "soft",
                              lambda: self._import(harvest_object, self._config(harvest_object.source)))

    def _import(self, harvest_object: Any, config: LkodConfig) -> Any:
        # The flag lets a harvested record land without the curator's part, and write its guarded IRIs.
        context = {"user": self._get_user_name(), "ignore_auth": True, "passport_harvest": True}
        previous = _previous_object(harvest_object)
        if _status(harvest_object) == "delete":
            return PassportHarvester._remove(harvest_object, previous, config, context)

        content = json.loads(harvest_object.content)
        iri = content["iri"]
        harvested = dict(content["dataset"], **{IRI_FIELD: iri})
        existing = PassportHarvester._existing_dataset(previous.package_id if previous else None, context)
        existing, taken_by = _claim(iri, harvest_object, existing, context)
        if taken_by is not None:
            found = problem(codes.LKOD_IRI_TAKEN, url=iri, iri=iri, name=taken_by.name, title=taken_by.title)
            save_object_error(found, harvest_object, "Import")
            return False
        return store_record(
            harvest_object,
            previous,
            existing,
            create=lambda: self._create(harvested, harvest_object, previous, config, context),
            unchanged=lambda: existing.get(IRI_FIELD) == iri and not LKOD.harvested_differs(existing, harvested),
            merged=lambda: LKOD.merge_harvested(existing, harvested),
            context=context,
        )

    def _create(self, harvested: dict, harvest_object: Any, previous: Optional[Any], config: LkodConfig,
                context: dict) -> None:
        harvested["name"] = self._gen_new_name(_ascii(harvested.get("title") or "")) or mapping.dataset_name(
            harvested[IRI_FIELD] + harvest_object.source.id
        )
        # A harvest source is stored as a dataset of type "harvest": its organization is that dataset's.
        source_dataset = model.Package.get(harvest_object.source.id)
        if source_dataset is not None and source_dataset.owner_org:
            harvested["owner_org"] = source_dataset.owner_org
        if config.default_editorial_state:
            harvested["editorial_state"] = config.default_editorial_state
        # The id is made here so the object can be current for it before the dataset is first indexed.
        harvested["id"] = str(uuid.uuid4())
        _link(harvest_object, previous, harvested["id"], new=True)
        tk.get_action("package_create")(dict(context, return_id_only=True), harvested)

    # -- shared -----------------------------------------------------------------------------------------

    @staticmethod
    def _config(source: Any) -> LkodConfig:
        return load_config(source.config, settings.site_fetch_options())


def _claim(
    iri: str, harvest_object: Any, existing: Optional[dict], context: dict
) -> tuple[Optional[dict], Optional[model.Package]]:
    """The record the object writes, and the record of another source (or of the portal) holding its IRI.

    A record of this very source holding the IRI while no current object links them (a failed import, a
    withdrawn record) is taken up again rather than doubled, as the MR harvester does with identifiers.
    """
    if existing is not None and existing.get(IRI_FIELD) == iri:
        return existing, None
    for holder in identity.holders(iri, excluding=existing["id"] if existing else None, field=IRI_FIELD):
        if existing is None and _source_of(holder.id) == harvest_object.harvest_source_id:
            existing = PassportHarvester._existing_dataset(holder.id, context)
        else:
            return existing, holder
    return existing, None


def _ascii(title: str) -> str:
    """The title in ASCII letters for a record's name: CKAN's munge drops the letters it has no equivalent for
    (``ř``, ``ě``), so "Jízdní řády" would be named ``jizdni-ady``; decomposed, they keep their base letter."""
    return unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
