"""The MR data model shared by every parser, checker and writer.

Plain dataclasses: parsers build them, writers and ``mapping.py`` read them. Values keep the text the
publisher wrote (``MRDate.text``) beside what we understood of it, so that a round trip never invents data.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Generic, Mapping, Optional, TypeVar, Union

STANDARD_3_0 = "http://opendata.gosmonitor.ru/standard/3.0"
STANDARD_2_3 = "http://opendata.gosmonitor.ru/standard/2.3"


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Plural:
    """A message whose words follow a number: the English ``singular`` and ``plural`` (gettext's msgid and
    msgid_plural) and ``count``, the placeholder whose value picks the form each language needs (Czech and
    Russian have three or four, English two)."""

    singular: str
    plural: str
    count: str = "count"


# A message template: one text, or one whose form follows a count.
Message = Union[str, Plural]

# The number a plural is shown with when its count is unknown (a code's meaning, its particulars left out):
# it takes the "many" form in English, Czech and Russian, the one that reads for any number.
ANY_COUNT = 5


@dataclass(frozen=True)
class Translate:
    """A language, as gettext gives it: ``gettext`` turns an English message (the msgid) into it, ``ngettext``
    a message whose form follows a number. Called, it is ``gettext``, so a plain message reads ``translate(m)``."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]

    def __call__(self, message: str) -> str:
        return self.gettext(message)

    def template(self, message: Message, params: Optional[Mapping[str, Any]] = None) -> str:
        """``message``'s template in this language; a plural's form is the one its count in ``params`` takes."""
        if isinstance(message, str):
            return self.gettext(message)
        count = (params or {}).get(message.count)
        number = count if isinstance(count, int) and not isinstance(count, bool) else ANY_COUNT
        return self.ngettext(message.singular, message.plural, number)


def _as_written(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


# The identity language: templates are written in English.
english = Translate(_as_written, _english_plural)


@dataclass(frozen=True)
class Location:
    """Where a problem was found: any of a URL, a 1-based line and an element/field name."""

    url: Optional[str] = None
    line: Optional[int] = None
    element: Optional[str] = None


class _Params(dict):
    def __missing__(self, key: str) -> str:
        return "…"


@dataclass(frozen=True)
class Problem:
    """A finding about input: ``code`` is stable API (harvest errors, reports and tests key on it).

    ``template`` is the code's English message (its row of a room's ``problems.toml``, see ``problems``) and
    ``params`` fill its placeholders; the text exists only when rendered, in the reader's language
    (:meth:`message`). A param may itself be a problem (why a candidate is no registry): it is rendered in the
    same language.
    """

    code: str
    severity: Severity
    template: Message
    params: Mapping[str, Any] = field(default_factory=dict)
    location: Location = field(default_factory=Location)

    def message(self, translate: Translate = english) -> str:
        """The message in the language of ``translate``. A placeholder without its param (a finding stored before
        its template named it) reads "…"; the template as it is when it cannot be filled at all."""
        text = translate.template(self.template, self.params)
        params = _Params({k: v.message(translate) if isinstance(v, Problem) else v for k, v in self.params.items()})
        try:
            return text.format_map(params)
        except (IndexError, ValueError, AttributeError):
            return text

    def as_dict(self, translate: Translate = english) -> dict:
        """JSON-ready: the code, severity, params and location that rebuild the problem, and its message."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "params": {k: v.as_dict(translate) if isinstance(v, Problem) else v for k, v in self.params.items()},
            "message": self.message(translate),
            "location": {k: v for k, v in vars(self.location).items() if v is not None},
        }


@dataclass(frozen=True)
class MRDate:
    """A date as published (``text``) and as understood (``value``; ``None`` when unreadable)."""

    text: str
    value: Union[dt.date, dt.datetime, None] = None

    @property
    def has_time(self) -> bool:
        return isinstance(self.value, dt.datetime)


@dataclass
class Publisher:
    """The responsible person (MR: ``publishername``, ``publisherphone``, ``publishermbox``)."""

    name: str = ""
    phone: str = ""
    mbox: str = ""


@dataclass
class StructureField:
    """One field a structure file describes (read only when a harvest source asks for structures)."""

    name: str = ""
    title: str = ""
    description: str = ""
    format: str = ""


@dataclass
class StructureVersion:
    source: str = ""
    version: str = ""
    created: Optional[MRDate] = None
    format: str = ""
    fields: list[StructureField] = field(default_factory=list)


@dataclass
class DataVersion:
    source: str = ""
    version: str = ""
    structure_version: str = ""
    created: Optional[MRDate] = None
    provenance: str = ""
    valid: Optional[MRDate] = None
    format: str = ""


@dataclass
class Passport:
    standard_version: str = ""
    identifier: str = ""
    title: str = ""
    description: str = ""
    creator: str = ""
    publisher: Publisher = field(default_factory=Publisher)
    created: Optional[MRDate] = None
    modified: Optional[MRDate] = None
    valid: Optional[MRDate] = None
    subject: list[str] = field(default_factory=list)
    format: str = ""
    provenance: str = ""
    periodicity: str = ""
    data_versions: list[DataVersion] = field(default_factory=list)
    structure_versions: list[StructureVersion] = field(default_factory=list)


@dataclass
class RegistryEntry:
    identifier: str = ""
    title: str = ""
    link: str = ""
    format: str = ""


@dataclass
class Registry:
    standard_version: str = ""
    entries: list[RegistryEntry] = field(default_factory=list)


T = TypeVar("T")


@dataclass
class ParseResult(Generic[T]):
    """What every parser returns: a value when anything could be read, and the problems found.

    ``form`` names the MR form that was read (``meta.csv``, ``list.xml``, ``rdfa``…), ``encoding``
    the text encoding actually used (``utf-8``, ``windows-1251``, ``mixed``).
    """

    value: Optional[T]
    problems: list[Problem] = field(default_factory=list)
    form: str = ""
    encoding: str = ""

    @property
    def ok(self) -> bool:
        return self.value is not None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]
