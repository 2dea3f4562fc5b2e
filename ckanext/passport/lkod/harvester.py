"""The ``lkod`` harvest source type: another Czech local open-data catalog (DCAT-AP-CZ, documents variant).

Built on ckanext-dcat's RDF harvester, with the MR harvester's rules where they matter:

- gather reads the catalog document (the source's URL) and makes one object per listed dataset IRI (guid = the
  IRI, or the spelling its record was first gathered under: raw, percent-encoded and mixed spellings of one IRI
  are one dataset, :func:`listed_guids`); documents are asked for as JSON-LD, else Turtle; a dataset the catalog no longer lists is removed, as ckanext-dcat does, but never after a catalog that
  was not read whole (unreadable, or listing entries that are not IRIs), nor an empty one, nor more than
  ``max_delete_ratio`` of it (the MR harvester's deletion guard);
- fetch dereferences one dataset IRI (conditional GET, content hash: an unchanged document is not re-imported)
  and reads it with the ``dcat_ap_cz`` profile: a document that cannot be read is that object's coded error;
- import writes through CKAN actions with the harvest's context flag, only the fields the LKOD mapping owns
  (:mod:`.ownership`), after linking the object so the source lists its records; one record per IRI per source,
  and an IRI another source's record holds is refused (``harvest.lkod_iri_taken``), as is one on neither the
  catalog's host nor a host a sysadmin listed (``iri_hosts``: ``harvest.lkod_iri_foreign_host``).

Every network read goes through ``mr.fetch`` with the source's fetch policy (``settings.fetch_policy``).

Of ckanext-dcat's harvester it keeps the parser and its profiles, the dataset IRI as guid, resources matched by
their IRI and the removal of datasets the catalog stopped listing; its stages themselves are replaced (its gather
fetches without our guard and deletes after any read, its import rewrites the whole record), and its
``IDCATRDFHarvester`` hooks are not called.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable, Optional
from urllib.parse import urlsplit

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.dcat.harvesters.rdf import DCATRDFHarvester

from ckanext.passport import settings, source_types
from ckanext.passport.catalog.record import mapping
from ckanext.passport.harvest import index_check, names, objects, records, stage_guard, stored
from ckanext.passport.harvest.config_authority import checked_config
from ckanext.passport.harvest.deletion_guard import queue_deletions
from ckanext.passport.harvest.findings import save_gather_error, save_object_error
from ckanext.passport.harvest.index_commits import commit_mode, import_indexed
from ckanext.passport.harvest.sessions import source_session
from ckanext.passport.harvest.source_type import source_type_info
from ckanext.passport.mr.fetch import fetch
from ckanext.passport.mr.limits import ReadLimits
from ckanext.passport.mr.model import Problem
from ckanext.passport.mr.problems import problem

from . import documents
from .harvest_config import SCHEMA, LkodConfig, config_errors, load_config
from .iris import iri_key
from .ownership import IRI_FIELD, LKOD

_ = tk._


class LkodHarvester(DCATRDFHarvester):
    """Harvests another LKOD's catalog (DCAT-AP-CZ documents) into Czech catalog records."""

    SOURCE_TYPE = source_types.LKOD
    # A new record's name by the package name's index, not ckanext-harvest's ILIKE over every name (harvest.names).
    _ensure_name_is_unique = staticmethod(names.unique_name)

    def info(self) -> dict[str, str]:
        return source_type_info(
            self.SOURCE_TYPE,
            _("Czech local open-data catalog (LKOD, DCAT-AP-CZ)"),
            _(
                "Harvests another Czech local open-data catalog through its DCAT-AP-CZ interface: the catalog "
                "document and the document of each dataset it lists."
            ),
        )

    # The source form's help (harvest.source_form): this type's config keys, and a valid example of them.
    def config_schema(self) -> dict[str, Any]:
        return SCHEMA

    def config_example(self) -> dict[str, Any]:
        return {"rdf_format": "turtle", "on_missing": "withdraw"}

    def validate_config(self, config: str) -> str:
        """The config, or a ValueError with each coded refusal: the MR harvester's config authority over this
        type's schema (fetch limits, private addresses and the new records' state mean the same here)."""
        return checked_config(config, config_errors(config))

    # -- gather -----------------------------------------------------------------------------------------

    def gather_stage(self, harvest_job: Any) -> list[str]:
        return stage_guard.gather_stage(harvest_job, lambda: self._gather(harvest_job))

    def _gather(self, harvest_job: Any) -> list[str]:
        gone = index_check.converge(harvest_job)
        source = harvest_job.source
        config = self._config(source)
        listed = self._read_catalog(source.url, config, harvest_job)
        if listed is None:
            # Not read whole: nothing is gathered, so nothing is deleted.
            return []
        iris, damage = listed.iris, listed.problems
        for found in damage + listed.warnings:
            save_gather_error(found, harvest_job)

        previous = objects.current_objects(source.id)
        guids = listed_guids(iris, previous)
        ids = [
            objects.add_object(harvest_job, guid, stored.CHANGE if guid in previous else stored.NEW,
                               stored.LkodContent(iri).to_json(), previous.get(guid), position=position,
                               gone=gone.get(guid, ""), extras={stored.CATALOG_NORM: listed.norm})
            for position, (guid, iri) in enumerate(guids)
        ]
        model.Session.commit()

        return ids + queue_deletions(harvest_job, previous, {guid for guid, _iri in guids}, config, damage)

    @staticmethod
    def _read_catalog(url: str, config: LkodConfig, job: Any) -> Optional[documents.CatalogRead]:
        """The catalog's dataset IRIs, the problems of its entries and its norm; ``None`` (with a gather error)
        when the catalog document cannot be read."""
        limit = settings.max_lkod_catalog_bytes()
        policy = ReadLimits.policy(config.policy, limit)
        fetched = fetch(url, policy, session=source_session(job.source_id, policy), accept=documents.ACCEPT)
        if fetched.problem is not None:
            save_gather_error(fetched.problem, job)
            return None
        try:
            return documents.catalog_document(
                fetched.content, fetched.url, fetched.content_type, url, config.rdf_format, limit=limit
            )
        except documents.DocumentRefused as refused:
            save_gather_error(refused.problem, job)
            return None

    # -- fetch ------------------------------------------------------------------------------------------

    def fetch_stage(self, harvest_object: Any) -> Any:
        return stage_guard.object_stage(harvest_object, "Fetch", lambda: self._fetch(harvest_object))

    def _fetch(self, harvest_object: Any) -> Any:
        if stored.status(harvest_object) == stored.DELETE:
            return True
        config = self._config(harvest_object.source)
        iri = stored.LkodContent.from_json(harvest_object.content).iri
        refused = foreign_host_refusal(iri, harvest_object.source.url, config)
        if refused is not None:
            save_object_error(refused, harvest_object, "Fetch")
            return False
        current = objects.previous_object(harvest_object)
        previous = stored.extras_of(current) if current is not None else {}
        limit = settings.max_lkod_dataset_bytes()
        policy = ReadLimits.policy(config.policy, limit)
        fetched = objects.conditional_fetch(iri, policy, previous, stored.DOCUMENT_URL,
                                            source_session(harvest_object.harvest_source_id, policy),
                                            accept=documents.ACCEPT)
        if fetched.not_modified:
            return objects.unchanged(harvest_object, current)
        if fetched.problem is not None:
            save_object_error(fetched.problem, harvest_object, "Fetch")
            return False
        digest = objects.new_content_hash(harvest_object, fetched, previous)
        if digest is None:
            return objects.unchanged(harvest_object, current)
        try:
            dataset, norm = documents.read_dataset(
                fetched.content, fetched.url, fetched.content_type, iri, config.rdf_format, limit=limit
            )
        except documents.DocumentRefused as refused:
            save_object_error(refused.problem, harvest_object, "Fetch")
            return False
        objects.remember_fetch(harvest_object, fetched, digest, stored.DOCUMENT_URL, iri, **{stored.READ_NORM: norm})
        harvest_object.content = stored.LkodContent(iri, LKOD.harvested_part(dataset)).to_json()
        # ckanext-harvest saves the object as soon as this stage returns.
        return True

    # -- import -----------------------------------------------------------------------------------------

    def import_stage(self, harvest_object: Any, again: bool = False) -> Any:
        """``again``: a handled object imported once more (``check-index --repair``, :mod:`.index_check`)."""
        source = harvest_object.source
        return import_indexed(harvest_object, commit_mode(lambda: self._config(source)),
                              lambda: self._import(harvest_object, self._config(source)), again)

    def _import(self, harvest_object: Any, config: LkodConfig) -> Any:
        # The flag lets a harvested record land without the curator's part, and write its guarded IRIs.
        context = {"user": self._get_user_name(), "ignore_auth": True, "passport_harvest": True}
        previous = objects.previous_object(harvest_object)
        if stored.status(harvest_object) == stored.DELETE:
            return records.remove_record(harvest_object, previous, config, context)

        content = stored.LkodContent.from_json(harvest_object.content)
        iri = content.iri
        harvested = dict(content.dataset or {}, **{IRI_FIELD: iri})
        prior = records.prior_record(previous, config.restore_deleted, context)
        if prior.kept_deleted is not None:
            return records.keep_deleted(harvest_object, prior.kept_deleted)
        existing, taken_by = records.claim(iri, IRI_FIELD, harvest_object, prior.record, context)
        if taken_by is not None:
            found = problem("harvest.lkod_iri_taken", url=iri, iri=iri, name=taken_by.name, title=taken_by.title)
            save_object_error(found, harvest_object, "Import")
            return False
        return records.store_record(
            harvest_object,
            previous,
            existing,
            create=lambda: self._create(harvested, harvest_object, previous, config, context),
            unchanged=lambda: existing.get(IRI_FIELD) == iri and not LKOD.harvested_differs(existing, harvested),
            merged=lambda: LKOD.merge_harvested(existing, harvested),
            context=context,
            brought_back=bool(prior.gone),
        )

    def _create(self, harvested: dict, harvest_object: Any, previous: Optional[Any], config: LkodConfig,
                context: dict) -> None:
        harvested["name"] = self._gen_new_name(_ascii(harvested.get("title") or "")) or mapping.dataset_name(
            harvested[IRI_FIELD] + harvest_object.source.id
        )
        owner = records.source_organization(harvest_object.source)
        if owner:
            harvested["owner_org"] = owner
        records.create_record(harvested, harvest_object, previous, config, context)

    # -- shared -----------------------------------------------------------------------------------------

    @staticmethod
    def _config(source: Any) -> LkodConfig:
        return load_config(source.config, settings.site_fetch_options())


def listed_guids(listed: list[str], previous: Iterable[str]) -> list[tuple[str, str]]:
    """Each listed dataset once, as (guid, IRI as the catalog writes it now): one dataset is one record whichever
    spelling of its IRI a job sees (:func:`iris.iri_key`), so its guid stays the one its record was first
    gathered under, else it is the IRI as written."""
    known = {iri_key(guid): guid for guid in previous}
    seen: set[str] = set()
    guids = []
    for iri in listed:
        key = iri_key(iri)
        if key not in seen:
            seen.add(key)
            guids.append((known.get(key, iri), iri))
    return guids


def foreign_host_refusal(iri: str, catalog_url: str, config: LkodConfig) -> Optional[Problem]:
    """The refusal of a dataset IRI on neither the catalog's host nor a host a sysadmin listed (``iri_hosts``):
    a catalog speaks for its own host's datasets, not for another publisher's (``harvest.lkod_iri_foreign_host``)."""
    host = (urlsplit(iri).hostname or "").lower()
    catalog_host = (urlsplit(catalog_url).hostname or "").lower()
    if host and (host == catalog_host or host in config.iri_hosts):
        return None
    return problem("harvest.lkod_iri_foreign_host", url=iri, iri=iri, host=host, catalog_host=catalog_host)


def _ascii(title: str) -> str:
    """The title in ASCII letters for a record's name: CKAN's munge drops the letters it has no equivalent for
    (``ř``, ``ě``), so "Jízdní řády" would be named ``jizdni-ady``; decomposed, they keep their base letter."""
    return unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
