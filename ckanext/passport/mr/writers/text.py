"""Text helpers shared by the registry and passport writers."""
from __future__ import annotations

import csv
import io
from typing import Iterable, Iterator, Sequence

from ..storable import UNSTORABLE

def xml_text(value: str) -> str:
    """``value`` without the characters XML cannot represent (not even as references; lxml refuses them), so
    that any text can be written: the readers replace them (``mr.storable``), a record's own text may hold them."""
    return UNSTORABLE.sub("", value)


def csv_lines(rows: Iterable[Sequence[str]], delimiter: str = ",") -> Iterator[str]:
    """RFC 4180 lines (CRLF, minimal quoting), one per row, written lazily for streaming."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow(row)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
