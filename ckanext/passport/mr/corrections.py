"""Corrected MR 3.0 passport files a publisher can put right back on their site.

:func:`correct` takes a passport as it was read and returns a corrected copy beside the list of corrections
made, each an INFO problem with a ``fix.*`` code. It only rewrites what the passport itself decides: dates
in MR 3.0's own form, versions newest first, the standard named, the format in lower case, the identifier
when its intended ``<INN>-<name>`` form is plain, and data and structure links in the MR template. Nothing is
invented: an unreadable date, a missing version or an empty field stays as it was, so the corrected files may
still fail a check, and that check then tells the publisher what only they know; a passport listing no data
or no structure version cannot be written valid against the schemas at all, and its corrections say so.

:func:`fixed_file` writes the corrected passport through the library's own writers (``meta.json``,
``meta.csv``, ``meta.xml``), so a corrected file is what our publisher would serve.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Optional, TypeVar
from urllib.parse import unquote, urlunsplit

from . import urls
from .dates import format_basic, parse_date
from .fields import file_format, identifier_from_link, newest_first
from .forms import forms
from .inn import is_valid_inn
from .model import STANDARD_3_0, DataVersion, MRDate, Passport, Problem, StructureVersion
from .problems import problem
from .writers.passport import write_passport


FIXED_FILES = forms(fixed_file=True)

# Records one correction: code, element, message params.
Fixed = Callable[..., None]

# <INN>-<name>: digits, then one word of latin letters and digits (check.py judges the same form).
_IDENTIFIER = re.compile(r"^(?P<inn>\d{10}|\d{12})-(?P<name>[A-Za-z0-9]+)$")
# What publishers put between the INN and the name instead of a hyphen ("7703092752_terorg", "… terorg").
# The separator read in one pass (white space, one of "-_.", white space; at least one character): "\s*[-_.\s]\s*"
# splits a long run of spaces every way before failing.
_LOOSE_IDENTIFIER = re.compile(r"^(?P<inn>\d{10}|\d{12})(?=[-_.\s])\s*+(?:[-_.]\s*+)?(?P<name>[A-Za-z0-9]+)$")
_OPENDATA_FOLDERS = ("opendata", "открытыеданные")


def correct(passport: Passport, url: str = "") -> tuple[Passport, list[Problem]]:
    """A corrected copy of ``passport`` (read from ``url``) and the corrections made, in the order made."""
    fixes: list[Problem] = []

    def fixed(code: str, element: str, **params: Any) -> None:
        fixes.append(problem(code, url=url or None, element=element, **params))

    standard = STANDARD_3_0
    if passport.standard_version != standard:
        fixed("fix.standard_version", "standardversion", old=passport.standard_version, new=standard)
    identifier, settled = _identifier(passport.identifier, url, fixed)
    format_ = passport.format.strip()
    if format_ != format_.lower():
        fixed("fix.format", "format", old=format_, new=format_.lower())
    created = _date(passport.created, "created", fixed)
    modified = _date(passport.modified, "modified", fixed)
    valid = _date(passport.valid, "valid", fixed)
    structures = [_structure(version, index, fixed) for index, version in enumerate(passport.structure_versions)]
    data = [_data(version, index, fixed) for index, version in enumerate(passport.data_versions)]
    data = _ordered(data, "data", fixed)
    structures = _ordered(structures, "structure", fixed)
    # Links move into the identifier's folder only when the identifier is settled: a passport whose folder
    # names another dataset would otherwise send its files to the disputed one.
    if settled and _valid(identifier):
        data = [replace(v, source=_data_link(v, identifier, passport.format, url, fixed)) for v in data]
        structures = [replace(s, source=_structure_link(s, identifier, passport.format, url, fixed))
                      for s in structures]
    # The schemas want at least one of each; naming one that was not published would be inventing it.
    for kind, versions in (("data", data), ("structure", structures)):
        if not versions:
            fixed("fix.no_version", kind, kind=kind)
    corrected = replace(
        passport, standard_version=standard, identifier=identifier, format=format_.lower(),
        data_versions=data, structure_versions=structures, created=created, modified=modified, valid=valid,
    )
    return corrected, fixes


def corrected_file(passport: Passport, url: str, name: str) -> Optional[bytes]:
    """File ``name`` of ``passport`` (read from ``url``) as corrected; ``None`` when ``name`` is no fixed file."""
    return fixed_file(correct(passport, url)[0], name) if name in FIXED_FILES else None


def fixed_file(passport: Passport, name: str) -> bytes:
    """The (corrected) passport as ``name``, one of :data:`FIXED_FILES`, in UTF-8."""
    if name not in FIXED_FILES:
        raise ValueError(f"no fixed file {name!r}: one of {', '.join(FIXED_FILES)}")
    return write_passport(passport, name)


# --- identifier -----------------------------------------------------------------------------------------

def _identifier(identifier: str, url: str, fixed: Fixed) -> tuple[str, bool]:
    """The identifier in ``<INN>-<name>`` form when that form is plain, else as published; and whether it is
    settled (no folder names another one).

    Plain means: the published text with another separator or stray spaces, or, for an empty identifier,
    the passport's own folder. A folder naming another identifier is a disagreement only the publisher can
    settle, so it is said and nothing is changed.
    """
    text = identifier.strip()
    folder = identifier_from_link(url) if url else ""
    folder_ok = bool(_valid(folder))
    candidate = text
    loose = _LOOSE_IDENTIFIER.match(text)
    if loose and is_valid_inn(loose["inn"]):
        candidate = f"{loose['inn']}-{loose['name']}"
    elif not text and folder_ok:
        # A passport in ".../<id>/meta.json" (or an MR 2.3 ".../<id>.csv") names its dataset by its place.
        candidate = folder
    if candidate != identifier:
        fixed("fix.identifier", "identifier", old=identifier, new=candidate)
    if folder_ok and candidate and candidate.casefold() != folder.casefold():
        fixed("fix.identifier_kept", "identifier", identifier=candidate, folder=folder)
        return candidate, False
    return candidate, True


def _valid(identifier: str) -> Optional[re.Match]:
    match = _IDENTIFIER.match(identifier)
    return match if match and is_valid_inn(match["inn"]) else None


# --- dates and versions ---------------------------------------------------------------------------------

def _date(date: Optional[MRDate], field: str, fixed: Fixed) -> Optional[MRDate]:
    """``date`` written as MR 3.0 writes dates (``20130401``, ``20130401T0000``) when that reads back the same."""
    if date is None or date.value is None:
        return date
    basic = format_basic(date.value)
    if basic == date.text or not _round_trips(basic, date.value):
        return date
    fixed("fix.date", field, field=field, old=date.text, new=basic)
    return MRDate(basic, date.value)


def _round_trips(basic: str, value: object) -> bool:
    read_back = parse_date(basic)
    return read_back is not None and read_back.value == value


def _version_name(name: str, kind: str, element: str, fixed: Fixed) -> str:
    """A version named by a date in another form (``2016-04-21``, ``10122025``) in MR 3.0's form."""
    date = parse_date(name)
    if date is None or date.value is None:
        return name
    basic = format_basic(date.value)
    if basic == name or not _round_trips(basic, date.value):
        return name
    fixed("fix.version_name", element, kind=kind, old=name, new=basic)
    return basic


def _renamed(name: str) -> str:
    """The same renaming as :func:`_version_name`, silently: a data version's reference to its structure."""
    return _version_name(name, "", "", lambda *args, **kwargs: None)


def _structure(version: StructureVersion, index: int, fixed: Fixed) -> StructureVersion:
    element = f"structure[{index}]"
    return replace(
        version,
        version=_version_name(version.version, "structure", element, fixed),
        created=_date(version.created, f"{element}.created", fixed),
        format=version.format.lower(),
    )


def _data(version: DataVersion, index: int, fixed: Fixed) -> DataVersion:
    element = f"data[{index}]"
    return replace(
        version,
        version=_version_name(version.version, "data", element, fixed),
        structure_version=_renamed(version.structure_version),
        created=_date(version.created, f"{element}.created", fixed),
        valid=_date(version.valid, f"{element}.valid", fixed),
        format=version.format.lower(),
    )


VersionT = TypeVar("VersionT", DataVersion, StructureVersion)


def _ordered(versions: list[VersionT], kind: str, fixed: Fixed) -> list[VersionT]:
    ordered = newest_first(versions)
    if [id(v) for v in ordered] != [id(v) for v in versions]:
        fixed("fix.versions_order", kind, kind=kind)
    return ordered


# --- links ----------------------------------------------------------------------------------------------

def _data_link(version: DataVersion, identifier: str, format_: str, url: str, fixed: Fixed) -> str:
    if not (version.source and version.version and version.structure_version):
        return version.source
    name = f"data-{version.version}-structure-{version.structure_version}"
    return _link(version.source, name, version.format, identifier, format_, url, "fix.data_link", "data", fixed)


def _structure_link(version: StructureVersion, identifier: str, format_: str, url: str, fixed: Fixed) -> str:
    if not (version.source and version.version):
        return version.source
    name = f"structure-{version.version}"
    return _link(version.source, name, version.format, identifier, format_, url, "fix.structure_link", "structure",
                 fixed)


def _link(source: str, name: str, own_format: str, identifier: str, format_: str, url: str, code: str,
          element: str, fixed: Fixed) -> str:
    """``<site>/opendata/<identifier>/<name>.<format>`` on the link's own site, when it can be said.

    The site is everything before the link's ``opendata`` folder, or the ``opendata.<host>`` host itself
    (MR's other place for the folder), or else the link's host. Without a format there is no file name.
    """
    absolute = urls.join(url, source) if url and "://" not in source else source
    parts = urls.split(absolute.strip())
    if parts is None:
        return source
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return source
    extension = file_format(absolute) or own_format.lower() or format_.strip().lower()
    if not extension:
        return source
    segments = [s for s in parts.path.split("/") if s]
    folders = [i for i, s in enumerate(segments[:-1]) if unquote(s).casefold() in _OPENDATA_FOLDERS]
    if folders:
        base = segments[:folders[-1]] + ["opendata", identifier]
    elif (parts.hostname or "").startswith("opendata."):
        base = [identifier]
    else:
        base = ["opendata", identifier]
    path = "/" + "/".join(base + [f"{name}.{extension}"])
    target = urlunsplit((parts.scheme.lower(), parts.netloc, path, "", ""))
    if target == source:
        return source
    fixed(code, element, old=source, new=target)
    return target
