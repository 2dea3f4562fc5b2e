"""Bytes as real MR publishers write them: CSV files with each quirk seen on their sites, and mojibake (the MR
reader tests build their corpus from small templates with these)."""
from __future__ import annotations

import codecs
import csv
import io
from typing import Collection, Sequence


def write_csv(
    rows: Sequence[Sequence[str]],
    *,
    delimiter: str = ",",
    quote_all: bool = False,
    blank_lines: bool = False,
    number_row: bool = False,
    trailing: int = 0,
    line_end: str = "\n",
    encoding: str = "utf-8",
    utf8_rows: Collection[int] = (),
    bom: bool = False,
) -> bytes:
    """Bytes of a CSV file with real-world quirks.

    ``number_row`` puts a ``1;2;3`` row under the first row, ``trailing`` pads every row with empty cells,
    ``blank_lines`` follows every row with an empty line, ``encoding="cp1251"`` with ``utf8_rows`` writes
    those row indexes in UTF-8 (the mixed-encoding file).
    """
    quoting = csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL
    lines: list[tuple[bytes, str]] = []
    for index, row in enumerate(rows):
        buffer = io.StringIO()
        csv.writer(buffer, delimiter=delimiter, quoting=quoting, lineterminator="\n").writerow(row)
        codec = "utf-8" if index in utf8_rows else encoding
        lines.append(((buffer.getvalue()[:-1] + delimiter * trailing).encode(codec), codec))
        if number_row and index == 0:
            lines.append((delimiter.join(str(n) for n in range(1, len(row) + 1)).encode(), "ascii"))
        if blank_lines:
            lines.append((b"", "ascii"))
    data = b"".join(line + line_end.encode() for line, _ in lines)
    return codecs.BOM_UTF8 + data if bom else data


def mojibake(text: str) -> str:
    """What a publisher's tools did: UTF-8 bytes read as Windows-1251 (0x98 becoming U+0098, as Windows does)."""
    return "".join(
        bytes([byte]).decode("cp1251") if byte != 0x98 else "\u0098" for byte in text.encode("utf-8")
    )
