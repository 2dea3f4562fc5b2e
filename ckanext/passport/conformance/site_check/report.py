"""A site check's report: :class:`mr.report.SiteReport` as the one report shape, and as it is kept.

``ckan passport check --format json`` and the portal's site check (``/passport/check/<id>``, action
``passport_site_check_show``) print the same document, :func:`site_document`, from the same
:func:`mr.report.check_site`. The portal keeps what a check read rather than rendered text, so the report is
rendered again in each reader's language: :func:`kept` splits it into

- the **summary** every view renders (codes, params and places of the findings, the fields the page and the CSV
  show), bounded: a text over :data:`TEXT_CHARS` characters is cut and ends in "…", a passport's findings and
  corrections are kept, in order, while they fit, and what was left out is said by a finding of its own
  (``site_check.values_cut``, ``site_check.findings_cut``). Each passport's entry, and the site's own part, is at
  most :data:`ENTRY_CHARS` characters of JSON, whatever the site published;
- the **passports read**, one by one, kept only for their corrected files and read only when one is asked for;
  a passport over :data:`PASSPORT_CHARS` characters is not kept and its corrected files are not offered
  (``site_check.fixed_too_large``).

Pure: imports nothing from CKAN.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from ckanext.passport.mr.corrections import FIXED_FILES, corrected_file
from ckanext.passport.mr.model import Problem, Translate, english
from ckanext.passport.mr.problems import problem, stored_problem
from ckanext.passport.mr.report import PassportCheck, SiteReport
from ckanext.passport.mr.serialize import passport_from_jsonable, to_jsonable

from ..shape import PassportConformance, document

# (passport number, file name) -> the URL of that corrected file; passports are numbered from 1.
FixedUrl = Callable[[int, str], str]


# The bounds of what a check keeps, in characters: one text; one passport's entry (or the site's own part) as
# JSON, its findings taking what its texts leave, less room for the notes of what was cut; one passport kept.
TEXT_CHARS = 1_000
ENTRY_CHARS = 50_000
NOTES_CHARS = 2_000
PASSPORT_CHARS = 1_000_000
CUT_MARK = "…"

_TEXT_FIELDS = ("identifier", "title", "link", "url", "form", "encoding")


def site_document(report: SiteReport, translate: Translate = english, fixed_url: Optional[FixedUrl] = None,
                  offered: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The report of a site check in the shape of every conformance report (``shape.document``).

    Each passport's entry adds ``data_findings``, how many of its findings (the last ones) its data and structure
    files gave, and ``score_without_data``, its score without them (``None`` when it was not read).
    ``fixed_url`` names where the corrected files of the passports numbered in ``offered`` are served; without
    it (the command line serves none) ``fixed`` stays empty.
    """
    checked = [
        PassportConformance(
            identifier=passport.identifier or passport.link,
            url=passport.url or passport.link,
            form=passport.form,
            score=passport.score,
            problems=list(passport.problems),
            title=passport.title,
            fixed=({name: fixed_url(number, name) for name in FIXED_FILES}
                   if fixed_url is not None and number in offered else {}),
            corrections=list(passport.corrections),
        )
        for number, passport in enumerate(report.passports, start=1)
    ]
    result = document(checked, report.problems, translate, url=report.url, registry_url=report.registry_url,
                      registry_form=report.registry_form, registry_size=report.registry_size)
    # What only the site check reads: a harvest compares data files with structures only when asked to.
    for entry, passport in zip(result["passports"], report.passports):
        entry.update(data_findings=passport.data_findings, score_without_data=passport.score_without_data)
    return result


@dataclass
class KeptPassport:
    """A passport read, kept for its corrected files: where it was read and the passport as JSON text."""

    url: str
    passport: str


@dataclass
class Kept:
    """What a check keeps: the bounded summary and, by number (from 1), the passports kept for corrected files."""

    summary: dict[str, Any]
    passports: dict[int, KeptPassport] = field(default_factory=dict)


class _Cuts:
    """What bounding a report left out: characters cut from texts, findings not kept."""

    def __init__(self) -> None:
        self.characters = 0
        self.findings = 0

    def text(self, value: Any) -> Any:
        """JSON-ready ``value`` with every text over :data:`TEXT_CHARS` cut, ending in :data:`CUT_MARK`."""
        if isinstance(value, str) and len(value) > TEXT_CHARS:
            self.characters += len(value) - TEXT_CHARS + len(CUT_MARK)
            return value[:TEXT_CHARS - len(CUT_MARK)] + CUT_MARK
        if isinstance(value, Mapping):
            return {key: self.text(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.text(item) for item in value]
        return value

    def findings_within(self, found: list[Problem], budget: int) -> tuple[list[dict[str, Any]], int]:
        """The first findings that fit in ``budget`` characters of JSON, cut, and the budget left."""
        kept = []
        for index, one in enumerate(found):
            data = self.text(one.as_dict())
            size = len(json.dumps(data, ensure_ascii=False))
            if size > budget:
                self.findings += len(found) - index
                break
            kept.append(data)
            budget -= size
        return kept, budget

    def notes(self) -> list[dict[str, Any]]:
        """The findings that say what was left out (none when nothing was)."""
        notes = []
        if self.characters:
            notes.append(problem("site_check.values_cut", characters=self.characters, limit=TEXT_CHARS).as_dict())
        if self.findings:
            notes.append(problem("site_check.findings_cut", count=self.findings, limit=ENTRY_CHARS).as_dict())
        return notes


def _findings_budget(texts: Mapping[str, Any]) -> int:
    return ENTRY_CHARS - NOTES_CHARS - len(json.dumps(texts, ensure_ascii=False))


def kept(report: SiteReport) -> Kept:
    """What a check keeps of ``report``: :func:`restored` gives the report back from ``summary``."""
    cuts = _Cuts()
    head = {"url": cuts.text(report.url), "registry_url": cuts.text(report.registry_url),
            "registry_form": cuts.text(report.registry_form), "registry_size": report.registry_size}
    problems, _left = cuts.findings_within(report.problems, _findings_budget(head))
    result = Kept(summary={**head, "problems": problems + cuts.notes(), "passports": []})
    for number, checked in enumerate(report.passports, start=1):
        entry, passport = _kept_passport(checked)
        result.summary["passports"].append(entry)
        if passport is not None:
            result.passports[number] = passport
    return result


def _kept_passport(checked: PassportCheck) -> tuple[dict[str, Any], Optional[KeptPassport]]:
    cuts = _Cuts()
    entry: dict[str, Any] = {name: cuts.text(getattr(checked, name)) for name in _TEXT_FIELDS}
    problems, left = cuts.findings_within(checked.problems, _findings_budget(entry))
    # The data check's findings come last; those kept stay last, after the notes of what was cut.
    data_kept = max(0, len(problems) - (len(checked.problems) - checked.data_findings))
    problems, found_in_data = problems[:len(problems) - data_kept], problems[len(problems) - data_kept:]
    corrections, _left = cuts.findings_within(checked.corrections, left)
    passport: Optional[KeptPassport] = None
    notes = cuts.notes()
    if checked.passport is not None:
        text = json.dumps(to_jsonable(checked.passport), ensure_ascii=False)
        if len(text) <= PASSPORT_CHARS:
            passport = KeptPassport(url=checked.url, passport=text)
        else:
            notes.append(problem("site_check.fixed_too_large", size=len(text), limit=PASSPORT_CHARS).as_dict())
    entry.update(score=checked.score, problems=problems + notes + found_in_data, corrections=corrections,
                 fixed=passport is not None, data_findings=len(found_in_data),
                 score_without_data=checked.score_without_data)
    return entry, passport


def restored(summary: Mapping[str, Any]) -> tuple[SiteReport, frozenset[int]]:
    """The report a check kept, and the numbers of its passports whose corrected files are offered."""
    entries = summary.get("passports", [])
    report = SiteReport(
        url=summary["url"],
        registry_url=summary.get("registry_url", ""),
        registry_form=summary.get("registry_form", ""),
        registry_size=summary.get("registry_size", 0),
        problems=_problems(summary.get("problems", [])),
        passports=[_restored_passport(entry) for entry in entries],
    )
    return report, frozenset(number for number, entry in enumerate(entries, start=1) if entry.get("fixed"))


def _restored_passport(data: Mapping[str, Any]) -> PassportCheck:
    return PassportCheck(
        identifier=data.get("identifier", ""),
        title=data.get("title", ""),
        link=data.get("link", ""),
        url=data.get("url", ""),
        form=data.get("form", ""),
        encoding=data.get("encoding", ""),
        problems=_problems(data.get("problems", [])),
        score=data.get("score"),
        corrections=_problems(data.get("corrections", [])),
        # Checks kept before the data check's findings were told apart have neither.
        data_findings=data.get("data_findings", 0),
        score_without_data=data.get("score_without_data"),
    )


def _problems(found: list[Mapping[str, Any]]) -> list[Problem]:
    return [stored_problem(data) for data in found]


def fixed(url: str, passport: str, name: str) -> Optional[bytes]:
    """The corrected file ``name`` of a kept passport (read from ``url``, kept as JSON text); ``None`` when there
    is no such file."""
    return corrected_file(passport_from_jsonable(json.loads(passport)), url, name)
