"""The ckanext-harvest adapter: gather / fetch / import stages over ``mr`` and ``mapping``.

Every stage keeps its state in harvest objects only (content and extras), so any number of fetch consumers
can run side by side. Bad input never aborts a job: each problem becomes a gather error or a per-object
error carrying its stable code (:mod:`findings` stores it so every reader gets it in their language).
"""
from __future__ import annotations

import datetime as dt
import json
import logging
from functools import partial
from itertools import chain
from typing import Any, Iterable, Optional

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckanext.harvest.harvesters.base import HarvesterBase

from ckanext.passport import settings, source_types
from ckanext.passport.catalog.record import mapping
from ckanext.passport.harvest import form_memory, index_check, names, objects, publishers, records, stage_guard, stored
from ckanext.passport.harvest.config import SCHEMA, HarvestConfig, config_errors, load_config
from ckanext.passport.harvest.config_authority import checked_config
from ckanext.passport.harvest.deletion_guard import queue_deletions
from ckanext.passport.harvest.findings import line, save_gather_error, save_object_error
from ckanext.passport.harvest.index_commits import commit_mode, import_indexed
from ckanext.passport.catalog.ownership import MR
from ckanext.passport.harvest.sessions import source_session
from ckanext.passport.harvest.source_type import source_type_info
from ckanext.passport.language import site_translate
from ckanext.passport.mr import serialize, urls
from ckanext.passport.mr.check import check_passport, score
from ckanext.passport.mr.datacheck import check_data
from ckanext.passport.mr.decode import recode
from ckanext.passport.mr.discover import discover_registry
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchResult, fetch
from ckanext.passport.mr.forms import forms
from ckanext.passport.mr.limits import ReadLimits
from ckanext.passport.mr.model import ParseResult, Passport, Problem, RegistryEntry, Severity
from ckanext.passport.mr.passport import looks_like_data_file, parse_passport, passport_from_entry, passport_locations
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.registry import iter_registry
from ckanext.passport.mr.structure import read_structure_fields

log = logging.getLogger(__name__)
_ = tk._

# Warnings that are hostile rather than sloppy: the object is reported errored even though what could be read
# still lands.
PROMOTED_TO_ERROR = frozenset({"xml.entity_declared"})
# Forms whose bytes carry no declaration of their own encoding, so a source's override applies to them.
_UNDECLARED_ENCODING_FORMS = forms(undeclared_encoding=True)


def grouped(problems: Iterable[Problem]) -> list[tuple[Problem, int]]:
    """Each code once, with how often it occurred: forty versions with one flaw are one finding, not forty."""
    counts: dict[str, int] = {}
    first: dict[str, Problem] = {}
    for found in problems:
        if found.severity is Severity.INFO:
            continue
        counts[found.code] = counts.get(found.code, 0) + 1
        first.setdefault(found.code, found)
    return [(first[code], counts[code]) for code in first]


def normalise_guid(identifier: str) -> str:
    return identifier.strip().strip("/").lower()


class PassportHarvester(HarvesterBase):
    """Harvests sites publishing under the Russian Methodological Recommendations (MR 2.3 and 3.0)."""

    SOURCE_TYPE = source_types.PASSPORT
    # A new record's name by the package name's index, not ckanext-harvest's ILIKE over every name (harvest.names).
    _ensure_name_is_unique = staticmethod(names.unique_name)

    def info(self) -> dict[str, str]:
        return source_type_info(
            self.SOURCE_TYPE,
            _("Open data passports (MR 2.3 / 3.0)"),
            _(
                "Harvests a site's open-data registry and dataset passports published under the "
                "Methodological Recommendations MR 2.3 and MR 3.0."
            ),
        )

    # The source form's help (harvest.source_form): this type's config keys, and a valid example of them.
    def config_schema(self) -> dict[str, Any]:
        return SCHEMA

    def config_example(self) -> dict[str, Any]:
        return {"formats": ["meta.json", "meta.csv"], "on_missing": "withdraw", "fetch_structures": True}

    def validate_config(self, config: str) -> str:
        """The config, or a ValueError that ckanext-harvest shows as the ``config`` field's error.

        A source is editable by organization admins, so whatever reaches past their organization (another
        organization, the harvest user, new organizations, internal hosts, skipping review, limits above the
        site's) is refused unless a sysadmin saves it.
        """
        return checked_config(config, config_errors(config))

    # -- gather -----------------------------------------------------------------------------------------

    def gather_stage(self, harvest_job: Any) -> list[str]:
        return stage_guard.gather_stage(harvest_job, lambda: self._gather(harvest_job))

    def _gather(self, harvest_job: Any) -> list[str]:
        source = harvest_job.source
        gone = index_check.converge(harvest_job)
        config = self._config(source)
        fetched, items = open_registry(source.url, config, source.id)
        previous = objects.current_objects(source.id)
        ids: list[str] = []
        seen: set[str] = set()
        problems: list[Problem] = []
        # Objects are made as the registry streams in and committed in batches, so a registry of any size
        # is gathered without holding its entries (or thousands of pending objects) at once.
        for item in stage_guard.read_items(items, fetched.url if fetched else source.url):
            if isinstance(item, Problem):
                problems.append(item)
                continue
            guid = normalise_guid(item.identifier)
            if not guid:
                continue
            seen.add(guid)
            content = stored.MrContent(entry=serialize.to_jsonable(item), registry_url=fetched.url).to_json()
            status = stored.CHANGE if guid in previous else stored.NEW
            ids.append(objects.add_object(harvest_job, guid, status, content, previous.get(guid), position=len(ids),
                                          gone=gone.get(guid, "")))
            if len(ids) % _GATHER_BATCH == 0:
                model.Session.commit()
        model.Session.commit()

        damage = [found for found in problems if found.severity is Severity.ERROR]
        readable = fetched is not None and (seen or not damage)
        for found in problems:
            if found.severity is Severity.ERROR or not readable:
                save_gather_error(found, harvest_job)
        if not readable:
            return ids

        return ids + queue_deletions(harvest_job, previous, seen, config, damage)

    # -- fetch ------------------------------------------------------------------------------------------

    def fetch_stage(self, harvest_object: Any) -> Any:
        return stage_guard.object_stage(harvest_object, "Fetch", lambda: self._fetch(harvest_object))

    def _fetch(self, harvest_object: Any) -> Any:
        if stored.status(harvest_object) == stored.DELETE:
            return True
        # Every fetch of the object (each passport form, its data and structure files) ends by this one deadline.
        budget = Deadline.after(settings.harvest_object_budget())
        config = self._config(harvest_object.source)
        content = stored.MrContent.from_json(harvest_object.content)
        entry = serialize.entry_from_jsonable(content.entry)
        # Under another organization's INN, refused before any fetch: an unreadable passport claims it too.
        refused = publishers.inn_refusal(entry.identifier, records.source_organization(harvest_object.source), config)
        if refused is not None:
            save_object_error(refused, harvest_object, "Fetch")
            return False
        registry_url = content.registry_url
        current = objects.previous_object(harvest_object)
        previous = stored.extras_of(current) if current is not None else {}

        if looks_like_data_file(entry.link, entry.format):
            read, fetched = passport_from_entry(entry, registry_url), None
        else:
            now = dt.datetime.now(dt.timezone.utc)
            read, fetched, attempts, probed = self._read_passport(entry, registry_url, config, previous,
                                                                  harvest_object.harvest_source_id, budget, now)
            # The probe's time goes with the current object while it stays current, else with the new one.
            probe_stamp = now.isoformat() if probed else previous.get(stored.FORMS_PROBED, "")
            if fetched is not None and fetched.not_modified:
                _remember_probe(current, probed, probe_stamp)
                return objects.unchanged(harvest_object, current)
            if read is None:
                for found in attempts:
                    save_object_error(found, harvest_object, "Fetch")
                return False
            digest = objects.new_content_hash(harvest_object, fetched, previous)
            if digest is None:
                _remember_probe(current, probed, probe_stamp)
                return objects.unchanged(harvest_object, current)
            objects.remember_fetch(harvest_object, fetched, digest, stored.PASSPORT_URL, fetched.url,
                                   **{stored.FORMS_PROBED: probe_stamp})

        report = check_passport(read.value, entry, fetched.url if fetched else entry.link, read.form)
        checked = report.problems + (
            _data_findings(read.value, config, harvest_object.harvest_source_id, budget) if config.check_data else [])
        # ckanext-harvest counts any object error as a failed object. A passport that was read lands, so its
        # parse and conformance findings (a missing data file among them) are kept on the object (extra
        # "findings", and its content) and in the dataset's conformance score; only hostile input is an error here.
        findings = []
        stored_language = site_translate()
        for found, repeats in grouped(read.problems + checked):
            if found.code in PROMOTED_TO_ERROR:
                save_object_error(found, harvest_object, "Fetch", repeats)
            else:
                findings.append(line(found, repeats, stored_language))
        # Scored as the site check scores: what reading the passport found counts too.
        passport_score = score(read.problems + checked)
        stored.set_extras(harvest_object, **{stored.FINDINGS: json.dumps(findings, ensure_ascii=False),
                                             stored.SCORE: str(passport_score)})
        if config.fetch_structures:
            _attach_structure_fields(read.value, config, harvest_object, budget)
        content.passport = serialize.to_jsonable(read.value)
        content.form, content.encoding = read.form, read.encoding
        content.problems = [p.as_dict() for p in read.problems]
        content.score, content.conformance_problems = passport_score, [p.as_dict() for p in checked]
        harvest_object.content = content.to_json()
        # ckanext-harvest saves the object as soon as this stage returns.
        return True

    def _read_passport(
        self, entry: RegistryEntry, registry_url: str, config: HarvestConfig, previous: dict[str, str],
        source_id: str, budget: Deadline, now: dt.datetime,
    ) -> tuple[Optional[ParseResult[Passport]], Optional[FetchResult], list[Problem], bool]:
        """The first passport form that reads, in the source's preference order (the place the last read found it
        first, unless a probe is due: ``harvest.form_memory``); else every attempt's problems. The flag says
        whether every place before the one that answered was tried in that order (a probe)."""
        link = urls.join(registry_url, entry.link.strip())
        offered = passport_locations(link)
        # The file the registry links comes first (a guess at a sibling is a wasted request on every harvest);
        # the source's preference orders the fallbacks.
        preferred = sorted(
            offered,
            key=lambda loc: (
                loc is not offered[0] or loc[0] not in config.formats,
                config.formats.index(loc[0]) if loc[0] in config.formats else len(config.formats),
            ),
        )
        locations, probing = form_memory.ordered(preferred, previous, now, settings.harvest_form_probe_interval())
        session = source_session(source_id, config.policy)
        attempts: list[Problem] = []
        for tried, (form, url) in enumerate(locations):
            # Past the remembered place, the others are tried in preference order: a probe after all.
            probed = probing or tried > 0
            fetched = objects.conditional_fetch(url, ReadLimits.policy(config.policy, config.limits.passport_limit(form)),
                                                previous, stored.PASSPORT_URL, session, budget)
            if fetched.not_modified:
                return None, fetched, [], probed
            if fetched.problem is not None:
                attempts.append(fetched.problem)
                continue
            data = fetched.content
            if config.encoding and form in _UNDECLARED_ENCODING_FORMS:
                data = recode(data, config.encoding)
            read = parse_passport(data, fetched.url, limits=config.limits)
            if read.value is not None and (read.value.identifier or read.value.title):
                return read, fetched, attempts, probed
            attempts.extend(read.problems)
        return None, None, attempts, True

    # -- import -----------------------------------------------------------------------------------------

    def import_stage(self, harvest_object: Any, again: bool = False) -> Any:
        """``again``: a handled object imported once more (``check-index --repair``, :mod:`.index_check`)."""
        source = harvest_object.source
        return import_indexed(harvest_object, commit_mode(lambda: self._config(source)),
                              lambda: self._import(harvest_object, self._config(source)), again)

    def _import(self, harvest_object: Any, config: HarvestConfig) -> Any:
        # The flag lets a harvested record land without the curator's part of the catalog record.
        context = {"user": self._user_name_for(config), "ignore_auth": True, "passport_harvest": True}
        previous = objects.previous_object(harvest_object)
        if stored.status(harvest_object) == stored.DELETE:
            return records.remove_record(harvest_object, previous, config, context)

        content = stored.MrContent.from_json(harvest_object.content)
        passport = serialize.passport_from_jsonable(content.passport)
        entry = serialize.entry_from_jsonable(content.entry)
        harvested = mapping.passport_to_dataset(passport, content.score, entry.identifier)
        identifier = harvested["mr_identifier"]
        refused = publishers.inn_refusal(identifier, records.source_organization(harvest_object.source), config)
        if refused is not None:
            save_object_error(refused, harvest_object, "Import")
            return False
        prior = records.prior_record(previous, config.restore_deleted, context)
        if prior.kept_deleted is not None:
            return records.keep_deleted(harvest_object, prior.kept_deleted)
        existing, taken_by = records.claim(identifier, settings.identifier_field(), harvest_object, prior.record,
                                           context)
        if taken_by is not None:
            save_object_error(_identifier_taken(identifier, taken_by), harvest_object, "Import")
            return False
        return records.store_record(
            harvest_object,
            previous,
            existing,
            create=lambda: self._create(
                _with_identifier(harvested, identifier), harvest_object, previous, config, context
            ),
            unchanged=lambda: _holds(existing, identifier) and not MR.harvested_differs(existing, harvested),
            merged=lambda: _with_identifier(MR.merge_harvested(existing, harvested), identifier),
            context=context,
            brought_back=bool(prior.gone),
        )

    def _create(self, harvested: dict, harvest_object: Any, previous: Optional[Any], config: HarvestConfig,
                context: dict) -> None:
        harvested["name"] = self._ensure_name_is_unique(harvested["name"]) or mapping.dataset_name(
            harvested["mr_identifier"] + harvest_object.source.id
        )
        owner = self._owner_org(harvested, harvest_object.source, config, context)
        if owner:
            harvested["owner_org"] = owner
        records.create_record(harvested, harvest_object, previous, config, context)

    def _owner_org(self, harvested: dict, source: Any, config: HarvestConfig, context: dict) -> Optional[str]:
        if config.organization:
            return config.organization
        if not config.create_organizations:
            return records.source_organization(source)
        key = harvested.get("publisher_id") or harvested.get("publisher_name") or "unknown"
        name = mapping.dataset_name(f"org-{key}")
        try:
            return tk.get_action("organization_show")(dict(context), {"id": name})["id"]
        except tk.ObjectNotFound:
            org = tk.get_action("organization_create")(
                dict(context), {"name": name, "title": harvested.get("publisher_name") or key}
            )
            return org["id"]

    # -- shared -----------------------------------------------------------------------------------------

    @staticmethod
    def _config(source: Any) -> HarvestConfig:
        return load_config(source.config, settings.site_fetch_options())

    def _user_name_for(self, config: HarvestConfig) -> str:
        return config.user or self._get_user_name()


_GATHER_BATCH = 1000


def open_registry(
    site_url: str, config: HarvestConfig, source_id: str, budget: Optional[Deadline] = None
) -> tuple[Optional[FetchResult], Iterable[Any]]:
    """The registry's fetch and its entries and problems in file order (streamed for list.xml); every fetch ends
    by ``budget`` when one is given."""
    if not config.registry_url:
        found = discover_registry(site_url, config.policy, fetcher=partial(fetch, deadline=budget),
                                  limits=config.limits)
        if not found.ok:
            return None, found.problems
        return found.fetched, chain(found.problems, found.registry.entries)
    fetched = fetch(config.registry_url, ReadLimits.policy(config.policy, config.limits.registry_bytes),
                    session=source_session(source_id, config.policy), deadline=budget)
    if fetched.problem is not None:
        return None, [fetched.problem]
    return fetched, iter_registry(fetched.content, fetched.url, limits=config.limits)


def _remember_probe(current: Optional[Any], probed: bool, stamp: str) -> None:
    """A probe that found the passport unchanged is remembered on the current object, which stays current."""
    if probed and current is not None:
        stored.set_extras(current, **{stored.FORMS_PROBED: stamp})


def _with_identifier(dataset: dict[str, Any], identifier: str) -> dict[str, Any]:
    """``dataset`` with the registry identifier in the site's identifier field too: publishing and the
    uniqueness check read it there (``ckanext.passport.identifier_field``)."""
    return dict(dataset, **{settings.identifier_field(): identifier})


def _holds(dataset: dict[str, Any], identifier: str) -> bool:
    return dataset.get(settings.identifier_field()) == identifier


def _identifier_taken(identifier: str, holder: model.Package) -> Problem:
    """The refusal naming the record that holds the identifier and where it came from: the source that wrote it
    (by title) or the portal."""
    source_id = objects.source_of(holder.id)
    source = model.Package.get(source_id) if source_id else None
    where = (problem("harvest.holder_source", source=source.title or source.name) if source is not None
             else problem("harvest.holder_portal"))
    return problem("harvest.identifier_taken", identifier=identifier, name=holder.name, title=holder.title, holder=where)


def _data_findings(passport: Passport, config: HarvestConfig, source_id: str, budget: Deadline) -> list[Problem]:
    """The newest data file's header against its structure, as the site check compares them (a capped head)."""
    session = source_session(source_id, config.policy)

    def fetch_one(url: str, head_bytes: Optional[int] = None, max_bytes: Optional[int] = None) -> FetchResult:
        return fetch(url, ReadLimits.policy(config.policy, max_bytes), head_bytes=head_bytes, session=session,
                     deadline=budget)

    return check_data(passport, fetch_one, max_structure_bytes=config.limits.structure_bytes)


def _attach_structure_fields(passport: Passport, config: HarvestConfig, harvest_object: Any, budget: Deadline) -> None:
    for structure in passport.structure_versions:
        if not structure.source:
            continue
        fetched = fetch(structure.source, ReadLimits.policy(config.policy, config.limits.structure_bytes),
                        deadline=budget)
        if fetched.problem is not None:
            save_object_error(fetched.problem, harvest_object, "Fetch")
            if budget.expired:
                break  # the rest would each be the same timeout, at once
            continue
        read = read_structure_fields(fetched.content, fetched.url, config.limits.structure_bytes)
        structure.fields = read.value or []
        for found in read.problems:
            if found.severity is Severity.ERROR:
                save_object_error(found, harvest_object, "Fetch")
