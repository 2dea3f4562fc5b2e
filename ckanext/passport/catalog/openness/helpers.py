"""The record page's openness results: each resource's stored check, its checks' names and why one failed, in the
reader's language."""
from __future__ import annotations

from typing import Any, Mapping

import ckan.plugins.toolkit as tk

from ckanext.passport.language import reader_translate
from ckanext.passport.mr.problems import from_dict

from ..vocabularies import vocab
from .assessment import FIELD


def check_label(code: str) -> str:
    labels = {
        "available": tk._("Downloadable"),
        "utf8": tk._("UTF-8 encoding"),
        "format": tk._("Table format (CSV, XML or JSON)"),
        "one_table": tk._("One table per distribution"),
        "header": tk._("Header row"),
        "consistent_rows": tk._("Every row has the header's structure"),
    }
    return labels.get(code, code)


def _stored_problem(detail: Mapping[str, Any]) -> Any:
    """The finding a check stored, in the reader's language; a result stored as text before is shown as it is."""
    found = from_dict(detail["problem"]) if isinstance(detail.get("problem"), Mapping) else None
    if found is not None:
        return found.message(reader_translate())
    return detail.get("error") or detail.get("status")


def check_detail(check: Mapping[str, Any]) -> str:
    """Why a check failed, in words; empty when it passed or does not apply."""
    if check.get("passed") is not False:
        return ""
    detail = check.get("detail") or {}
    code = check.get("code")
    if code == "available":
        return tk._("the file could not be downloaded: {error}").format(error=_stored_problem(detail))
    if code == "utf8":
        return tk._("the text is in {encoding}").format(encoding=detail.get("encoding") or "?")
    if code == "format":
        return tk._("not a well-formed CSV, XML or JSON table")
    if code == "one_table" and detail.get("line"):
        return tk._("a blank line at line {line} starts another block").format(line=detail["line"])
    if code == "one_table":
        return tk._("the distribution holds more than one kind of record")
    if code == "header":
        return tk._("the first row (line {line}) holds data, not column names").format(line=detail.get("line"))
    if code == "consistent_rows" and ("line" in detail or "row" in detail):
        count = detail["count"]
        return tk.ungettext("{count} row differs from the header, at {where}",
                            "{count} rows differ from the header, the first at {where}", count).format(
            count=count, where=detail.get("line") or detail.get("row")
        )
    return ""


def openness_results(pkg_dict: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stored openness check of each resource (resources never checked are listed without one)."""
    results = []
    for resource in pkg_dict.get("resources") or []:
        stored = resource.get(FIELD)
        found = vocab.as_list(stored)
        results.append({
            "resource": resource,
            "result": found[0] if found and isinstance(found[0], Mapping) else None,
        })
    return results


def helpers() -> dict[str, Any]:
    return {
        "passport_openness_results": openness_results,
        "passport_openness_check_label": check_label,
        "passport_openness_check_detail": check_detail,
    }
