"""Mechanical conformance checks of a passport against MR 3.0 (or MR 2.3 for MR 2.x passports).

Parsers read what was published and complain only about what keeps them from reading it; this module judges
what was read: required fields, the identifier and its INN, date and format forms, version order and links,
contacts, the standard named, and agreement with the registry entry that pointed at the passport.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence, Union
from urllib.parse import unquote

from . import urls
from .csvrows import canonical_standard
from .fields import (
    described_by_newest, file_format, identifier_from_link, newest_first, structure_name, version_names,
)
from .forms import Form
from .guarded import capped
from .inn import is_valid_inn
from .model import (
    STANDARD_2_3, STANDARD_3_0, DataVersion, MRDate, Passport, Problem, RegistryEntry, Severity, StructureVersion,
)
from .problems import problem


SEVERITY_COST = {Severity.ERROR: 20, Severity.WARNING: 5, Severity.INFO: 0}

_IDENTIFIER = re.compile(r"^(?P<inn>\d+)-(?P<name>.+)$")
_NAME = re.compile(r"^[A-Za-z0-9]+$")
_ISO_BASIC = re.compile(r"^\d{8}(?:T\d{4}(?:\d{2})?)?$")
_ISO_EXTENDED = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
_DOTTED = re.compile(r"^\d{2}\.\d{2}\.\d{4}$")
_EMAIL = re.compile(r"^[^@\s,;:<>()\[\]\\\"]+@(?:[^\W_](?:[\w-]*[^\W_])?\.)+[^\W\d_]{2,}$")
# Extension words seen in real passports ("+7 (495) 568-00-42 доб. 99732"); any other letter makes it no phone.
_EXTENSION = re.compile(r"\b(?:доб|вн|ext|extn)\b\.?|(?<=\d)\s*x\s*(?=\d)", re.I)
_PHONE_PART = re.compile(r"^\+?[\d\s().\-]+$")
_IDENTIFIER_FOLDER = re.compile(r"^\d{10}(?:\d{2})?-")


@dataclass
class ConformanceReport:
    """Findings about one passport and its 0..100 score (see :func:`score`)."""

    standard: str
    identifier: str = ""
    url: str = ""
    problems: list[Problem] = field(default_factory=list)
    score: int = 100

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]

    @property
    def codes(self) -> set[str]:
        return {p.code for p in self.problems}


def check_passport(
    passport: Passport, entry: Optional[RegistryEntry] = None, url: str = "", form: str = ""
) -> ConformanceReport:
    """Check ``passport`` (read from ``url``, pointed at by registry ``entry``) against its MR version.

    MR 2.3 rules apply to passports that name the 2.3 standard or were read from the 3-column CSV form
    (``form="mr23.csv"``); every other passport is held to MR 3.0, which requires ``standardversion``.
    """
    standard = "2.3" if form == Form.MR23_CSV or _standard_of(passport.standard_version) == STANDARD_2_3 else "3.0"
    found: list[Problem] = []
    found += _required_fields(passport, standard, url)
    found += _identifier(passport.identifier, url)
    found += _dates(passport, standard, url)
    found += _format(passport, standard, url)
    found += _versions(passport, url)
    found += _links(passport, standard, url)
    found += _contacts(passport, url)
    found += _standard(passport.standard_version, url)
    found += _registry_agreement(passport, entry, url)
    found += _folder(passport.identifier, url)
    # Forty versions breaking one rule are one habit: a few findings and their count (guarded.capped).
    return ConformanceReport(standard=standard, identifier=passport.identifier, url=url, problems=capped(found),
                             score=score(found))


def score(problems: Iterable[Problem]) -> int:
    """100 minus the cost of each distinct problem code: an error costs 20, a warning 5, a note nothing.

    A code counts once however often it repeats, because one habit of the publisher (say, a link template
    applied to all forty versions) is one defect to fix, not forty; the score never drops below 0.
    """
    worst: dict[str, int] = {}
    for found in problems:
        worst[found.code] = max(worst.get(found.code, 0), SEVERITY_COST[found.severity])
    return max(0, 100 - sum(worst.values()))


def _standard_of(text: str) -> str:
    canonical = canonical_standard(text or "")
    if canonical.startswith("https://"):
        canonical = canonical_standard("http://" + canonical[len("https://"):])
    return canonical


def _required_fields(passport: Passport, standard: str, url: str) -> list[Problem]:
    current = described_by_newest(passport)
    values = {
        "identifier": passport.identifier,
        "title": passport.title,
        "description": passport.description,
        "creator": passport.creator,
        "created": passport.created,
        "modified": passport.modified,
        "subject": passport.subject,
        "format": passport.format,
        "provenance": current.provenance,
        "publishername": passport.publisher.name,
        "publisherphone": passport.publisher.phone,
        "publishermbox": passport.publisher.mbox,
        "data": passport.data_versions,
        "structure": passport.structure_versions,
    }
    if standard == "3.0":
        values["standardversion"] = passport.standard_version
        values["valid"] = current.valid
    else:
        values["periodicity"] = passport.periodicity
    return [problem("check.missing_field", url=url, element=name, field=name) for name, value in values.items()
            if not _filled(value)]


def _filled(value: object) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, MRDate):
        return bool(value.text.strip())
    return bool(value)


def _identifier(identifier: str, url: str) -> list[Problem]:
    text = identifier.strip()
    if not text:
        return []
    match = _IDENTIFIER.match(text)
    if match is None:
        return [problem("check.identifier_form", url=url, element="identifier", identifier=text)]
    found = []
    if not is_valid_inn(match["inn"]):
        found.append(problem("check.identifier_inn", url=url, element="identifier", inn=match["inn"]))
    if not _NAME.match(match["name"]):
        found.append(problem("check.identifier_name", url=url, element="identifier", name=match["name"]))
    return found


def is_mr_identifier(text: str) -> bool:
    """Whether ``text`` is a well-formed MR identifier: ``<INN>-<name>``, the INN's check digits right, the name
    one word of latin letters and digits (what :func:`check_passport` finds nothing wrong with)."""
    return bool(text.strip()) and not _identifier(text, "")


def record_identifier(registry: str, passport: str) -> str:
    """The identifier a harvested record keys on, given its registry entry's and its passport's.

    The registry's is the record's when it is a well-formed MR identifier (a passport may name its sibling, as
    Predgorny's does), else the passport's when that one is: some registries number their entries
    (``<identifier>1</identifier>``), and the record would be ``1``, its permanent link ``/opendata/1/``, and the
    next such registry's first entry would collide with it. When neither is well-formed, the registry's as given
    (the passport's when the registry gives none). Either way the disagreement is the check's finding
    (``check.registry_identifier_mismatch``).
    """
    given, own = registry.strip(), passport.strip()
    if not is_mr_identifier(given) and is_mr_identifier(own):
        return own
    return given or own


def _dates(passport: Passport, standard: str, url: str) -> list[Problem]:
    named: list[tuple[str, Optional[MRDate]]] = [
        ("created", passport.created), ("modified", passport.modified), ("valid", passport.valid)
    ]
    for index, version in enumerate(passport.data_versions):
        named += [(f"data[{index}].created", version.created), (f"data[{index}].valid", version.valid)]
    for index, structure in enumerate(passport.structure_versions):
        named.append((f"structure[{index}].created", structure.created))
    found = [p for name, date in named if date is not None for p in _date(name, date, standard, url)]
    created, modified = passport.created, passport.modified
    if created and modified:
        created_day, modified_day = _day(created), _day(modified)
        if created_day and modified_day and modified_day < created_day:
            found.append(problem("check.modified_before_created", url=url, element="modified",
                                 modified=modified.text, created=created.text))
    return found


def _date(name: str, date: MRDate, standard: str, url: str) -> list[Problem]:
    text = date.text.strip()
    if date.value is None:
        return [problem("check.date_invalid", url=url, element=name, field=name, text=text)]
    iso = bool(_ISO_BASIC.match(text) or _ISO_EXTENDED.match(text))
    if iso or (standard == "2.3" and _DOTTED.match(text)):
        return []
    expected = "ISO 8601 (ГГГГММДД)" if standard == "3.0" else "ДД.ММ.ГГГГ / ISO 8601"
    return [problem("check.date_form", url=url, element=name, field=name, text=text, expected=expected)]


def _day(date: MRDate) -> Optional[dt.date]:
    value = date.value
    return value.date() if isinstance(value, dt.datetime) else value


def _format(passport: Passport, standard: str, url: str) -> list[Problem]:
    text = passport.format.strip()
    # MR 2.3's own example writes "XML": only MR 3.0 asks for lower case.
    if standard == "3.0" and text and text != text.lower():
        return [problem("check.format_case", url=url, element="format", format=text)]
    return []


def _versions(passport: Passport, url: str) -> list[Problem]:
    found = []
    kinds: tuple[tuple[str, Sequence[Union[DataVersion, StructureVersion]]], ...] = (
        ("data", passport.data_versions), ("structure", passport.structure_versions)
    )
    for kind, versions in kinds:
        if _out_of_order(versions):
            found.append(problem("check.versions_order", url=url, element=kind, kind=kind))
    published = {s.version for s in passport.structure_versions if s.version}
    for version in passport.data_versions:
        if version.structure_version and published and version.structure_version not in published:
            found.append(problem("check.structure_missing", url=url, element="data",
                                 version=version.version or version.source, structure=version.structure_version))
    return found


def _out_of_order(versions: Sequence) -> bool:
    # Sorting is stable even in reverse, so a list already newest first (ties included) comes back unchanged.
    return [id(v) for v in newest_first(versions)] != [id(v) for v in versions]


def _links(passport: Passport, standard: str, url: str) -> list[Problem]:
    identifier = passport.identifier.strip()
    if not identifier:
        return []
    found = []
    for version in passport.data_versions:
        if version.source and not _data_link_ok(version.source, identifier, version.version,
                                                version.structure_version):
            found.append(problem("check.data_link_template", url=url, element="data", link=version.source,
                                 identifier=identifier))
    for structure in passport.structure_versions:
        if structure.source and not _structure_link_ok(structure.source, identifier, structure.version, standard):
            found.append(problem("check.structure_link_template", url=url, element="structure", link=structure.source,
                                 identifier=identifier))
    return found


def _data_link_ok(link: str, identifier: str, version: str, structure: str) -> bool:
    named_version, named_structure = version_names(link)
    if not named_version or not _in_dataset_folder(link, identifier) or not file_format(link):
        return False
    return (not version or named_version == version) and (not structure or named_structure == structure)


def _structure_link_ok(link: str, identifier: str, version: str, standard: str) -> bool:
    named = structure_name(link)
    if not named or not _in_dataset_folder(link, identifier) or not file_format(link):
        return False
    # MR 2.3 names structures "structure-<n>-<date>"; the version is the part before the date.
    return not version or named == version or (standard == "2.3" and named.startswith(f"{version}-"))


def _in_dataset_folder(link: str, identifier: str) -> bool:
    """The file sits in ``<site>/opendata/<identifier>/`` or ``opendata.<host>/<identifier>/``."""
    parts = urls.split(link.strip())
    if parts is None:
        return False
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if len(segments) < 2 or segments[-2] != identifier:
        return False
    in_opendata_folder = len(segments) >= 3 and segments[-3].lower() in ("opendata", "открытыеданные")
    on_opendata_host = (parts.hostname or "").startswith("opendata.") and len(segments) == 2
    return in_opendata_folder or on_opendata_host


def _contacts(passport: Passport, url: str) -> list[Problem]:
    found = []
    mbox = passport.publisher.mbox.strip()
    if mbox and not _EMAIL.match(mbox):
        found.append(problem("check.email_form", url=url, element="publishermbox", text=mbox))
    phone = passport.publisher.phone.strip()
    if phone and not is_phone(phone):
        found.append(problem("check.phone_form", url=url, element="publisherphone", text=phone))
    return found


def is_phone(text: str) -> bool:
    """A phone number as publishers write them, possibly with an extension or several numbers.

    ``+7 (495) 647-15-80, 50704`` (extension after a comma), ``8(499)795-22-81`` and ``+78796150664`` are
    phones; text with letters other than an extension word is not.
    """
    parts = [p.strip() for p in re.split(r"[,;]", _EXTENSION.sub(",", text))]
    parts = [p for p in parts if p]
    if not parts or not all(_PHONE_PART.match(p) for p in parts):
        return False
    main_digits = sum(ch.isdigit() for ch in parts[0])
    return 5 <= main_digits <= 15


def _standard(text: str, url: str) -> list[Problem]:
    raw = text.strip()
    if raw and _standard_of(raw) not in (STANDARD_3_0, STANDARD_2_3):
        return [problem("check.standard_version_unknown", url=url, element="standardversion", text=raw)]
    return []


def _registry_agreement(passport: Passport, entry: Optional[RegistryEntry], url: str) -> list[Problem]:
    if entry is None:
        return []
    found = []
    if entry.identifier.strip() and passport.identifier.strip() and entry.identifier.strip() != passport.identifier.strip():
        found.append(problem("check.registry_identifier_mismatch", url=url, element="identifier",
                             registry=entry.identifier.strip(), passport=passport.identifier.strip()))
    if entry.title.strip() and passport.title.strip() and _words(entry.title) != _words(passport.title):
        found.append(problem("check.registry_title_mismatch", url=url, element="title",
                             registry=entry.title.strip(), passport=passport.title.strip()))
    return found


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def _folder(identifier: str, url: str) -> list[Problem]:
    """The passport's own folder (``…/<identifier>/meta.json``, ``…/<identifier>/``) names its identifier."""
    if not url or not identifier.strip():
        return []
    folder = identifier_from_link(url)
    if _IDENTIFIER_FOLDER.match(folder) and folder.casefold() != identifier.strip().casefold():
        return [problem("check.identifier_folder_mismatch", url=url, element="identifier", folder=folder, identifier=identifier.strip())]
    return []
