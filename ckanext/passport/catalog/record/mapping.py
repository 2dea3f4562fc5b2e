"""Passport ⇄ CKAN dataset dict: the one place where MR fields meet catalog fields.

The harvester maps every harvested :class:`Passport` in with :func:`passport_to_dataset`; the publisher maps
every dataset out with :func:`dataset_to_passport`. Both directions live here so that publishing a record
and harvesting it back gives the same record (a round-trip test holds them to that).

Dates are stored on the dataset in ISO 8601 when they were understood, else as published, so that no input is
lost and exports can write MR's own ``YYYYMMDD[THHMM]`` form.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import asdict, dataclass, replace
from typing import Any, Callable, Iterable, Optional

from ckanext.passport.mr.check import record_identifier
from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.inn import is_valid_inn
from ckanext.passport.mr.model import (
    STANDARD_3_0,
    DataVersion,
    MRDate,
    Passport,
    Publisher,
    StructureVersion,
)

NAME_MAX = 100
TAG_MAX = 100
# CKAN accepts letters of any script, digits, spaces, "-", "_" and "." in tag names.
_TAG_FORBIDDEN = re.compile(r"[^\w \-.]", re.UNICODE)
_NAME_FORBIDDEN = re.compile(r"[^a-z0-9_-]+")
_IDENTIFIER_NAME_FORBIDDEN = re.compile(r"[^A-Za-z0-9]+")

def dataset_name(identifier: str) -> str:
    """A stable CKAN name for an MR identifier: lower-case, URL-safe, at most 100 characters.

    Identifiers that lose everything to the CKAN alphabet (Cyrillic-only names) fall back to a digest, so the
    same identifier always gives the same name across re-harvests.
    """
    name = _NAME_FORBIDDEN.sub("-", identifier.strip().lower()).strip("-_")
    name = re.sub(r"-{2,}", "-", name)
    if len(name) < 2:
        name = "mr-" + hashlib.sha1(identifier.encode("utf-8")).hexdigest()[:12]
    if len(name) > NAME_MAX:
        digest = hashlib.sha1(identifier.encode("utf-8")).hexdigest()[:8]
        name = f"{name[: NAME_MAX - 9].rstrip('-_')}-{digest}"
    return name


def inn_of(identifier: str) -> str:
    """The INN prefix of ``<INN>-<name>`` when it is a valid INN, else ``""``."""
    head = identifier.strip().split("-", 1)[0]
    return head if is_valid_inn(head) else ""


def tag_names(keywords: Iterable[str]) -> list[str]:
    """Keywords as CKAN tag names: forbidden characters dropped, duplicates removed, order kept."""
    seen: dict[str, None] = {}
    for keyword in keywords:
        tag = re.sub(r"\s{2,}", " ", _TAG_FORBIDDEN.sub(" ", keyword)).strip()[:TAG_MAX].strip()
        if len(tag) >= 2 and tag.lower() not in {t.lower() for t in seen}:
            seen[tag] = None
    return list(seen)


# MR periodicity texts (as normalised by _periodicity_words) → EU frequency codes. A text starting with one of
# these phrases ("ежемесячно до 10 числа") has its frequency. "По мере изменений" and its kin promise an update
# whenever something changes, at uneven intervals: IRREG, not UPDATE_CONT (continuously updated), which would
# promise a feed the portals writing it do not run.
PERIODICITY_CODES: dict[str, str] = {
    **dict.fromkeys(("ежегодно", "ежегодная", "ежегодный", "раз в год", "1 раз в год", "один раз в год",
                     "раз в 1 год", "1 раз в 1 год", "годовая", "годовой", "ежегодное обновление"), "ANNUAL"),
    **dict.fromkeys(("раз в полгода", "раз в пол года", "1 раз в полгода", "один раз в полгода", "раз в полугодие",
                     "1 раз в полугодие", "полугодовая", "каждое полугодие", "ежеполугодно", "2 раза в год",
                     "два раза в год"), "ANNUAL_2"),
    **dict.fromkeys(("3 раза в год", "три раза в год"), "ANNUAL_3"),
    **dict.fromkeys(("раз в два года", "раз в 2 года", "1 раз в 2 года", "один раз в два года"), "BIENNIAL"),
    **dict.fromkeys(("раз в три года", "раз в 3 года", "1 раз в 3 года", "один раз в три года"), "TRIENNIAL"),
    **dict.fromkeys(("раз в пять лет", "раз в 5 лет", "1 раз в 5 лет", "один раз в пять лет"), "QUINQUENNIAL"),
    **dict.fromkeys(("ежеквартально", "ежеквартальная", "ежеквартальный", "раз в квартал", "1 раз в квартал",
                     "один раз в квартал", "поквартально", "каждый квартал"), "QUARTERLY"),
    **dict.fromkeys(("ежемесячно", "ежемесячная", "ежемесячный", "раз в месяц", "1 раз в месяц",
                     "один раз в месяц", "каждый месяц"), "MONTHLY"),
    **dict.fromkeys(("2 раза в месяц", "два раза в месяц"), "MONTHLY_2"),
    **dict.fromkeys(("раз в два месяца", "раз в 2 месяца", "1 раз в 2 месяца"), "BIMONTHLY"),
    **dict.fromkeys(("еженедельно", "еженедельная", "еженедельный", "раз в неделю", "1 раз в неделю",
                     "один раз в неделю", "каждую неделю"), "WEEKLY"),
    **dict.fromkeys(("раз в две недели", "раз в 2 недели", "1 раз в 2 недели"), "BIWEEKLY"),
    **dict.fromkeys(("ежедневно", "ежедневная", "ежедневный", "раз в день", "1 раз в день", "один раз в день",
                     "раз в сутки", "1 раз в сутки", "каждый день", "ежесуточно"), "DAILY"),
    **dict.fromkeys(("ежечасно", "раз в час", "1 раз в час", "каждый час"), "HOURLY"),
    **dict.fromkeys(("постоянно", "непрерывно", "в режиме реального времени", "в реальном времени"), "UPDATE_CONT"),
    **dict.fromkeys(("по мере изменений", "по мере изменения", "по мере внесения изменений", "по мере необходимости",
                     "по мере поступления", "по мере поступления данных", "по мере поступления информации",
                     "по мере обновления", "по мере обновления данных", "по мере актуализации", "нерегулярно",
                     "нерегулярная", "при изменении", "при изменениях", "при необходимости"), "IRREG"),
    **dict.fromkeys(("не обновляется", "не актуализируется", "не изменяется", "не планируется", "не предусмотрена",
                     "не предусмотрено", "обновление не предусмотрено", "актуализация не предусмотрена",
                     "не требуется"), "NEVER"),
}
# Longest first, so that "раз в два года" is not read as "раз в" something shorter.
_PERIODICITY_PHRASES = sorted(PERIODICITY_CODES, key=len, reverse=True)


def _periodicity_words(text: str) -> str:
    """Lower case, ё as е, punctuation as spaces, one space between words."""
    return " ".join(re.sub(r"[^\w]+", " ", text.lower().replace("ё", "е")).split())


def periodicity_code(text: str) -> str:
    """The EU frequency code of an MR periodicity text, or ``""`` when it is not recognisable."""
    words = _periodicity_words(text)
    for phrase in _PERIODICITY_PHRASES:
        if words == phrase or words.startswith(phrase + " "):
            return PERIODICITY_CODES[phrase]
    return ""


def _stored(date: Optional[MRDate]) -> str:
    if date is None:
        return ""
    if date.value is None:
        return date.text
    return date.value.isoformat()


def _read(text: Any) -> Optional[MRDate]:
    return parse_date(text) if isinstance(text, str) else None


def passport_to_dataset(
    passport: Passport, conformance: Optional[int] = None, registry_identifier: str = ""
) -> dict[str, Any]:
    """The catalog fields a harvested passport fills (every field ``ownership.MR`` gives an owner).

    The record's identifier (its name and ``mr_identifier``) is the registry entry's when it is a well-formed MR
    identifier, else the passport's own well-formed one (:func:`mr.check.record_identifier`): a passport may
    disagree with its entry (Predgorny's names its sibling), and a registry may number its entries. The
    disagreement stays a finding of the check (``check.registry_identifier_mismatch``).
    """
    identifier = record_identifier(registry_identifier, passport.identifier)
    inn = inn_of(identifier) or inn_of(passport.identifier)
    dataset: dict[str, Any] = {
        "name": dataset_name(identifier),
        "title": passport.title.strip() or identifier,
        "notes": passport.description,
        "mr_identifier": identifier,
        "mr_standard_version": passport.standard_version,
        "publisher_name": passport.creator,
        "maintainer": passport.publisher.name,
        "maintainer_email": passport.publisher.mbox,
        "mr_publisher_phone": passport.publisher.phone,
        "mr_created": _stored(passport.created),
        "mr_modified": _stored(passport.modified),
        "mr_valid": _stored(passport.valid),
        "mr_format": passport.format,
        "mr_provenance": passport.provenance,
        "mr_periodicity": passport.periodicity,
        "record_language": "ru",
        "tags": [{"name": tag} for tag in tag_names(passport.subject)],
        "resources": [data_resource(v) for v in passport.data_versions]
        + [structure_resource(s) for s in passport.structure_versions],
    }
    if inn:
        dataset.update(publisher_id=inn, publisher_id_scheme="inn")
    if conformance is not None:
        dataset["mr_conformance"] = conformance
    frequency = periodicity_code(passport.periodicity)
    if frequency:
        dataset["accrual_periodicity"] = frequency
    return dataset


def data_resource(version: DataVersion) -> dict[str, Any]:
    return {
        "url": version.source,
        "name": f"data-{version.version}-structure-{version.structure_version}" if version.version else version.source,
        "format": version.format,
        "resource_type": "data",
        "mr_version": version.version,
        "mr_structure_version": version.structure_version,
        "mr_created": _stored(version.created),
        "mr_provenance": version.provenance,
        "mr_valid": _stored(version.valid),
    }


def structure_resource(version: StructureVersion) -> dict[str, Any]:
    resource = {
        "url": version.source,
        "name": f"structure-{version.version}" if version.version else version.source,
        "format": version.format,
        "resource_type": "structure",
        "mr_version": version.version,
        "mr_created": _stored(version.created),
    }
    if version.fields:
        resource["mr_fields"] = json.dumps([asdict(f) for f in version.fields], ensure_ascii=False)
    return resource


@dataclass(frozen=True)
class PublishOptions:
    """How a portal speaks MR: the identifier field and standard it uses, and its permanent links."""

    identifier_field: str = "mr_identifier"
    standard_version: str = STANDARD_3_0
    data_link: Optional[Callable[[str, DataVersion], str]] = None
    structure_link: Optional[Callable[[str, StructureVersion], str]] = None


def identifier_for(dataset: dict[str, Any], identifier_field: str = "mr_identifier") -> str:
    """The MR identifier of a dataset: its own, else ``<publisher INN or IČO>-<latin name>``."""
    own = (dataset.get(identifier_field) or "").strip()
    if own:
        return own
    prefix = (dataset.get("publisher_id") or "").strip() or "0000000000"
    name = _IDENTIFIER_NAME_FORBIDDEN.sub("", dataset.get("name") or "").lower() or "dataset"
    return f"{prefix}-{name}"


def _version_from_resource(resource: dict[str, Any]) -> str:
    own = (resource.get("mr_version") or "").strip()
    if own:
        return own
    moment = _read(resource.get("last_modified") or resource.get("created") or "")
    if moment is not None and moment.value is not None:
        value = moment.value
        if not isinstance(value, dt.datetime):
            value = dt.datetime.combine(value, dt.time())
        return value.strftime("%Y%m%dT%H%M")
    return (resource.get("id") or "1")[:8]


def provider_name(dataset: dict[str, Any]) -> str:
    """The record's provider: its ``publisher_name``, else its organization's title."""
    return dataset.get("publisher_name") or (dataset.get("organization") or {}).get("title") or ""


def dataset_to_passport(dataset: dict[str, Any], options: PublishOptions = PublishOptions()) -> Passport:
    """The MR passport of a dataset (harvested or made in the portal).

    The passport's responsible person is the record's contact, else its provider: never ``author`` /
    ``author_email``, which name whoever saved the record last (a portal login), not someone to publish.
    """
    identifier = identifier_for(dataset, options.identifier_field)
    resources = dataset.get("resources") or []
    structures = [
        StructureVersion(
            source=r.get("url") or "",
            version=_version_from_resource(r),
            created=_read(r.get("mr_created") or r.get("created")),
            format=(r.get("format") or "").lower(),
        )
        for r in resources
        if r.get("resource_type") == "structure"
    ]
    default_structure = structures[0].version if structures else ""
    data = [
        DataVersion(
            source=r.get("url") or "",
            version=_version_from_resource(r),
            structure_version=(r.get("mr_structure_version") or "").strip() or default_structure,
            created=_read(r.get("mr_created") or r.get("created")),
            provenance=r.get("mr_provenance") or "",
            valid=_read(r.get("mr_valid") or ""),
            format=(r.get("format") or "").lower(),
        )
        for r in resources
        if r.get("resource_type") in ("data", None, "")
    ]
    if options.data_link:
        data = [replace(v, source=options.data_link(identifier, v)) for v in data]
    if options.structure_link:
        structures = [replace(s, source=options.structure_link(identifier, s)) for s in structures]
    tags = [t["name"] if isinstance(t, dict) else t for t in dataset.get("tags") or []]
    return Passport(
        standard_version=options.standard_version,
        identifier=identifier,
        title=dataset.get("title") or "",
        description=dataset.get("notes") or "",
        creator=provider_name(dataset),
        publisher=Publisher(
            name=dataset.get("maintainer") or provider_name(dataset),
            phone=dataset.get("mr_publisher_phone") or "",
            mbox=dataset.get("maintainer_email") or dataset.get("publisher_email") or "",
        ),
        created=_read(dataset.get("mr_created") or dataset.get("metadata_created")),
        modified=_read(dataset.get("mr_modified") or dataset.get("metadata_modified")),
        valid=_read(dataset.get("mr_valid") or ""),
        subject=tags,
        format=(dataset.get("mr_format") or (data[0].format if data else "")).lower(),
        provenance=dataset.get("mr_provenance") or (data[0].provenance if data else ""),
        periodicity=dataset.get("mr_periodicity") or "",
        data_versions=data,
        structure_versions=structures,
    )
