"""What got worse between a source's job and its previous one: the rule deciding whether a job is mailed.

Read from the two jobs' summaries (``scoreboard.summary``, the numbers of their reports) and, only when the job is
mailed, from their reports (``conformance.harvest.report``): the passports that conformed before and do not now.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ckanext.harvest.model import HarvestJob

from ..harvest import report as harvest_report
from ..scoreboard import summary as summaries
from ..scoreboard.model import FAILED, JobSummary
from ..shape import is_conformant

# Why a job is mailed (more than one may hold).
ERRORS_GREW, SCORE_DROPPED, FAILED_JOB = "errors_grew", "score_dropped", "failed"


@dataclass
class Worse:
    """How ``current`` got worse than ``before`` (``None``: the source's first job)."""

    current: JobSummary
    before: Optional[JobSummary]
    reasons: list[str] = field(default_factory=list)
    # code → how many more passports (or site findings) have it than in the previous job
    new_codes: dict[str, int] = field(default_factory=dict)


def baseline(current: JobSummary, limit: int = 30) -> Optional[JobSummary]:
    """What ``current`` is compared with: the source's previous job that did not fail. A failed job read no
    passports (its errors are the site's, its mean none), so the job after it, compared with it, would look worse
    for merely recovering; and a run of failures is each compared with the last job that read the registry."""
    before = summaries.previous(current)
    for _ in range(limit):
        if before is None or before.status != FAILED:
            return before
        before = summaries.previous(before)
    return None


def worse(current: JobSummary, before: Optional[JobSummary], score_drop: float) -> Worse:
    """Whether ``current`` got worse than ``before``: a failed job (its registry unread, its gather stopped) always
    is; otherwise its error findings grew, or its mean score fell by ``score_drop`` points or more. A first job
    that did not fail has nothing to be worse than."""
    found = Worse(current, before)
    if current.status == FAILED:
        found.reasons.append(FAILED_JOB)
    if before is not None:
        if current.errors > before.errors:
            found.reasons.append(ERRORS_GREW)
        if (current.mean_score is not None and before.mean_score is not None
                and before.mean_score - current.mean_score >= score_drop):
            found.reasons.append(SCORE_DROPPED)
    earlier = (before.codes or {}) if before is not None else {}
    found.new_codes = {code: count - earlier.get(code, 0) for code, count in sorted((current.codes or {}).items())
                       if count > earlier.get(code, 0)} if found.reasons else {}
    return found


def conformant_identifiers(job_id: Optional[str]) -> set[str]:
    """The identifiers of a job's passports that conform (as the report counts them)."""
    job = HarvestJob.get(job_id) if job_id else None
    if job is None:
        return set()
    return {entry.identifier for entry in harvest_report.counted_entries(job) if conforms(entry)}


def broken(current: JobSummary, before: Optional[JobSummary]) -> list[harvest_report.StoredPassport]:
    """The passports that conformed in ``before`` and do not in ``current``, in registry order, as the harvest
    stored them (the mails render their findings, their publisher's contact and corrected files); a passport that
    left the registry is not broken."""
    if before is None:
        return []
    conformed = conformant_identifiers(before.job_id)
    job = HarvestJob.get(current.job_id)
    if not conformed or job is None:
        return []
    now_broken = [entry.object_id for entry in harvest_report.counted_entries(job)
                  if entry.identifier in conformed and not conforms(entry)]
    return harvest_report.with_passports(harvest_report.entries(now_broken, job.source_id))


def conforms(entry: harvest_report.Counted) -> bool:
    return is_conformant(entry.as_entry())


def publisher_mbox(stored: harvest_report.StoredPassport) -> str:
    """The passport's ``publishermbox``, as read (``""`` when none, or not one plain address: the publisher's text
    goes into a mail header, so a line break, a second address or a display name is refused, not mended)."""
    mbox = str(((stored.passport or {}).get("publisher") or {}).get("mbox") or "").strip()
    if mbox.lower().startswith("mailto:"):
        mbox = mbox[len("mailto:"):]
    return mbox if len(mbox) <= 254 and _ADDRESS.fullmatch(mbox) else ""


# One plain address: no spaces, line breaks, commas, quotes or angle brackets; a dot in its domain.
_ADDRESS = re.compile(r"[^@\s<>,;:\"'()\[\]\\]+@[^@\s<>,;:\"'()\[\]\\]+\.[^@\s<>,;:\"'()\[\]\\]+")
