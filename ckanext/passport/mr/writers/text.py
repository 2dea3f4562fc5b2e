"""Text helpers shared by the registry and passport writers."""
from __future__ import annotations

import csv
import io
import re
from typing import Iterable, Iterator, Sequence

# Characters XML 1.0 cannot carry at all (not even as references); lxml refuses them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """``value`` without the characters XML cannot represent, so that any parsed text can be written."""
    return _NOT_XML.sub("", value)


def csv_lines(rows: Iterable[Sequence[str]], delimiter: str = ",") -> Iterator[str]:
    """RFC 4180 lines (CRLF, minimal quoting), one per row, written lazily for streaming."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    for row in rows:
        writer.writerow(row)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
