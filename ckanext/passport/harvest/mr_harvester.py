"""The ckanext-harvest adapter: gather / fetch / import stages over ``mr`` and ``mapping``.

Every stage keeps its state in harvest objects only (content and extras), so any number of fetch consumers
can run side by side. Bad input never aborts a job: each problem becomes a gather error or a per-object
error carrying its stable code (:mod:`findings` stores it so every reader gets it in their language).
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
import uuid
from collections import OrderedDict
from itertools import chain
from typing import Any, Callable, Iterable, Optional, Union

import ckan.model as model
import ckan.plugins.toolkit as tk
import sqlalchemy as sa
from ckan import authz
from ckanext.harvest.harvesters.base import HarvesterBase
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestObjectExtra

from ckanext.passport import settings

from ckanext.passport.harvest import stage_guard, index_check, mapping
from ckanext.passport.harvest import problems as codes
from ckanext.passport.catalog import identity, workflow
from ckanext.passport.harvest.config import HarvestConfig, above_site_limits, config_errors, load_config
from ckanext.passport.harvest.findings import line, save_gather_error, save_object_error
from ckanext.passport.harvest.index_commits import import_indexed
from ckanext.passport.harvest.ownership import MR
from ckanext.passport.language import reader_translate, site_translate
from ckanext.passport.mr import serialize, urls
from ckanext.passport.mr.check import check_passport, score
from ckanext.passport.mr.datacheck import check_data
from ckanext.passport.mr.decode import recode
from ckanext.passport.mr.discover import discover_registry
from ckanext.passport.mr.deadline import Deadline
from ckanext.passport.mr.fetch import FetchResult, fetch, make_session
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
# What ckanext-harvest's index adds to a harvested dataset (see _existing_dataset).
HARVEST_INDEX_KEYS = frozenset({"harvest_object_id", "harvest_source_id", "harvest_source_title"})
# Forms whose bytes carry no declaration of their own encoding, so a source's override applies to them.
_UNDECLARED_ENCODING_FORMS = ("meta.csv", "mr23.csv")


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

    def info(self) -> dict[str, str]:
        return {
            "name": "passport",
            "title": _("Open data passports (MR 2.3 / 3.0)"),
            "description": _(
                "Harvests a site's open-data registry and dataset passports published under the "
                "Methodological Recommendations MR 2.3 and MR 3.0."
            ),
            "form_config_interface": "Text",
        }

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
        index_check.converge(harvest_job)
        config = self._config(source)
        fetched, items = _open_registry(source.url, config, source.id)
        previous = self._current_objects(source.id)
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
            content = json.dumps({"entry": serialize.to_jsonable(item), "registry_url": fetched.url}, ensure_ascii=False)
            status = "change" if guid in previous else "new"
            ids.append(_add_object(harvest_job, guid, status, content, previous.get(guid)))
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

    @staticmethod
    def _current_objects(source_id: str) -> dict[str, Optional[str]]:
        """guid → package id of the source's current objects."""
        rows = (
            model.Session.query(HarvestObject.guid, HarvestObject.package_id)
            .filter(HarvestObject.current == True)  # noqa: E712 (SQLAlchemy needs ==)
            .filter(HarvestObject.harvest_source_id == source_id)
        )
        return dict(rows)

    # -- fetch ------------------------------------------------------------------------------------------

    def fetch_stage(self, harvest_object: Any) -> Any:
        return stage_guard.object_stage(harvest_object, "Fetch", lambda: self._fetch(harvest_object))

    def _fetch(self, harvest_object: Any) -> Any:
        if _status(harvest_object) == "delete":
            return True
        # Every fetch of the object (each passport form, its data and structure files) ends by this one deadline.
        budget = Deadline.after(settings.harvest_object_budget())
        config = self._config(harvest_object.source)
        content = json.loads(harvest_object.content)
        entry = serialize.entry_from_jsonable(content["entry"])
        registry_url = content["registry_url"]
        previous = _previous_extras(harvest_object)

        if looks_like_data_file(entry.link, entry.format):
            read, fetched = passport_from_entry(entry, registry_url), None
        else:
            read, fetched, attempts = self._read_passport(entry, registry_url, config, previous,
                                                          harvest_object.harvest_source_id, budget)
            if fetched is not None and fetched.not_modified:
                return "unchanged"
            if read is None:
                for found in attempts:
                    save_object_error(found, harvest_object, "Fetch")
                return False
            digest = hashlib.sha256(fetched.content).hexdigest()
            if digest == previous.get("content_hash") and not getattr(harvest_object, "force_import", False):
                return "unchanged"
            _set_extras(harvest_object, etag=fetched.etag or "", last_modified=fetched.last_modified or "",
                        content_hash=digest, passport_url=fetched.url)

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
        _set_extras(harvest_object, findings=json.dumps(findings, ensure_ascii=False))
        if config.fetch_structures:
            _attach_structure_fields(read.value, config, harvest_object, budget)
        harvest_object.content = json.dumps(
            {
                "entry": serialize.to_jsonable(entry),
                "registry_url": registry_url,
                "passport": serialize.to_jsonable(read.value),
                "form": read.form,
                "encoding": read.encoding,
                "problems": [p.as_dict() for p in read.problems],
                # Scored as the site check scores: what reading the passport found counts too.
                "conformance": {"score": score(read.problems + checked),
                                "problems": [p.as_dict() for p in checked]},
            },
            ensure_ascii=False,
        )
        # ckanext-harvest saves the object as soon as this stage returns.
        return True

    def _read_passport(
        self, entry: RegistryEntry, registry_url: str, config: HarvestConfig, previous: dict[str, str],
        source_id: str, budget: Deadline,
    ) -> tuple[Optional[ParseResult[Passport]], Optional[FetchResult], list[Problem]]:
        """The first passport form that reads, in the source's preference order; else every attempt's problems."""
        link = urls.join(registry_url, entry.link.strip())
        offered = passport_locations(link)
        # The file the registry links comes first (a guess at a sibling is a wasted request on every harvest);
        # the source's preference orders the fallbacks.
        locations = sorted(
            offered,
            key=lambda loc: (
                loc is not offered[0] or loc[0] not in config.formats,
                config.formats.index(loc[0]) if loc[0] in config.formats else len(config.formats),
            ),
        )
        session = _session(source_id, config.policy)
        attempts: list[Problem] = []
        for form, url in locations:
            conditional = previous.get("passport_url") == url
            fetched = fetch(
                url,
                ReadLimits.policy(config.policy, config.limits.passport_limit(form)),
                etag=previous.get("etag") if conditional else None,
                last_modified=previous.get("last_modified") if conditional else None,
                session=session,
                deadline=budget,
            )
            if fetched.not_modified:
                return None, fetched, []
            if fetched.problem is not None:
                attempts.append(fetched.problem)
                continue
            data = fetched.content
            if config.encoding and form in _UNDECLARED_ENCODING_FORMS:
                data = recode(data, config.encoding)
            read = parse_passport(data, fetched.url, limits=config.limits)
            if read.value is not None and (read.value.identifier or read.value.title):
                return read, fetched, attempts
            attempts.extend(read.problems)
        return None, None, attempts

    # -- import -----------------------------------------------------------------------------------------

    def import_stage(self, harvest_object: Any) -> Any:
        source = harvest_object.source
        return import_indexed(harvest_object, _index_commit(source),
                              lambda: self._import(harvest_object, self._config(source)))

    def _import(self, harvest_object: Any, config: HarvestConfig) -> Any:
        # The flag lets a harvested record land without the curator's part of the catalog record.
        context = {"user": self._user_name_for(config), "ignore_auth": True, "passport_harvest": True}
        previous = _previous_object(harvest_object)
        if _status(harvest_object) == "delete":
            return self._remove(harvest_object, previous, config, context)

        content = json.loads(harvest_object.content)
        passport = serialize.passport_from_jsonable(content["passport"])
        entry = serialize.entry_from_jsonable(content["entry"])
        harvested = mapping.passport_to_dataset(passport, content["conformance"]["score"], entry.identifier)
        identifier = harvested["mr_identifier"]
        existing, taken_by = self._claim(
            identifier,
            harvest_object,
            self._existing_dataset(previous.package_id if previous else None, context),
            context,
        )
        if taken_by is not None:
            save_object_error(_identifier_taken(identifier, taken_by), harvest_object, "Import")
            return False
        return store_record(
            harvest_object,
            previous,
            existing,
            create=lambda: self._create(
                _with_identifier(harvested, identifier), harvest_object, previous, config, context
            ),
            unchanged=lambda: _holds(existing, identifier) and not MR.harvested_differs(existing, harvested),
            merged=lambda: _with_identifier(MR.merge_harvested(existing, harvested), identifier),
            context=context,
        )

    def _create(self, harvested: dict, harvest_object: Any, previous: Optional[Any], config: HarvestConfig,
                context: dict) -> None:
        harvested["name"] = self._ensure_name_is_unique(harvested["name"]) or mapping.dataset_name(
            harvested["mr_identifier"] + harvest_object.source.id
        )
        owner = self._owner_org(harvested, harvest_object.source, config, context)
        if owner:
            harvested["owner_org"] = owner
        if config.default_editorial_state:
            harvested["editorial_state"] = config.default_editorial_state
        # The id is made here so the object can be current for it before the dataset is first indexed.
        harvested["id"] = str(uuid.uuid4())
        _link(harvest_object, previous, harvested["id"], new=True)
        tk.get_action("package_create")(dict(context, return_id_only=True), harvested)

    def _claim(
        self, identifier: str, harvest_object: Any, existing: Optional[dict], context: dict
    ) -> tuple[Optional[dict], Optional[model.Package]]:
        """The record the object writes, and the record of another source or of the portal that holds its
        identifier (the object then writes nothing).

        A record keeping its identifier claims nothing. A record of this very source holding it, while no
        current object links them (withdrawn, or linked before imports rolled back), is taken up again rather
        than doubled.
        """
        if existing is not None and _holds(existing, identifier):
            return existing, None
        for holder in identity.holders(identifier, excluding=existing["id"] if existing else None):
            if existing is None and _source_of(holder.id) == harvest_object.harvest_source_id:
                existing = self._existing_dataset(holder.id, context)
            else:
                return existing, holder
        return existing, None

    def _owner_org(self, harvested: dict, source: Any, config: HarvestConfig, context: dict) -> Optional[str]:
        if config.organization:
            return config.organization
        if not config.create_organizations:
            # A harvest source is stored as a dataset of type "harvest": its organization is that dataset's.
            source_dataset = model.Package.get(source.id)
            return source_dataset.owner_org if source_dataset is not None else None
        key = harvested.get("publisher_id") or harvested.get("publisher_name") or "unknown"
        name = mapping.dataset_name(f"org-{key}")
        try:
            return tk.get_action("organization_show")(dict(context), {"id": name})["id"]
        except tk.ObjectNotFound:
            org = tk.get_action("organization_create")(
                dict(context), {"name": name, "title": harvested.get("publisher_name") or key}
            )
            return org["id"]

    @staticmethod
    def _existing_dataset(package_id: Optional[str], context: dict) -> Optional[dict]:
        """The stored record as a re-harvest merges into it, without the harvest keys the index adds.

        ckanext-harvest adds ``harvest_*`` extras to the indexed dict package_show answers from; written back,
        they would be stored as the record's own extras.
        """
        if not package_id:
            return None
        try:
            dataset = tk.get_action("package_show")(dict(context), {"id": package_id})
        except tk.ObjectNotFound:
            return None
        if dataset.get("state") == "deleted":
            return None
        if "extras" in dataset:
            dataset["extras"] = [e for e in dataset["extras"] if e.get("key") not in HARVEST_INDEX_KEYS]
        return dataset

    @staticmethod
    def _remove(harvest_object: Any, previous: Optional[Any], config: Any, context: dict) -> bool:
        """Withdraw or delete the dataset of a ``delete`` object (``config.on_missing``; the ``lkod`` type's too)."""
        package_id = harvest_object.package_id or (previous.package_id if previous else None)
        # Unlinked first, so the withdrawn or deleted record is indexed without its source.
        harvest_object.current = False
        harvest_object.add()
        if previous is not None:
            previous.current = False
            previous.add()
        model.Session.flush()
        if package_id:
            try:
                if config.on_missing == "withdraw":
                    tk.get_action("package_patch")(dict(context), {"id": package_id, "private": True})
                else:
                    tk.get_action("package_delete")(dict(context), {"id": package_id})
            except tk.ObjectNotFound:
                pass
        model.Session.commit()
        return True

    # -- shared -----------------------------------------------------------------------------------------

    @staticmethod
    def _config(source: Any) -> HarvestConfig:
        return load_config(source.config, settings.site_fetch_options())

    def _user_name_for(self, config: HarvestConfig) -> str:
        return config.user or self._get_user_name()


_GATHER_BATCH = 1000


def _open_registry(
    site_url: str, config: HarvestConfig, source_id: str
) -> tuple[Optional[FetchResult], Iterable[Any]]:
    """The registry's fetch and its entries and problems in file order (streamed for list.xml)."""
    if not config.registry_url:
        found = discover_registry(site_url, config.policy, limits=config.limits)
        if not found.ok:
            return None, found.problems
        return found.fetched, chain(found.problems, found.registry.entries)
    fetched = fetch(config.registry_url, ReadLimits.policy(config.policy, config.limits.registry_bytes),
                    session=_session(source_id, config.policy))
    if fetched.problem is not None:
        return None, [fetched.problem]
    return fetched, iter_registry(fetched.content, fetched.url, limits=config.limits)


def store_record(
    harvest_object: Any,
    previous: Optional[Any],
    existing: Optional[dict],
    create: Callable[[], None],
    unchanged: Callable[[], bool],
    merged: Callable[[], dict],
    context: dict,
) -> Union[bool, str]:
    """Write one imported record: ``create`` it when new, make the object current when ``unchanged``, else update
    the stored record with ``merged``. True when written, "unchanged", or False when the record was refused (the
    refusal saved as the object's error, no object left current)."""
    try:
        if existing is None:
            create()
        elif unchanged():
            _make_current(harvest_object, previous, existing["id"])
            return "unchanged"
        else:
            _link(harvest_object, previous, existing["id"])
            tk.get_action("package_update")(dict(context, return_id_only=True), merged())
    except tk.ValidationError as error:
        # The object was linked before the action; a refused dataset must leave no object current.
        model.Session.rollback()
        save_object_error(_validation_refusal(error), harvest_object, "Import")
        return False
    except Exception:
        model.Session.rollback()
        raise
    return True


def queue_deletions(
    job: Any, previous: dict[str, Optional[str]], listed: set[str], config: Any, damage: list[Problem]
) -> list[str]:
    """Delete objects for the source's records the read listing no longer lists, when the source deletes missing
    records and the deletion guard lets it (else the refusal is a gather error and nothing is deleted)."""
    gone = [guid for guid in previous if guid not in listed]
    if not gone or not config.delete_missing:
        return []
    largest = max(len(previous), _largest_registry(job.source_id))
    refusal = _deletion_refusal(len(listed), largest, len(gone), config.max_delete_ratio, damage)
    if refusal is not None:
        save_gather_error(refusal, job)
        return []
    ids = [_add_object(job, guid, "delete", None, previous[guid]) for guid in gone]
    model.Session.commit()
    return ids


def _add_object(job: Any, guid: str, status: str, content: Optional[str], package_id: Optional[str]) -> str:
    # The id is made here rather than by a flush per object: one round trip per batch, not per entry.
    obj = HarvestObject(id=str(uuid.uuid4()), guid=guid, job=job, content=content, package_id=package_id)
    obj.extras = [HarvestObjectExtra(key="status", value=status)]
    model.Session.add(obj)
    return obj.id


# A consumer serves every source of the site; the sessions of the sources it met last are kept.
_SESSIONS_KEPT = 32
_sessions: "OrderedDict[tuple[str, bool, str], Any]" = OrderedDict()
_sessions_lock = threading.Lock()


def _session(source_id: str, policy: Any) -> Any:
    """The source's own guarded session: connections kept alive across its passports, and a cookie jar no other
    source shares (a site's cookies never travel to another source's site, nor decide what it is served).

    Keyed by what :func:`make_session` takes from a policy; the least recently used beyond the kept number is
    closed (closing only drops its connections: a fetch still using it reconnects)."""
    key = (source_id, policy.allow_private_addresses, policy.user_agent)
    with _sessions_lock:
        session = _sessions.pop(key, None) or make_session(policy)
        _sessions[key] = session
        evicted = _sessions.popitem(last=False)[1] if len(_sessions) > _SESSIONS_KEPT else None
    if evicted is not None:
        evicted.close()
    return session


def _with_identifier(dataset: dict[str, Any], identifier: str) -> dict[str, Any]:
    """``dataset`` with the registry identifier in the site's identifier field too: publishing and the
    uniqueness check read it there (``ckanext.passport.identifier_field``)."""
    return dict(dataset, **{settings.identifier_field(): identifier})


def _holds(dataset: dict[str, Any], identifier: str) -> bool:
    return dataset.get(settings.identifier_field()) == identifier


def checked_config(config: str, errors: list[Problem]) -> str:
    """``config`` when it is valid (``errors``: what its source type's schema finds wrong) and its saver may set
    every option in it; else a ValueError listing each refusal with its code, in the reader's language.

    The one config authority of every source type (``passport`` and ``lkod``): an option means the same in both.
    """
    if errors:
        refusals = [problem(codes.CONFIG_INVALID, errors=error) for error in errors]
    else:
        refusals = _config_refusals(json.loads(config) if config else {}, _acting_user())
    if refusals:
        translate = reader_translate()
        raise ValueError(" ".join(f"[{found.code}] {found.message(translate)}" for found in refusals))
    return config


def _acting_user() -> Optional[str]:
    """The logged-in user saving a source, or ``None`` for whoever runs code without one.

    Sources are created by logged-in users through the web and the API; with no user (the command line,
    internal calls) whoever runs the code already administers the site.
    """
    try:
        return getattr(tk.current_user, "name", None) or None
    except RuntimeError:
        return None


def _config_refusals(options: dict[str, Any], user: Optional[str]) -> list[Problem]:
    """What in a source's options ``user`` may not set, one finding each with its stable code."""
    sysadmin = user is None or authz.is_sysadmin(user)
    refusals = []
    if not sysadmin:
        if options.get("user"):
            refusals.append(problem(codes.USER_SYSADMIN_ONLY))
        if options.get("create_organizations"):
            refusals.append(problem(codes.CREATE_ORGANIZATIONS_SYSADMIN_ONLY))
        if options.get("allow_private_addresses"):
            refusals.append(problem(codes.PRIVATE_ADDRESSES_SYSADMIN_ONLY))
    state = options.get("default_editorial_state", workflow.DRAFT)
    refused = workflow.initial_state_refusal(state, sysadmin, settings.initial_states())
    if refused == "editorial_state_not_allowed":
        # Skipping review is the site's decision (ckanext.passport.initial_states), not a source's.
        refusals.append(problem(codes.EDITORIAL_STATE_NOT_ALLOWED, state=state))
    elif refused == "editorial_state_sysadmin_only":
        refusals.append(problem(codes.EDITORIAL_STATE_SYSADMIN_ONLY, state=state))
    organization = options.get("organization")
    if organization:
        refusals += _organization_refusals(organization, user, sysadmin)
    for option, limit, setting in above_site_limits(options, settings.site_fetch_options()):
        refusals.append(problem(codes.ABOVE_SITE_LIMIT, option=option, limit=limit, setting=setting))
    return refusals


def _organization_refusals(organization: str, user: Optional[str], sysadmin: bool) -> list[Problem]:
    """Records land in the organization a source names: its saver must be able to create datasets there."""
    found = model.Group.get(organization)
    if found is None or not found.is_organization or found.state != "active":
        return [problem(codes.ORGANIZATION_UNKNOWN, organization=organization)]
    if sysadmin:
        return []
    try:
        tk.check_access("package_create", {"user": user}, {"owner_org": found.id})
    except tk.NotAuthorized:
        return [problem(codes.ORGANIZATION_NOT_ALLOWED, organization=organization)]
    return []


_RECENT_JOBS = 10


def _largest_registry(source_id: str) -> int:
    """The most entries the source's registry listed in its last finished jobs (gathered non-delete objects).

    Deletions are measured against this rather than against the last harvest alone, so that a registry cut a
    little more each time cannot delete the catalog step by step.
    """
    recent = (
        model.Session.query(HarvestJob.id)
        .filter(HarvestJob.source_id == source_id, HarvestJob.status == "Finished")
        .order_by(HarvestJob.created.desc())
        .limit(_RECENT_JOBS)
        .subquery()
    )
    sizes = (
        model.Session.query(sa.func.count(sa.distinct(HarvestObject.guid)))
        .join(HarvestObjectExtra, HarvestObjectExtra.harvest_object_id == HarvestObject.id)
        .filter(HarvestObject.harvest_job_id.in_(sa.select(recent.c.id)))
        .filter(HarvestObjectExtra.key == "status", HarvestObjectExtra.value != "delete")
        .group_by(HarvestObject.harvest_job_id)
    )
    return max((size for (size,) in sizes), default=0)


def _deletion_refusal(kept: int, largest: int, gone: int, max_ratio: float, damage: list[Problem]) -> Optional[Problem]:
    """Why deleting ``gone`` datasets looks like a broken registry, or ``None``.

    ``kept`` is what the registry lists now, ``largest`` the most it listed in recent jobs, ``damage`` the
    ERROR-level problems met while reading it: a registry not read whole says nothing about what is missing.
    """
    if kept == 0:
        return problem(codes.REGISTRY_EMPTY, largest=largest)
    if damage:
        causes = ", ".join(dict.fromkeys(found.code for found in damage))
        return problem(codes.REGISTRY_INCOMPLETE, codes=causes, gone=gone)
    lost = max(gone, largest - kept)
    if lost / largest > max_ratio:
        return problem(codes.MASS_DELETION, gone=gone, kept=kept, largest=largest, max_ratio=max_ratio)
    return None


def _index_commit(source: Any) -> str:
    """The source's ``index_commit``; a stored config that no longer loads is the import stage's own error (inside
    its guard), and its writes are indexed the default way."""
    try:
        return PassportHarvester._config(source).index_commit
    except (ValueError, TypeError, AttributeError):
        return "soft"


def _status(harvest_object: Any) -> str:
    return next((e.value for e in harvest_object.extras if e.key == "status"), "")


def _set_extras(harvest_object: Any, **values: str) -> None:
    kept = [e for e in harvest_object.extras if e.key not in values]
    harvest_object.extras = kept + [HarvestObjectExtra(key=k, value=v) for k, v in values.items()]


def _previous_object(harvest_object: Any) -> Optional[Any]:
    return (
        model.Session.query(HarvestObject)
        .filter(HarvestObject.guid == harvest_object.guid)
        .filter(HarvestObject.harvest_source_id == harvest_object.harvest_source_id)
        .filter(HarvestObject.current == True)  # noqa: E712
        .first()
    )


def _previous_extras(harvest_object: Any) -> dict[str, str]:
    previous = _previous_object(harvest_object)
    return {e.key: e.value for e in previous.extras} if previous is not None else {}


def _link(harvest_object: Any, previous: Optional[Any], package_id: str, new: bool = False) -> None:
    """Make the object the current one of its dataset before the dataset is written, as ckanext-harvest's own
    harvesters do: its plugin indexes ``harvest_source_id`` / ``harvest_object_id`` only for a dataset whose
    object is current. Flushed, not committed: the action commits it, or a failure rolls it back.
    """
    if previous is not None and previous.id != harvest_object.id:
        previous.current = False
        previous.add()
    harvest_object.package_id = package_id
    harvest_object.current = True
    harvest_object.add()
    if new:
        # The object points at a dataset the action has yet to write.
        model.Session.execute(sa.text("SET CONSTRAINTS harvest_object_package_id_fkey DEFERRED"))
    model.Session.flush()
    if not new and (previous is None or previous.package_id != package_id):
        # A taken-up record may still be linked to an object of another guid: that one is current no more.
        (
            model.Session.query(HarvestObject)
            .filter(HarvestObject.package_id == package_id)
            .filter(HarvestObject.id != harvest_object.id)
            .filter(HarvestObject.current == True)  # noqa: E712
            .update({"current": False}, synchronize_session=False)
        )


def _make_current(harvest_object: Any, previous: Optional[Any], package_id: str) -> None:
    _link(harvest_object, previous, package_id)
    model.Session.commit()


def _source_of(package_id: str) -> Optional[str]:
    """The harvest source whose object last wrote the dataset; ``None`` for a record made in the portal."""
    row = (
        model.Session.query(HarvestObject.harvest_source_id)
        .filter(HarvestObject.package_id == package_id)
        .order_by(HarvestObject.current.desc(), HarvestObject.import_finished.desc().nulls_last())
        .first()
    )
    return row[0] if row else None


def _identifier_taken(identifier: str, holder: model.Package) -> Problem:
    return problem(codes.IDENTIFIER_TAKEN, identifier=identifier, name=holder.name, title=holder.title)


def _validation_refusal(error: Any) -> Problem:
    # CKAN's validation messages are already words in the consumer's (the site's default) language.
    details = "; ".join(f"{field}: {messages}" for field, messages in (error.error_dict or {}).items())
    return problem(codes.INVALID_DATASET, details=details)


def _data_findings(passport: Passport, config: HarvestConfig, source_id: str, budget: Deadline) -> list[Problem]:
    """The newest data file's header against its structure, as the site check compares them (a capped head)."""
    session = _session(source_id, config.policy)

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
