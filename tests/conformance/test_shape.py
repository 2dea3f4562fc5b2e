"""The report document both kinds of report share: its summary and its CSV."""
from __future__ import annotations

import csv
import io

from ckanext.passport.conformance.shape import PassportConformance, document, to_csv
from ckanext.passport.mr.problems import problem


def _rows(report: dict) -> list[dict]:
    return list(csv.DictReader(io.StringIO(to_csv(report))))


def test_the_summary_counts_passports_read_conformant_and_each_code_once_per_passport():
    report = document([
        PassportConformance("1-a", score=100),
        PassportConformance("2-b", score=60, problems=[problem("check.missing_field", field="title"),
                                                      problem("check.missing_field", field="creator")]),
        PassportConformance("3-c", score=None),
    ])

    assert report["summary"] == {"passports": 3, "read": 2, "refused": 0, "mean_score": 80.0, "conformant": 1,
                                 "by_code": {"check.missing_field": 1}}


def test_a_passport_refused_at_import_counts_in_neither_the_mean_nor_the_conformant():
    report = document([
        PassportConformance("1-a", score=100),
        PassportConformance("2-b", score=None, refused=True, problems=[problem("check.missing_field", field="title")]),
    ])

    assert report["passports"][1]["refused"] is True
    assert {k: report["summary"][k] for k in ("passports", "read", "refused", "mean_score", "conformant")} == \
        {"passports": 2, "read": 1, "refused": 1, "mean_score": 100.0, "conformant": 1}


def test_the_csv_has_a_row_per_finding_and_one_for_a_passport_without_findings():
    report = document([
        PassportConformance("1-a", url="http://site/1-a/meta.json", score=100),
        PassportConformance("2-b", score=80, problems=[problem("check.missing_field", field="title")]),
    ])

    assert [(r["identifier"], r["score"], r["code"]) for r in _rows(report)] == [
        ("1-a", "100", ""), ("2-b", "80", "check.missing_field")]


def test_harvested_text_never_becomes_a_spreadsheet_formula():
    report = document([PassportConformance("=HYPERLINK(\"http://evil\")", url="=1+1", score=95,
                                           problems=[problem("check.phone_form", url="@SUM(A1)", text="x")])])

    [row] = _rows(report)
    assert (row["identifier"], row["url"], row["found_at"]) == (
        "'=HYPERLINK(\"http://evil\")", "'=1+1", "'@SUM(A1)")
