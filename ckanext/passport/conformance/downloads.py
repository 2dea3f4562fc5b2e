"""The downloads every conformance report offers: the report as CSV or JSON, and a passport's corrected files."""
from __future__ import annotations

import json
from typing import Any, Mapping

from flask import Response

from ckanext.passport.mr.forms import TRAITS, Form

from .shape import to_csv


def attachment(body: Any, content_type: str, filename: str) -> Response:
    response = Response(body, content_type=content_type)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# A report's download formats: media type, and the document as bytes.
REPORT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


def report_bytes(report: Mapping[str, Any], kind: str) -> bytes:
    """The report as a ``kind`` (``csv`` or ``json``) download's body."""
    if kind == "csv":
        # A byte order mark, so that spreadsheets open the Cyrillic and Czech text as UTF-8.
        return ("\ufeff" + to_csv(report)).encode("utf-8")
    return json.dumps(report, ensure_ascii=False, indent=1).encode("utf-8")


def report_csv(report: Mapping[str, Any], filename: str) -> Response:
    return attachment(report_bytes(report, "csv"), REPORT_TYPES["csv"], filename)


def report_json(report: Mapping[str, Any], filename: str) -> Response:
    return attachment(report_bytes(report, "json"), REPORT_TYPES["json"], filename)


def fixed_file(body: bytes, name: str) -> Response:
    return attachment(body, TRAITS[Form(name)].media_type, name)
