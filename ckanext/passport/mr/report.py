"""The logic behind ``ckan passport check URL`` and ``ckan passport parse FILE``.

``check`` reads a live site the way a harvester would (registry, then each passport in its best form) and
judges every passport with :func:`check.check_passport`, then its newest data file against its structure
(:func:`datacheck.check_data`, a capped head of the data file only), and lists the corrections that would
put the passport right (:func:`corrections.correct`); the result renders as readable text grouped by
passport, or as JSON. ``parse`` reads one local file and shows what the library understood of it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Callable, Optional

from .check import check_passport, score
from .corrections import correct
from .datacheck import DEFAULT_HEAD_BYTES, check_data as check_data_files
from .discover import discover_registry, names_file
from .deadline import Deadline
from .fetch import Admit, FetchPolicy, FetchResult, fetch, make_session
from .fields import is_passport_file_name
from .forms import Form
from .limits import DEFAULT_LIMITS, ReadLimits
from .model import ParseResult, Passport, Problem, RegistryEntry, Severity, Translate, english
from .passport import FORMS as PASSPORT_FORMS
from .passport import looks_like_data_file, parse_passport, passport_from_entry, passport_locations
from .problems import N_, problem, severity_label, where
from .registry import FILE_NAMES as REGISTRY_FILE_NAMES
from .registry import FORMS as REGISTRY_FORMS
from .registry import parse_registry
from .serialize import to_jsonable


# ``fetch_one(url)`` reads a file whole, ``fetch_one(url, head_bytes=N)`` its first N bytes.
FetchOne = Callable[..., FetchResult]
# Called after each passport checked with (passports done, passports to check).
Progress = Callable[[int, int], None]
# What a passport's data files add to its findings (nothing when the data check is off).
DataCheck = Callable[[Passport], list[Problem]]
# How one passport (or the registry) is read: its fetcher and its data check, sharing one deadline.
Readers = tuple[FetchOne, Optional[DataCheck]]


@dataclass
class PassportCheck:
    """One dataset: where its passport was read (``url``, ``form``), everything found, and its score.

    ``score`` is ``None`` when no passport could be read at all. ``problems`` hold the parse's, the
    conformance check's and the data check's findings; ``passport`` is what was read, ``corrections`` what
    :func:`corrections.correct` would change in it (INFO ``fix.*``; they cost no score). The last
    ``data_findings`` of ``problems`` are the data check's, and ``score_without_data`` the score without them: a
    harvest reads data files only when its source asks for it, so that is the score its report may show.
    """

    identifier: str
    title: str = ""
    link: str = ""
    url: str = ""
    form: str = ""
    encoding: str = ""
    problems: list[Problem] = field(default_factory=list)
    score: Optional[int] = None
    data_findings: int = 0
    score_without_data: Optional[int] = None
    passport: Optional[Passport] = None
    corrections: list[Problem] = field(default_factory=list)


@dataclass
class SiteReport:
    """A site (or a single passport URL): its registry, the passports checked and what was found."""

    url: str
    registry_url: str = ""
    registry_form: str = ""
    registry_size: int = 0
    problems: list[Problem] = field(default_factory=list)
    passports: list[PassportCheck] = field(default_factory=list)

    @property
    def score(self) -> Optional[int]:
        """The mean score of the passports that could be read."""
        scores = [p.score for p in self.passports if p.score is not None]
        return round(mean(scores)) if scores else None

    def count(self, severity: Severity) -> int:
        found = self.problems + [p for check in self.passports for p in check.problems]
        return sum(1 for p in found if p.severity is severity)


def check_site(
    url: str,
    policy: FetchPolicy = FetchPolicy(),
    limit: Optional[int] = None,
    progress: Optional[Progress] = None,
    check_data: bool = True,
    head_bytes: int = DEFAULT_HEAD_BYTES,
    limits: ReadLimits = DEFAULT_LIMITS,
    passport_budget: Optional[float] = None,
    admit: Optional[Admit] = None,
) -> SiteReport:
    """Check a site, a registry URL or a single passport URL; ``limit`` caps the passports fetched.

    With ``check_data`` each passport's newest data file (its first ``head_bytes`` bytes) is compared with its
    structure file. ``progress(done, total)`` is called after each passport, and with ``done`` 0 as soon as a
    registry says how many there are (``(0, 0)`` when nothing could be checked at all). Each file is fetched and
    read within its form's cap in ``limits``. With ``passport_budget`` every fetch of one passport (its forms,
    its data and structure files) ends within that many seconds of wall clock, all together: a slow site costs
    each passport at most its budget, and what was not read by then is a ``fetch.timeout`` finding.
    ``admit`` is asked before every request of the check, redirects included (see :func:`fetch.fetch`): a portal
    counts there each host the check reads, those a registry lists on other hosts too.
    """
    session = make_session(policy)
    try:
        def within(deadline: Optional[Deadline]) -> Readers:
            def fetch_one(location: str, head_bytes: Optional[int] = None,
                          max_bytes: Optional[int] = None) -> FetchResult:
                return fetch(location, ReadLimits.policy(policy, max_bytes), session=session, head_bytes=head_bytes,
                             deadline=deadline, admit=admit)

            data: Optional[DataCheck] = None
            if check_data:
                def data(passport: Passport) -> list[Problem]:
                    return check_data_files(passport, fetch_one, head_bytes, limits.structure_bytes)

            return fetch_one, data

        def passport_within() -> Readers:
            return within(Deadline.after(passport_budget) if passport_budget is not None else None)

        return _check(url, within(None), passport_within, limit, progress or _no_progress, limits)
    finally:
        session.close()


def _no_progress(done: int, total: int) -> None:
    """Nobody is watching."""


def _check(url: str, site: Readers, passport_within: Callable[[], Readers], limit: Optional[int],
           progress: Progress, limits: ReadLimits) -> SiteReport:
    given = RegistryEntry(link=url)
    fetch_one, data = site
    if is_passport_file_name(url):
        single = check_entry(given, *passport_within(), limits)
        progress(1, 1)
        return SiteReport(url=url, passports=[single])
    discovery = discover_registry(url, fetcher=lambda location, _policy: fetch_one(
        location, max_bytes=limits.registry_bytes), limits=limits)
    if discovery.registry is None:
        # Not a site with a registry: perhaps the URL is a dataset's own passport page or folder. A page is read
        # as it was fetched; only a folder holds passport files to look for.
        single = (_check_page(given, discovery.given, data, limits) if names_file(url)
                  else check_entry(given, fetch_one, data, limits))
        if single.score is not None:
            progress(1, 1)
            return SiteReport(url=url, passports=[single])
        progress(0, 0)
        return SiteReport(url=url, problems=discovery.problems)
    entries = discovery.registry.entries
    chosen = entries[:limit]
    progress(0, len(chosen))
    checked = []
    for entry in chosen:
        checked.append(check_entry(entry, *passport_within(), limits))
        progress(len(checked), len(chosen))
    return SiteReport(
        url=url,
        registry_url=discovery.url,
        registry_form=discovery.form,
        registry_size=len(entries),
        problems=discovery.problems,
        passports=checked,
    )


def check_entry(entry: RegistryEntry, fetch_one: FetchOne, data: Optional[DataCheck] = None,
                limits: ReadLimits = DEFAULT_LIMITS) -> PassportCheck:
    """Read the passport an entry points at, trying its locations best form first, and judge it."""
    checked = PassportCheck(identifier=entry.identifier, title=entry.title, link=entry.link)
    if looks_like_data_file(entry.link, entry.format):
        return _judged(checked, passport_from_entry(entry), entry, entry.link, data)
    candidates = passport_locations(entry.link)
    failures: list[Problem] = []
    for form, location in candidates:
        fetched = fetch_one(location, max_bytes=limits.passport_limit(form))
        if not fetched.ok:
            failures += [fetched.problem] if fetched.problem else []
            continue
        result = parse_passport(fetched.content, fetched.url, limits=limits)
        if result.value is not None:
            return _judged(checked, result, entry, fetched.url, data)
        failures += result.problems
    identifier = entry.identifier or entry.link
    checked.problems = [problem("passport.unreachable", url=entry.link or None, identifier=identifier,
                                tried=len(candidates))] + failures
    return checked


def _check_page(entry: RegistryEntry, fetched: Optional[FetchResult], data: Optional[DataCheck],
                limits: ReadLimits) -> PassportCheck:
    """The passport of a page (or file) address that was already fetched; unread when it holds none."""
    checked = PassportCheck(identifier=entry.identifier, title=entry.title, link=entry.link)
    if fetched is None or not fetched.ok:
        return checked
    result = parse_passport(fetched.content, fetched.url, limits=limits)
    return _judged(checked, result, entry, fetched.url, data) if result.value is not None else checked


def _judged(checked: PassportCheck, result: ParseResult, entry: RegistryEntry, url: str,
            data: Optional[DataCheck]) -> PassportCheck:
    # A registry entry made up from the URL the user gave has nothing to agree or disagree with.
    conformance = check_passport(result.value, entry if entry.identifier else None, url=url, form=result.form)
    checked.identifier = checked.identifier or result.value.identifier
    checked.title = checked.title or result.value.title
    checked.url, checked.form, checked.encoding = url, result.form, result.encoding
    own = result.problems + conformance.problems
    found_in_data = data(result.value) if data else []
    checked.problems = own + found_in_data
    checked.score = score(checked.problems)
    checked.data_findings = len(found_in_data)
    checked.score_without_data = score(own)
    checked.passport = result.value
    checked.corrections = correct(result.value, url)[1]
    return checked


# --- rendering ------------------------------------------------------------------------------------------

def render_text(report: SiteReport, translate: Translate = english) -> str:
    """The report as readable text in the language of ``translate`` (codes and URLs as they are)."""
    _ = translate
    lines = [_(N_("Site: {url}")).format(url=report.url)]
    if report.registry_url:
        lines.append(translate.ngettext("Registry: {url} ({form}), {size} dataset, {checked} checked",
                                        "Registry: {url} ({form}), {size} datasets, {checked} checked",
                                        report.registry_size).format(
            url=report.registry_url, form=report.registry_form, size=report.registry_size,
            checked=len(report.passports)))
    lines += _problem_lines(report.problems, "  ", translate)
    for checked in report.passports:
        lines += ["", _(N_("Passport {identifier}: {title}")).format(
            identifier=checked.identifier or checked.link, title=checked.title).rstrip(": ")]
        if checked.score is None:
            lines.append("  " + _(N_("not read")))
        else:
            where = ", ".join(part for part in (checked.form, checked.encoding) if part)
            lines.append("  " + _(N_("{url} ({where}), score {score}/100")).format(
                url=checked.url, where=where, score=checked.score))
        lines += _problem_lines(checked.problems, "  ", translate)
        if checked.corrections:
            lines.append("  " + _(N_("Corrections in the fixed meta.json, meta.csv and meta.xml ({count}):")).format(
                count=len(checked.corrections)))
            lines += _problem_lines(checked.corrections, "    ", translate)
    lines += ["", _summary(report, translate)]
    return "\n".join(lines) + "\n"


def _problem_lines(problems: list[Problem], indent: str, translate: Translate) -> list[str]:
    lines = []
    for found in problems:
        place = where(found.location, translate)
        lines.append(f"{indent}{severity_label(found.severity, translate).upper()} {found.code}"
                     + (f" ({place})" if place else ""))
        lines.append(f"{indent}  {found.message(translate)}")
    return lines


def _summary(report: SiteReport, translate: Translate) -> str:
    """The totals, each number with its own plural form (one sentence cannot give several counts theirs)."""
    checked, errors, warnings = len(report.passports), report.count(Severity.ERROR), report.count(Severity.WARNING)
    unread = sum(1 for passport in report.passports if passport.score is None)
    average = "-" if report.score is None else f"{report.score}/100"
    parts = [
        translate.ngettext("{count} passport checked", "{count} passports checked", checked).format(count=checked),
        translate(N_("{count} not read")).format(count=unread),
        translate(N_("average score {average}")).format(average=average),
        translate.ngettext("{count} error", "{count} errors", errors).format(count=errors),
        translate.ngettext("{count} warning", "{count} warnings", warnings).format(count=warnings),
    ]
    return translate(N_("Total: {totals}")).format(totals=", ".join(parts))


def report_json(report: SiteReport, translate: Translate = english) -> str:
    document = {**to_jsonable(report, translate), "score": report.score,
                "errors": report.count(Severity.ERROR), "warnings": report.count(Severity.WARNING)}
    return json.dumps(document, ensure_ascii=False, indent=2)


# --- parse FILE -----------------------------------------------------------------------------------------

# Plain text: click 8.2's Choice would match an Enum's member names (META_CSV), not the forms' names.
PARSE_FORMS = sorted(form.value for form in set(PASSPORT_FORMS) | set(REGISTRY_FORMS))


def parse_file(path: Path, form: Optional[str] = None) -> tuple[str, ParseResult]:
    """``("passport" | "registry", result)`` for a local file; ``form`` as in :data:`PARSE_FORMS`.

    ``rdfa`` names a page of either kind, so a page (or a file of unnamed form) that holds no passport is
    read again as a registry.
    """
    data = path.read_bytes()
    url = path.resolve().as_uri()
    registry_only = form in REGISTRY_FORMS and form not in PASSPORT_FORMS
    # A file MR names as a registry is read as one; any other file as a passport first.
    if registry_only or (form is None and path.name.lower() in REGISTRY_FILE_NAMES):
        return "registry", parse_registry(data, url, form)
    passport = parse_passport(data, url, form)
    if passport.value is None and form in (None, Form.RDFA):
        registry = parse_registry(data, url, form)
        if registry.value is not None:
            return "registry", registry
    return "passport", passport


def parse_json(path: Path, kind: str, result: ParseResult, translate: Translate = english) -> str:
    document = {"file": str(path), "kind": kind, "form": result.form, "encoding": result.encoding,
                kind: to_jsonable(result.value), "problems": to_jsonable(result.problems, translate)}
    return json.dumps(document, ensure_ascii=False, indent=2)
