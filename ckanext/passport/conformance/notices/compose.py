"""The conformance mails' subjects and plain-text bodies, in the site's language (``ckan.locale_default``).

They are written by harvest consumers and the cron's digest, outside any request, so every text goes through the
project's catalogs as the harvest's stored findings do (``language.site_translate``): ``translate(N_(…))`` for a
message, ``translate.ngettext`` for one that counts. Links are absolute (mail is read outside the site).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

import ckan.plugins.toolkit as tk

from ckanext.passport.language import readable_date
from ckanext.passport.mr.model import Translate
from ckanext.passport.mr.problems import N_

from ..harvest import report as harvest_report
from ..harvest.views import meaning
from ..scoreboard.model import JobSummary
from ..shape import finding
from . import changes, tokens

# Findings shown per broken passport, and broken passports per mail: a mail says what to look at, the tab the rest.
SHOWN_FINDINGS = 3
SHOWN_PASSPORTS = 20


def tab_link(source_name: str, job_id: Optional[str] = None) -> str:
    """The source's Conformance tab (of one job)."""
    link = f"{tokens.site_url()}/harvest/{source_name}/conformance"
    return f"{link}?job_id={job_id}" if job_id else link


def _site_title() -> str:
    return tk.config.get("ckan.site_title") or ""


def _score(value: Optional[float], translate: Translate) -> str:
    return translate(N_("none")) if value is None else f"{value:g}"


def _footer(address: str, translate: Translate, why: str) -> list[str]:
    return ["", "-- ", why,
            translate(N_("To receive no more of these mails: {link}")).format(link=tokens.link(address))]


def job_notice(worse: changes.Worse, source: dict[str, Any], broken: Iterable[harvest_report.StoredPassport],
               address: str, translate: Translate) -> tuple[str, str]:
    """The mail to an organization admin about a job that got worse: why, the new findings by code, the passports
    that broke, the Conformance tab of the job."""
    current, before = worse.current, worse.before
    title = source.get("title") or source["name"]
    subject = translate(N_("[{site}] The harvest of {source} got worse")).format(site=_site_title(), source=title)
    lines = [translate(N_("The harvest of \"{source}\" finished on {date} got worse than the one before.")).format(
        source=title, date=_when(current.finished)), ""]
    if changes.FAILED_JOB in worse.reasons:
        lines.append("- " + translate(N_("It could not read the registry: [{code}] {reason}")).format(
            code=current.failure_code or "", reason=_failure(current, translate)))
    if changes.ERRORS_GREW in worse.reasons and before is not None:
        lines.append("- " + translate(N_("Error findings: {before} before, {now} now.")).format(
            before=before.errors, now=current.errors))
    if changes.SCORE_DROPPED in worse.reasons and before is not None:
        lines.append("- " + translate(N_("Mean score: {before} before, {now} now.")).format(
            before=_score(before.mean_score, translate), now=_score(current.mean_score, translate)))
    if worse.new_codes:
        lines += ["", translate(N_("New findings by code:"))]
        lines += [f"  +{count} [{code}] {meaning(code, translate)}" for code, count in worse.new_codes.items()]
    broken = list(broken)
    if broken:
        lines += ["", translate.ngettext("{count} passport conformed before and does not now:",
                                         "{count} passports conformed before and do not now:",
                                         len(broken)).format(count=len(broken))]
        lines += _passports(broken[:SHOWN_PASSPORTS], translate)
    lines += ["", translate(N_("The source's conformance report:")), "  " + tab_link(source["name"], current.job_id)]
    lines += _footer(address, translate, translate(N_(
        "You receive this mail as an administrator of the organization of the harvest source \"{source}\".")).format(
        source=title))
    return subject, "\n".join(lines)


def publisher_notice(source: dict[str, Any], passports: list[harvest_report.StoredPassport],
                     fixer: harvest_report.Fixer, address: str, translate: Translate) -> tuple[str, str]:
    """The mail to an MR publisher's contact: their passports with errors on this portal, each with its findings
    and the corrected files they can publish in its place."""
    subject = translate(N_("[{site}] Your open-data passports have errors")).format(site=_site_title())
    lines = [translate(N_("The portal {site} harvests your open data ({url}). Its latest harvest found errors in "
                          "these passports:")).format(site=_site_title(), url=source.get("url") or ""), ""]
    for stored in passports[:SHOWN_PASSPORTS]:
        checked = harvest_report.conformance(stored, fixer)
        lines += _passports([stored], translate)
        if checked.fixed:
            lines.append("    " + translate(N_("Corrected files you can publish instead:")))
            lines += [f"      {name}: {link}" for name, link in checked.fixed.items()]
    lines += ["", translate(N_("The whole report:")), "  " + tab_link(source["name"])]
    lines += _footer(address, translate, translate(N_(
        "You receive this mail, at most once a week, as the contact (publishermbox) of these passports.")))
    return subject, "\n".join(lines)


def _failure(current: JobSummary, translate: Translate) -> str:
    """The failed job's finding of its failure code, with its particulars (the address tried); else what the code
    means."""
    for found in harvest_report.gather_problems(current.job_id):
        if found.code == current.failure_code:
            return found.message(translate)
    return meaning(current.failure_code or "", translate)


def _when(moment: Any) -> str:
    # Outside a request readable_date gives ISO text without its zone; the summaries' times are UTC.
    text = readable_date(moment, with_hours=True)
    return text if "UTC" in text else f"{text} (UTC)"


def _passports(passports: Iterable[harvest_report.StoredPassport], translate: Translate) -> list[str]:
    lines = []
    for stored in passports:
        lines.append(f"  {stored.identifier}" + (f" — {stored.title}" if stored.title else ""))
        errors = [found for found in stored.problems if found.severity.value == "error"] or list(stored.problems)
        for found in errors[:SHOWN_FINDINGS]:
            shown = finding(found, translate)
            lines.append(f"    [{shown['code']}] {shown['message']}")
        if len(errors) > SHOWN_FINDINGS:
            more = len(errors) - SHOWN_FINDINGS
            lines.append("    " + translate.ngettext("and {count} more", "and {count} more", more).format(count=more))
    return lines


def digest(organization: dict[str, Any], weeks: list[tuple[dict[str, Any], list[JobSummary]]], address: str,
           translate: Translate) -> tuple[str, str]:
    """An organization's weekly digest: for each of its notified sources, the week's jobs (their count, failures),
    the latest mean score and conformant passports against the first of the week's, and the tab."""
    name = organization.get("title") or organization["name"]
    subject = translate(N_("[{site}] This week's conformance of {organization}")).format(
        site=_site_title(), organization=name)
    lines = [translate(N_("The week's harvests of the sources of {organization}:")).format(organization=name)]
    for source, summaries in weeks:
        lines += ["", source.get("title") or source["name"]]
        if not summaries:
            lines.append("  " + translate(N_("No harvest finished this week.")))
        else:
            first, last = summaries[0], summaries[-1]
            failed = sum(1 for s in summaries if s.status == "failed")
            lines.append("  " + translate.ngettext("{count} harvest finished", "{count} harvests finished",
                                                   len(summaries)).format(count=len(summaries))
                         + (", " + translate.ngettext("{count} failed", "{count} failed", failed).format(count=failed)
                            if failed else ""))
            lines.append("  " + translate(N_("Mean score: {before} → {now}")).format(
                before=_score(first.mean_score, translate), now=_score(last.mean_score, translate)))
            lines.append("  " + translate(N_("Conformant passports: {before} → {now} of {listed}")).format(
                before=first.conformant, now=last.conformant, listed=last.listed))
            lines.append("  " + translate(N_("Error findings: {count}")).format(count=last.errors))
        lines.append("  " + tab_link(source["name"]))
    lines += _footer(address, translate, translate(N_(
        "You receive this weekly mail as an administrator of the organization {organization}.")).format(
        organization=name))
    return subject, "\n".join(lines)
