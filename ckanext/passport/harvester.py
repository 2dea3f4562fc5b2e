"""The ckanext-harvest adapter: gather / fetch / import stages over ``mr`` and ``mapping``.

Every stage keeps its state in harvest objects only (content and extras), so any number of fetch consumers
can run side by side. Bad input never aborts a job: each problem becomes a gather error or a per-object
error carrying its stable code.
"""
from __future__ import annotations

import hashlib
import json
import logging
import uuid
from functools import lru_cache
from itertools import chain
from typing import Any, Iterable, Optional
from urllib.parse import urljoin

import ckan.model as model
import ckan.plugins.toolkit as tk
from ckan import authz
from ckanext.harvest.harvesters.base import HarvesterBase
from ckanext.harvest.model import HarvestObject, HarvestObjectExtra

from ckanext.passport import mapping
from ckanext.passport.harvest_config import HarvestConfig, config_errors, load_config
from ckanext.passport.index_commits import soft_commit_per_object
from ckanext.passport.mr import serialize
from ckanext.passport.mr.check import check_passport
from ckanext.passport.mr.discover import discover_registry
from ckanext.passport.mr.fetch import FetchResult, fetch, make_session
from ckanext.passport.mr.model import ParseResult, Passport, Problem, RegistryEntry, Severity
from ckanext.passport.mr.passport import looks_like_data_file, parse_passport, passport_from_entry, passport_locations
from ckanext.passport.mr.registry import iter_registry
from ckanext.passport.mr.structure import read_structure_fields

log = logging.getLogger(__name__)
_ = tk._

SITE_OPTIONS = (
    "ckanext.passport.allow_private_addresses",
    "ckanext.passport.user_agent",
    "ckanext.passport.timeout",
    "ckanext.passport.max_file_size",
)
# Warnings that are hostile rather than sloppy: the object is reported errored even though what could be read
# still lands.
PROMOTED_TO_ERROR = frozenset({"xml.entity_declared"})
# Forms whose bytes carry no declaration of their own encoding, so a source's override applies to them.
_UNDECLARED_ENCODING_FORMS = ("meta.csv", "mr23.csv")


def describe(found: Problem, repeats: int = 1) -> str:
    """One line for the harvest UI: the stable code first, then the message in both languages, then where."""
    where = str(found.location)
    severity = f"{found.severity.value}: "
    text = f"[{found.code}] {severity}{found.message_en} / {found.message_ru}"
    if where:
        text += f" ({where})"
    return text + (f" (×{repeats})" if repeats > 1 else "")


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
        errors = config_errors(config)
        if errors:
            raise ValueError(_("Invalid configuration: {errors}").format(errors="; ".join(errors)))
        options = json.loads(config) if config else {}
        if options.get("allow_private_addresses") and not _acting_as_sysadmin():
            # A source config is editable by organization admins; reaching internal hosts is the site's call.
            raise ValueError(_("Only a sysadmin may allow harvesting private addresses."))
        state = options.get("default_editorial_state", "draft")
        allowed = ["draft"] + tk.aslist(tk.config.get("ckanext.passport.initial_states"))
        if state not in allowed:
            # Skipping review is the site's decision (ckanext.passport.initial_states), not a source's.
            raise ValueError(
                _("The site does not let new records start as '{state}' (ckanext.passport.initial_states).").format(
                    state=state
                )
            )
        return config

    # -- gather -----------------------------------------------------------------------------------------

    def gather_stage(self, harvest_job: Any) -> list[str]:
        source = harvest_job.source
        config = self._config(source)
        fetched, items = _open_registry(source.url, config)
        previous = self._current_objects(source.id)
        ids: list[str] = []
        seen: set[str] = set()
        problems: list[Problem] = []
        # Objects are made as the registry streams in and committed in batches, so a registry of any size
        # is gathered without holding its entries (or thousands of pending objects) at once.
        for item in items:
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

        readable = fetched is not None and (seen or not any(p.severity is Severity.ERROR for p in problems))
        for found in problems:
            if found.severity is Severity.ERROR or not readable:
                self._save_gather_error(describe(found), harvest_job)
        if not readable:
            return ids

        gone = [guid for guid in previous if guid not in seen]
        if gone and config.delete_missing:
            refusal = _deletion_refusal(len(seen), len(previous), len(gone), config.max_delete_ratio)
            if refusal:
                self._save_gather_error(refusal, harvest_job)
            else:
                ids += [_add_object(harvest_job, guid, "delete", None, previous[guid]) for guid in gone]
                model.Session.commit()
        return ids

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
        if _status(harvest_object) == "delete":
            return True
        config = self._config(harvest_object.source)
        content = json.loads(harvest_object.content)
        entry = serialize.entry_from_jsonable(content["entry"])
        registry_url = content["registry_url"]
        previous = _previous_extras(harvest_object)

        if looks_like_data_file(entry.link, entry.format):
            read, fetched = passport_from_entry(entry, registry_url), None
        else:
            read, fetched, attempts = self._read_passport(entry, registry_url, config, previous)
            if fetched is not None and fetched.not_modified:
                return "unchanged"
            if read is None:
                for found in attempts:
                    self._save_object_error(describe(found), harvest_object, "Fetch")
                return False
            digest = hashlib.sha256(fetched.content).hexdigest()
            if digest == previous.get("content_hash") and not getattr(harvest_object, "force_import", False):
                return "unchanged"
            _set_extras(harvest_object, etag=fetched.etag or "", last_modified=fetched.last_modified or "",
                        content_hash=digest, passport_url=fetched.url)

        report = check_passport(read.value, entry, fetched.url if fetched else entry.link, read.form)
        # ckanext-harvest counts any object error as a failed object. A passport that was read lands, so its
        # parse and conformance findings are kept on the object (extra "findings", and its content) and in
        # the dataset's conformance score; only hostile input is an error here.
        findings = []
        for found, repeats in grouped(read.problems + report.problems):
            if found.code in PROMOTED_TO_ERROR:
                self._save_object_error(describe(found, repeats), harvest_object, "Fetch")
            else:
                findings.append(describe(found, repeats))
        _set_extras(harvest_object, findings=json.dumps(findings, ensure_ascii=False))
        if config.fetch_structures:
            _attach_structure_fields(read.value, config, harvest_object, self._save_object_error)
        harvest_object.content = json.dumps(
            {
                "entry": serialize.to_jsonable(entry),
                "registry_url": registry_url,
                "passport": serialize.to_jsonable(read.value),
                "form": read.form,
                "encoding": read.encoding,
                "problems": [p.as_dict() for p in read.problems],
                "conformance": {"score": report.score, "problems": [p.as_dict() for p in report.problems]},
            },
            ensure_ascii=False,
        )
        # ckanext-harvest saves the object as soon as this stage returns.
        return True

    def _read_passport(
        self, entry: RegistryEntry, registry_url: str, config: HarvestConfig, previous: dict[str, str]
    ) -> tuple[Optional[ParseResult[Passport]], Optional[FetchResult], list[Problem]]:
        """The first passport form that reads, in the source's preference order; else every attempt's problems."""
        link = urljoin(registry_url, entry.link.strip())
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
        session = _session(config.policy)
        attempts: list[Problem] = []
        for form, url in locations:
            conditional = previous.get("passport_url") == url
            fetched = fetch(
                url,
                config.policy,
                etag=previous.get("etag") if conditional else None,
                last_modified=previous.get("last_modified") if conditional else None,
                session=session,
            )
            if fetched.not_modified:
                return None, fetched, []
            if fetched.problem is not None:
                attempts.append(fetched.problem)
                continue
            data = fetched.content
            if config.encoding and form in _UNDECLARED_ENCODING_FORMS:
                data = data.decode(config.encoding, errors="replace").encode("utf-8")
            read = parse_passport(data, fetched.url)
            if read.value is not None and (read.value.identifier or read.value.title):
                return read, fetched, attempts
            attempts.extend(read.problems)
        return None, None, attempts

    # -- import -----------------------------------------------------------------------------------------

    def import_stage(self, harvest_object: Any) -> Any:
        config = self._config(harvest_object.source)
        with soft_commit_per_object(config.index_commit) as indexing:
            result = self._import(harvest_object, config)
            indexing.changed = result is True
        return result

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
        existing = self._existing_dataset(previous, context)
        try:
            if existing is None:
                dataset = self._create(harvested, harvest_object, config, context)
            elif not mapping.harvested_differs(existing, harvested):
                _make_current(harvest_object, previous, existing["id"])
                return "unchanged"
            else:
                merged = mapping.merge_harvested(existing, harvested)
                dataset = {"id": tk.get_action("package_update")(dict(context, return_id_only=True), merged)}
        except tk.ValidationError as error:
            self._save_object_error(_validation_message(error), harvest_object, "Import")
            return False
        _make_current(harvest_object, previous, dataset["id"])
        return True

    def _create(self, harvested: dict, harvest_object: Any, config: HarvestConfig, context: dict) -> dict:
        harvested["name"] = self._ensure_name_is_unique(harvested["name"]) or mapping.dataset_name(
            harvested["mr_identifier"] + harvest_object.source.id
        )
        owner = self._owner_org(harvested, harvest_object.source, config, context)
        if owner:
            harvested["owner_org"] = owner
        if config.default_editorial_state:
            harvested["editorial_state"] = config.default_editorial_state
        return {"id": tk.get_action("package_create")(dict(context, return_id_only=True), harvested)}

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
    def _existing_dataset(previous: Optional[Any], context: dict) -> Optional[dict]:
        if previous is None or not previous.package_id:
            return None
        try:
            dataset = tk.get_action("package_show")(dict(context), {"id": previous.package_id})
        except tk.ObjectNotFound:
            return None
        return dataset if dataset.get("state") != "deleted" else None

    def _remove(self, harvest_object: Any, previous: Optional[Any], config: HarvestConfig, context: dict) -> bool:
        package_id = harvest_object.package_id or (previous.package_id if previous else None)
        if package_id:
            try:
                if config.on_missing == "withdraw":
                    tk.get_action("package_patch")(dict(context), {"id": package_id, "private": True})
                else:
                    tk.get_action("package_delete")(dict(context), {"id": package_id})
            except tk.ObjectNotFound:
                pass
        harvest_object.current = False
        if previous is not None:
            previous.current = False
            previous.add()
        harvest_object.add()
        model.Session.commit()
        return True

    # -- shared -----------------------------------------------------------------------------------------

    @staticmethod
    def _config(source: Any) -> HarvestConfig:
        return load_config(source.config, {key: tk.config.get(key) for key in SITE_OPTIONS})

    def _user_name_for(self, config: HarvestConfig) -> str:
        return config.user or self._get_user_name()


_GATHER_BATCH = 1000


def _open_registry(site_url: str, config: HarvestConfig) -> tuple[Optional[FetchResult], Iterable[Any]]:
    """The registry's fetch and its entries and problems in file order (streamed for list.xml)."""
    if not config.registry_url:
        found = discover_registry(site_url, config.policy)
        if not found.ok:
            return None, found.problems
        return found.fetched, chain(found.problems, found.registry.entries)
    fetched = fetch(config.registry_url, config.policy, session=_session(config.policy))
    if fetched.problem is not None:
        return None, [fetched.problem]
    return fetched, iter_registry(fetched.content, fetched.url)


def _add_object(job: Any, guid: str, status: str, content: Optional[str], package_id: Optional[str]) -> str:
    # The id is made here rather than by a flush per object: one round trip per batch, not per entry.
    obj = HarvestObject(id=str(uuid.uuid4()), guid=guid, job=job, content=content, package_id=package_id)
    obj.extras = [HarvestObjectExtra(key="status", value=status)]
    model.Session.add(obj)
    return obj.id


@lru_cache(maxsize=8)
def _session(policy: Any) -> Any:
    """One guarded session per fetch policy and process, so a consumer keeps connections alive across passports."""
    return make_session(policy)


def _acting_as_sysadmin() -> bool:
    """False only for a logged-in user who is not a sysadmin.

    Sources are created by logged-in users through the web and the API; with no user (the command line,
    internal calls) whoever runs the code already administers the site.
    """
    try:
        name = getattr(tk.current_user, "name", None)
    except RuntimeError:
        return True
    return not name or authz.is_sysadmin(name)


def _deletion_refusal(kept: int, before: int, gone: int, max_ratio: float) -> str:
    """Why deleting ``gone`` of ``before`` datasets looks like a broken registry, or ``""``."""
    if kept == 0:
        return (
            f"[harvest.registry_empty] The registry lists no datasets now (it listed {before}); "
            f"nothing was deleted / Реестр пуст (ранее {before} наборов); ничего не удалено"
        )
    if gone / before > max_ratio:
        return (
            f"[harvest.mass_deletion] {gone} of {before} datasets are gone from the registry, more than "
            f"max_delete_ratio={max_ratio}; nothing was deleted / Из реестра пропали {gone} из {before} "
            f"наборов; ничего не удалено"
        )
    return ""


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


def _make_current(harvest_object: Any, previous: Optional[Any], package_id: str) -> None:
    if previous is not None and previous.id != harvest_object.id:
        previous.current = False
        previous.add()
    harvest_object.package_id = package_id
    harvest_object.current = True
    harvest_object.add()
    model.Session.commit()


def _validation_message(error: Any) -> str:
    details = "; ".join(f"{field}: {messages}" for field, messages in (error.error_dict or {}).items())
    return f"[harvest.invalid_dataset] The dataset was refused by validation / Набор данных не прошёл проверку: {details}"


def _attach_structure_fields(passport: Passport, config: HarvestConfig, harvest_object: Any, save_error: Any) -> None:
    for structure in passport.structure_versions:
        if not structure.source:
            continue
        fetched = fetch(structure.source, config.policy)
        if fetched.problem is not None:
            save_error(describe(fetched.problem), harvest_object, "Fetch")
            continue
        read = read_structure_fields(fetched.content, fetched.url)
        structure.fields = read.value or []
        for found in read.problems:
            if found.severity is Severity.ERROR:
                save_error(describe(found), harvest_object, "Fetch")
