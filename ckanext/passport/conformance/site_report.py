"""A site check's report: :class:`mr.report.SiteReport` as the one report shape, and as it is kept.

``ckan passport check --format json`` and the portal's site check (``/passport/check/<id>``, action
``passport_site_check_show``) print the same document, :func:`site_document`, from the same
:func:`mr.report.check_site`. The portal keeps what a check read (:func:`stored`: codes, params and places of
every finding, and each passport read, losslessly) rather than rendered text, so the report is rendered again
in each reader's language, and the corrected files are written from the passports when someone asks for them.
Pure: imports nothing from CKAN.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from ckanext.passport.mr.corrections import FIXED_FILES, corrected_file
from ckanext.passport.mr.model import Problem, Translate, english
from ckanext.passport.mr.problems import stored_problem
from ckanext.passport.mr.report import PassportCheck, SiteReport
from ckanext.passport.mr.serialize import passport_from_jsonable, to_jsonable

from .shape import PassportConformance, document

# (passport number, file name) -> the URL of that corrected file; passports are numbered from 1.
FixedUrl = Callable[[int, str], str]


def site_document(report: SiteReport, translate: Translate = english,
                  fixed_url: Optional[FixedUrl] = None) -> dict[str, Any]:
    """The report of a site check in the shape of every conformance report (``shape.document``).

    ``fixed_url`` names where the corrected files of each passport that was read are served; without it (the
    command line serves none) ``fixed`` stays empty.
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
                   if fixed_url is not None and passport.passport is not None else {}),
            corrections=list(passport.corrections),
        )
        for number, passport in enumerate(report.passports, start=1)
    ]
    return document(checked, report.problems, translate, url=report.url, registry_url=report.registry_url,
                    registry_form=report.registry_form, registry_size=report.registry_size)


def stored(report: SiteReport) -> dict[str, Any]:
    """What a check read, JSON-ready and lossless: :func:`restored` gives the same report back."""
    return {
        "url": report.url,
        "registry_url": report.registry_url,
        "registry_form": report.registry_form,
        "registry_size": report.registry_size,
        "problems": [found.as_dict() for found in report.problems],
        "passports": [_stored_passport(passport) for passport in report.passports],
    }


def _stored_passport(checked: PassportCheck) -> dict[str, Any]:
    return {
        "identifier": checked.identifier,
        "title": checked.title,
        "link": checked.link,
        "url": checked.url,
        "form": checked.form,
        "encoding": checked.encoding,
        "score": checked.score,
        "problems": [found.as_dict() for found in checked.problems],
        "corrections": [found.as_dict() for found in checked.corrections],
        "passport": to_jsonable(checked.passport) if checked.passport is not None else None,
    }


def restored(data: Mapping[str, Any]) -> SiteReport:
    return SiteReport(
        url=data["url"],
        registry_url=data.get("registry_url", ""),
        registry_form=data.get("registry_form", ""),
        registry_size=data.get("registry_size", 0),
        problems=_problems(data.get("problems", [])),
        passports=[_restored_passport(entry) for entry in data.get("passports", [])],
    )


def _restored_passport(data: Mapping[str, Any]) -> PassportCheck:
    read = data.get("passport")
    return PassportCheck(
        identifier=data.get("identifier", ""),
        title=data.get("title", ""),
        link=data.get("link", ""),
        url=data.get("url", ""),
        form=data.get("form", ""),
        encoding=data.get("encoding", ""),
        problems=_problems(data.get("problems", [])),
        score=data.get("score"),
        passport=passport_from_jsonable(read) if read is not None else None,
        corrections=_problems(data.get("corrections", [])),
    )


def _problems(found: list[Mapping[str, Any]]) -> list[Problem]:
    return [stored_problem(data) for data in found]


def fixed(report: SiteReport, number: int, name: str) -> Optional[bytes]:
    """The corrected file ``name`` of passport ``number`` (from 1); ``None`` when there is no such file."""
    if not 1 <= number <= len(report.passports):
        return None
    checked = report.passports[number - 1]
    return corrected_file(checked.passport, checked.url, name) if checked.passport is not None else None
