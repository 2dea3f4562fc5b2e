"""Bytes to text for every MR text form.

MR 3.0 asks for UTF-8, MR 2.3 said nothing, and the MR 2.3 validator settled on "UTF-8, else Windows-1251".
Real publications add two twists that a whole-file rule cannot survive: files whose lines were pasted from
both encodings (a Windows-1251 passport with a UTF-8 phone line), and mojibake, UTF-8 text that someone once
opened as Windows-1251 and saved again as UTF-8 ("РЎРїРёСЃРѕРє" for "Список"). So the fallback decodes line by
line, and mojibake is repaired where the evidence is unambiguous.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Optional

from .model import Problem
from .problems import problem
from .storable import replaced_finding, storable

UTF8 = "utf-8"
WINDOWS_1251 = "windows-1251"
MIXED = "mixed"


@dataclass
class Decoded:
    text: str
    encoding: str
    problems: list[Problem] = field(default_factory=list)


_UTF16_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def decode_bytes(data: bytes, url: str = "", override: Optional[str] = None) -> Decoded:
    """Decode published bytes; never raises. ``override`` (harvest source config) forces an encoding."""
    problems: list[Problem] = []
    if override:
        forced = _decode_forced(data, override.strip(), url, problems)
        if forced is not None:
            return _finish(forced, override.strip(), url, problems)
    for bom, encoding in _UTF16_BOMS:
        if data.startswith(bom):
            problems.append(problem("decode.utf16", url=url or None, encoding=encoding.upper()))
            return _finish(data[len(bom):].decode(encoding, errors="replace"), encoding, url, problems)
    if b"\x00" in data:
        problems.append(problem("decode.binary_content", url=url or None))
    body = data[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) else data
    try:
        return _finish(body.decode(UTF8), UTF8, url, problems)
    except UnicodeDecodeError:
        pass
    text, encoding = _decode_by_line(body, url, problems)
    return _finish(text, encoding, url, problems)


def _decode_forced(data: bytes, encoding: str, url: str, problems: list[Problem]) -> Optional[str]:
    codec = text_codec(encoding)
    if codec is None:
        problems.append(problem("decode.unknown_encoding", url=url or None, encoding=encoding))
        return None
    if codec.name == "utf-8" and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode(codec.name)
    except UnicodeDecodeError:
        problems.append(problem("decode.undecodable_bytes", url=url or None, encoding=encoding))
        return data.decode(codec.name, errors="replace")


def text_codec(name: str) -> Optional[codecs.CodecInfo]:
    """The text encoding ``name`` names; ``None`` for an unknown name and for a codec that is no text encoding
    (``rot13``, ``base64``, ``zlib_codec``, ``uu``: bytes to bytes or text to text, which ``bytes.decode``
    refuses with ``LookupError``)."""
    try:
        codec = codecs.lookup(name)
    except LookupError:
        return None
    return codec if getattr(codec, "_is_text_encoding", True) else None


def recode(data: bytes, encoding: str) -> bytes:
    """``data`` read in the text encoding ``encoding`` (undecodable bytes replaced), as UTF-8; unchanged when
    ``encoding`` names no text encoding."""
    codec = text_codec(encoding)
    return data if codec is None else data.decode(codec.name, errors="replace").encode(UTF8, errors="replace")


def _decode_by_line(body: bytes, url: str, problems: list[Problem]) -> tuple[str, str]:
    # Splitting on LF is safe in both encodings: neither uses 0x0A inside a multi-byte character.
    lines: list[str] = []
    utf8_lines: list[int] = []
    cp1251_lines: list[int] = []
    for number, raw in enumerate(body.split(b"\n"), start=1):
        try:
            line = raw.decode(UTF8)
            if not raw.isascii():
                utf8_lines.append(number)
        except UnicodeDecodeError:
            # 0x98 is the one byte Windows-1251 leaves undefined; "replace" keeps the rest of the line.
            line = raw.decode("cp1251", errors="replace")
            cp1251_lines.append(number)
        lines.append(line)
    text = "\n".join(lines)
    if not utf8_lines:
        problems.append(problem("decode.windows_1251", url=url or None))
        return text, WINDOWS_1251
    odd_one = utf8_lines[0] if len(utf8_lines) <= len(cp1251_lines) else cp1251_lines[0]
    problems.append(problem(
        "decode.mixed_encoding", url=url or None, line=odd_one, utf8=len(utf8_lines), cp1251=len(cp1251_lines),
    ))
    return text, MIXED


def _finish(text: str, encoding: str, url: str, problems: list[Problem]) -> Decoded:
    repaired, lines = repair_mojibake(text)
    if lines:
        problems.append(problem("decode.mojibake_repaired", url=url or None, line=lines[0], count=len(lines)))
    stored, replaced = storable(repaired)
    return Decoded(text=stored, encoding=encoding, problems=problems + replaced_finding(replaced, url))


# --- mojibake -------------------------------------------------------------------------------------------
#
# UTF-8 read as Windows-1251 turns each Cyrillic letter into a lead character ("Р" or "С", bytes D0/D1)
# followed by a continuation character (one of the 64 characters at 0x80-0xBF). Ordinary Russian text
# practically never puts two such pairs side by side, and the bytes must also decode as UTF-8 to Russian
# letters. A line is repaired only when it holds such a strong run; weaker runs on that same line (a
# one-letter word, a dash) are then repaired too.


def _cp1251_chars(first: int, last: int) -> dict[str, int]:
    chars: dict[str, int] = {}
    for byte in range(first, last + 1):
        try:
            chars[bytes([byte]).decode("cp1251")] = byte
        except UnicodeDecodeError:
            # What Windows and WHATWG decoders produce for the undefined 0x98.
            chars[chr(byte)] = byte
    return chars


_CONTINUATION = _cp1251_chars(0x80, 0xBF)
_LEAD2 = _cp1251_chars(0xC2, 0xDF)
_LEAD3 = _cp1251_chars(0xE0, 0xEF)
_TO_BYTE = {**_CONTINUATION, **_LEAD2, **_LEAD3}


def _char_class(chars: dict[str, int]) -> str:
    return "[" + "".join(re.escape(c) for c in chars) + "]"


_RUN = re.compile(
    "(?:{l2}{c}|{l3}{c}{{2}})+".format(
        l2=_char_class(_LEAD2), l3=_char_class(_LEAD3), c=_char_class(_CONTINUATION)
    )
)
_RUSSIAN = re.compile("[\u0400-\u045f\u0490\u0491]")
_PLAUSIBLE = re.compile("^[\u0400-\u045f\u0490\u0491\u00a0-\u00ff\u2010-\u2044\u2116\u20ac\u2122]+$")


def repair_mojibake(text: str) -> tuple[str, list[int]]:
    """Return the repaired text and the 1-based numbers of the lines that were repaired."""
    if not _may_hold_mojibake(text):
        return text, []
    lines = text.split("\n")
    repaired_lines: list[int] = []
    for index, line in enumerate(lines):
        repaired = _repair_line(line)
        if repaired != line:
            lines[index] = repaired
            repaired_lines.append(index + 1)
    if not repaired_lines:
        return text, []
    return "\n".join(lines), repaired_lines


# A run decodes to Russian letters only through the lead characters of bytes D0, D1 and D2.
_RUSSIAN_LEADS = tuple(char for char, byte in _LEAD2.items() if byte in (0xD0, 0xD1, 0xD2))
_CONTINUATION_CHARS = frozenset(_CONTINUATION)


def _may_hold_mojibake(text: str) -> bool:
    """Whether any Russian lead character is followed by a continuation character.

    Nearly every text has none, and ``str.find`` over the few capitals Р, С, Т is far cheaper than
    running the run pattern over every line.
    """
    for lead in _RUSSIAN_LEADS:
        start = text.find(lead)
        while start != -1:
            if text[start + 1:start + 2] in _CONTINUATION_CHARS:
                return True
            start = text.find(lead, start + 1)
    return False


def _repair_line(line: str) -> str:
    runs = [(match, _decode_run(match.group())) for match in _RUN.finditer(line)]
    plausible = [(match, decoded) for match, decoded in runs if decoded is not None]
    if not any(len(_RUSSIAN.findall(decoded)) >= 2 for _, decoded in plausible):
        return line
    pieces: list[str] = []
    position = 0
    for match, decoded in plausible:
        pieces.append(line[position:match.start()])
        pieces.append(decoded)
        position = match.end()
    pieces.append(line[position:])
    return "".join(pieces)


def _decode_run(run: str) -> Optional[str]:
    try:
        decoded = bytes(_TO_BYTE[c] for c in run).decode(UTF8)
    except UnicodeDecodeError:
        return None
    return decoded if _PLAUSIBLE.match(decoded) else None


# --- text that arrives in pieces ---------------------------------------------------------------------------------


class TextStream:
    """Bytes to text piece by piece, for a reader that streams (a sample of a data file), holding no more than a piece.

    The rules of :func:`decode_bytes` where a stream allows them: a UTF-16 BOM means UTF-16, a UTF-8 BOM is dropped,
    otherwise UTF-8 until a byte is not, and from that byte to the end of its line Windows-1251, then UTF-8 again
    (:func:`decode_bytes` reads a whole line of each; here the start of a line before its first such byte has been
    given out as UTF-8 already, and stays so: an ASCII start reads the same either way). Mojibake is not repaired:
    a stream's reader looks at its shape, not at its words.

    ``utf8_error`` is the offset of the first byte that is not UTF-8 (``None`` while all are). At :meth:`close` a
    character cut by the end counts as not UTF-8 only when the end is the file's: a sample may end inside one.
    """

    def __init__(self) -> None:
        self.utf8_error: Optional[int] = None
        self._taken = 0  # bytes taken before ``_pending``
        self._pending = b""  # the start of a BOM or of a character cut between two pieces
        self._started = False
        self._utf16: Optional[codecs.IncrementalDecoder] = None
        self._utf16_name = ""
        self._utf8_letters = False  # a non-ASCII character read as UTF-8 (with another line in Windows-1251: mixed)
        self._to_line_end = False  # in Windows-1251 up to the next LF

    @property
    def encoding(self) -> str:
        if self._utf16 is not None:
            return self._utf16_name
        if self.utf8_error is None:
            return UTF8
        return MIXED if self._utf8_letters else WINDOWS_1251

    def feed(self, data: bytes) -> str:
        """The text of ``data`` as far as it is whole (a cut character waits for the next piece)."""
        return self._decode(self._pending + data, final=False)

    def close(self, cut: bool) -> str:
        """The text left over; ``cut``: the bytes stopped before the file's end (a character cut there is dropped)."""
        pending, self._pending = self._pending, b""
        if cut:
            return self._utf16.decode(b"", final=False) if self._utf16 is not None else ""
        return self._decode(pending, final=True)

    def _decode(self, data: bytes, final: bool) -> str:
        self._pending = b""
        if not self._started:
            if len(data) < len(codecs.BOM_UTF8) and not final:
                self._pending = data
                return ""
            data = self._start(data)
        if self._utf16 is not None:
            return self._utf16.decode(data, final=final)
        pieces: list[str] = []
        index = 0
        while index < len(data):
            if self._to_line_end:
                end = data.find(b"\n", index)
                stop = len(data) if end < 0 else end + 1
                pieces.append(data[index:stop].decode("cp1251", errors="replace"))
                self._to_line_end = end < 0
                index = stop
                continue
            try:
                text = data[index:].decode(UTF8)
            except UnicodeDecodeError as error:
                whole = data[index:index + error.start].decode(UTF8)
                pieces.append(whole)
                self._utf8_letters = self._utf8_letters or not whole.isascii()
                index += error.start
                if not final and error.reason == "unexpected end of data":
                    self._pending = data[index:]
                    break
                if self.utf8_error is None:
                    self.utf8_error = self._taken + index
                self._to_line_end = True
                continue
            pieces.append(text)
            self._utf8_letters = self._utf8_letters or not text.isascii()
            index = len(data)
        self._taken += len(data) - len(self._pending)
        return "".join(pieces)

    def _start(self, data: bytes) -> bytes:
        self._started = True
        for bom, encoding in _UTF16_BOMS:
            if data.startswith(bom):
                self.utf8_error = 0
                self._utf16_name = encoding
                self._utf16 = codecs.getincrementaldecoder(encoding)(errors="replace")
                return data[len(bom):]
        if data.startswith(codecs.BOM_UTF8):
            self._taken = len(codecs.BOM_UTF8)
            return data[len(codecs.BOM_UTF8):]
        return data
