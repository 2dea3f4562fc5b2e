"""The one shape of a conformance report, shared by a harvest source's report and a site check.

A report is ``{..., "passports": [entry, ...], "summary": {...}}``; each entry is one passport (one registry
entry), each finding a problem rendered in the reader's language beside its stable code. The harvest report
adds ``source_id`` and ``job_id``, the site check ``url`` and the registry it read; both add ``problems``, the
findings about the site or registry itself.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from statistics import mean
from typing import Any, Iterable, Mapping, Optional

from ckanext.passport.mr.model import Problem, Severity, Translate, english
from ckanext.passport.mr.problems import where

CSV_COLUMNS = ("identifier", "dataset_id", "url", "form", "score", "code", "severity", "message", "where",
               "found_at")


@dataclass
class PassportConformance:
    """What was found about one passport: ``score`` is ``None`` when no passport could be read, or when the harvest
    read it but refused to import it (``refused``: its identifier taken, the dataset invalid)."""

    identifier: str
    url: str = ""
    form: str = ""
    score: Optional[int] = None
    problems: list[Problem] = field(default_factory=list)
    dataset_id: Optional[str] = None
    title: str = ""
    # file name (meta.json, meta.csv, meta.xml) → URL of the corrected file; empty when nothing was read
    fixed: dict[str, str] = field(default_factory=dict)
    corrections: list[Problem] = field(default_factory=list)
    refused: bool = False


def finding(found: Problem, translate: Translate = english) -> dict[str, Any]:
    """A problem for readers: code, severity, message and place in their language, and the file it is in."""
    return {
        "code": found.code,
        "severity": found.severity.value,
        "message": found.message(translate),
        "where": where(found.location, translate),
        "url": found.location.url,
        "line": found.location.line,
        "element": found.location.element,
    }


def passport_entry(checked: PassportConformance, translate: Translate = english) -> dict[str, Any]:
    return {
        "identifier": checked.identifier,
        "dataset_id": checked.dataset_id,
        "title": checked.title,
        "url": checked.url,
        "form": checked.form,
        "score": checked.score,
        "findings": [finding(found, translate) for found in checked.problems],
        "fixed": dict(checked.fixed),
        "corrections": [finding(found, translate) for found in checked.corrections],
        "refused": checked.refused,
    }


def is_conformant(entry: Mapping[str, Any]) -> bool:
    """A passport conforms when it was scored (read, and imported when harvested) and nothing about it is an error
    (warnings cost score only): the summary's conformant count and mean score are of the same passports."""
    return entry["score"] is not None and not any(
        f["severity"] == Severity.ERROR.value for f in entry["findings"])


def summary(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts over a report's passports; ``by_code`` counts the passports that have each code, not repeats.

    ``read`` counts the passports scored, the set ``mean_score`` and ``conformant`` are over; ``refused`` those a
    harvest read but did not import (no score: the portal holds nothing of them). An entry needs only its
    ``score``, ``refused`` and its findings' ``code`` and ``severity``; the entries are read once, one at a time.
    """
    passports = refused = conformant = 0
    scores: list[int] = []
    by_code: dict[str, int] = {}
    for entry in entries:
        passports += 1
        refused += bool(entry.get("refused"))
        conformant += is_conformant(entry)
        if entry["score"] is not None:
            scores.append(entry["score"])
        for code in {f["code"] for f in entry["findings"]}:
            by_code[code] = by_code.get(code, 0) + 1
    return {
        "passports": passports,
        "read": len(scores),
        "refused": refused,
        "mean_score": round(mean(scores), 1) if scores else None,
        "conformant": conformant,
        "by_code": dict(sorted(by_code.items(), key=lambda item: (-item[1], item[0]))),
    }


def document(checked: Iterable[PassportConformance], problems: Iterable[Problem] = (),
             translate: Translate = english, summarized: Optional[Mapping[str, Any]] = None,
             **head: Any) -> dict[str, Any]:
    """The report: ``head`` (source and job, or the site checked), site-level problems, passports, summary.

    ``summarized`` is the summary of the whole report when ``checked`` is only a page of its passports.
    """
    entries = [passport_entry(c, translate) for c in checked]
    return {**head, "problems": [finding(p, translate) for p in problems], "passports": entries,
            "summary": dict(summarized) if summarized is not None else summary(entries)}


# A cell a spreadsheet would run as a formula; harvested text is the publisher's, not ours to execute.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    return "'" + value if isinstance(value, str) and value.startswith(_FORMULA_START) else value


def to_csv(report: Mapping[str, Any]) -> str:
    """One row per finding (a passport without findings gets one row with its score), as spreadsheets read it; the
    site's own findings (a registry not found, a host that cannot be reached) first, with no passport.

    Text that a spreadsheet would take for a formula is written with a leading apostrophe.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for found in report.get("problems") or []:
        writer.writerow(["", "", "", "", "", found["code"], found["severity"], _cell(found["message"]),
                         _cell(found["where"]), _cell(found["url"] or "")])
    for entry in report["passports"]:
        head = [_cell(entry["identifier"]), entry.get("dataset_id") or "", _cell(entry["url"]), entry["form"],
                "" if entry["score"] is None else entry["score"]]
        for found in entry["findings"] or [None]:
            if found is None:
                writer.writerow(head + [""] * 5)
            else:
                writer.writerow(head + [found["code"], found["severity"], _cell(found["message"]),
                                        _cell(found["where"]), _cell(found["url"] or "")])
    return out.getvalue()
