"""What every CSV form's parser does first: decode the bytes, read the rows, hand the table to the form."""
from __future__ import annotations

from typing import Callable, Optional, TypeVar

from .csvrows import Table, read_rows
from .decode import decode_bytes
from .model import ParseResult, Problem

T = TypeVar("T")


def parse_csv_form(
    data: bytes, url: str, form: str, read: Callable[[Table, str, list[Problem]], Optional[T]]
) -> ParseResult[T]:
    decoded = decode_bytes(data, url)
    table = read_rows(decoded.text, url)
    problems = decoded.problems + table.problems
    value = read(table, url, problems) if table.rows else None
    return ParseResult(value=value, problems=problems, form=form, encoding=decoded.encoding)
