"""Table files read as they stream (``mr.tableshape``, ``mr.decode.TextStream``, ``mr.jsontext.DepthGauge``): pieces
of any size give the whole read's answer, a sample cut anywhere is judged by what it holds, and memory stays flat
whatever the file's size."""
from __future__ import annotations

import json
import tracemalloc
from typing import Iterator

import pytest

from ckanext.passport.mr.decode import TextStream, decode_bytes
from ckanext.passport.mr.jsontext import MAX_DEPTH, DepthGauge, nesting_depth, value_cut
from ckanext.passport.mr.tableshape import CsvShape, JsonShape, Shape, XmlShape

MIB = 1024 * 1024

CSV = "kód;název;počet obyvatel\n582786;Brno;396778\n554782;\"Praha\nhlavní město\";1384732\n1;2\n".encode()
JSON = json.dumps({"popis": "obce", "obce": [{"kod": 1, "nazev": "Brno [město]"}, {"kod": 2, "nazev": "Praha"},
                                             {"kod": 3}]}, ensure_ascii=False).encode()
XML = ("<?xml version='1.0' encoding='utf-8'?><obce><!-- obce --><obec kod='1'><nazev>Brno</nazev></obec>"
       "<obec kod='2'><nazev>Praha</nazev></obec><obec><nazev>Jihlava</nazev></obec><kraj/></obce>").encode()


def _read(kind: str, data: bytes, step: int, cut: bool = False) -> Shape:
    """``data`` handed to ``kind``'s reader ``step`` bytes at a time, the text decoded piece by piece."""
    reader = {"csv": CsvShape, "json": JsonShape, "xml": XmlShape}[kind]()
    text = TextStream()
    for start in range(0, len(data), step):
        piece = data[start:start + step]
        decoded = text.feed(piece)
        reader.feed(piece if kind == "xml" else decoded)
    rest = text.close(cut)
    if kind != "xml":
        reader.feed(rest)
    return reader.close(cut)


@pytest.mark.parametrize("kind, data", [("csv", CSV), ("json", JSON), ("xml", XML)])
def test_pieces_of_any_size_give_the_shape_of_the_whole_read(kind, data):
    whole = _read(kind, data, len(data))
    assert all(_read(kind, data, step) == whole for step in (1, 2, 3, 5, 64))
    assert whole.error is None and whole.uneven  # each holds a row of another shape


def test_a_csv_row_is_counted_at_the_line_it_starts_on_a_quoted_value_over_two_lines_included():
    shape = _read("csv", CSV, 7)
    assert (shape.delimiter, shape.header, shape.rows, shape.first_uneven) == (
        ";", ("kód", "název", "počet obyvatel"), 4, 5)


def test_the_xml_records_are_the_root_s_children_their_shape_their_attributes_and_children():
    shape = _read("xml", XML, 10)
    assert (shape.kinds, shape.rows, shape.uneven, shape.first_uneven) == (2, 4, 2, 3)


def test_the_json_table_is_the_one_array_of_the_top_object_and_its_rows_shape_their_keys():
    shape = _read("json", JSON, 10)
    assert (shape.kinds, shape.rows, shape.uneven, shape.first_uneven) == (1, 3, 1, 3)


# --- a sample cut by its cap -----------------------------------------------------------------------------------

GOOD_CSV = b"a,b\n" + b"".join(b"%d,%d\n" % (n, n) for n in range(200))
GOOD_JSON = b'{"rows": [' + b", ".join(b'{"a": %d, "b": "x"}' % n for n in range(200)) + b'], "more": [1]}'
GOOD_XML = b"<rows>" + b"".join(b"<row a='%d'><b>x</b></row>" % n for n in range(200)) + b"</rows>"
BROKEN_TAIL = {"csv": b'1,2,3\n"', "json": b"}}}x", "xml": b"</wrong><<"}


@pytest.mark.parametrize("kind, data", [("csv", GOOD_CSV), ("json", GOOD_JSON), ("xml", GOOD_XML)])
def test_a_sample_cut_anywhere_is_no_error_and_its_rows_are_even(kind, data):
    for end in range(1, len(data) // 2, 7):
        shape = _read(kind, data[:end], 13, cut=True)
        assert shape.error in (None, {}) and shape.uneven == 0, (end, shape)


@pytest.mark.parametrize("kind, data", [("csv", GOOD_CSV), ("json", GOOD_JSON), ("xml", GOOD_XML)])
def test_the_same_bytes_read_as_a_whole_file_are_broken(kind, data):
    end = data.index(b"150") + 2  # inside a row: "15" of a CSV row, a JSON value, an XML attribute
    sample = _read(kind, data[:end], 13, cut=True)
    assert sample.error is None and sample.uneven == 0
    whole = _read(kind, data[:end], 13)
    assert whole.error or whole.uneven


@pytest.mark.parametrize("kind, data", [("csv", GOOD_CSV), ("json", GOOD_JSON), ("xml", GOOD_XML)])
def test_a_malformed_tail_after_the_sample_does_not_matter(kind, data):
    sample = len(data) // 2
    spoiled = data[:sample] + BROKEN_TAIL[kind] + data[sample:]
    assert _read(kind, spoiled, 64).error or _read(kind, spoiled, 64).uneven
    shape = _read(kind, spoiled[:sample], 64, cut=True)
    assert shape.error is None and shape.uneven == 0 and shape.rows > 50


def test_a_fault_within_the_sample_counts_as_in_a_whole_file():
    spoiled = GOOD_JSON[:100] + b"}x" + GOOD_JSON[100:]
    assert _read("json", spoiled[:300], 13, cut=True).error == _read("json", spoiled, 13).error


def test_a_csv_record_cut_inside_a_quoted_value_is_dropped_not_misread():
    shape = _read("csv", b'a,b\n1,2\n3,"x\ny,z,w', 4, cut=True)
    assert (shape.error, shape.rows, shape.uneven) == (None, 2, 0)


# --- JSON depth, decoding -----------------------------------------------------------------------------------------

def test_json_nested_deeper_than_the_limit_is_refused_before_it_is_decoded():
    shape = _read("json", b"[" + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"]", 5)
    assert shape.error["problem"]["code"] == "json.too_deep"


def test_the_depth_gauge_reads_pieces_as_nesting_depth_reads_the_whole():
    text = '{"a": "[[[\\"{{", "b": [[1, {"c": "]]"}], [2]]}' * 3
    for step in (1, 2, 3, 7):
        gauge = DepthGauge()
        for start in range(0, len(text), step):
            gauge.feed(text[start:start + step])
        assert (gauge.deepest, gauge.depth) == (nesting_depth(text), 0)


@pytest.mark.parametrize("text, cut", [('{"a": [1', True), ('{"a": "]}', True), ('"ab', True), ("tru", True),
                                       ("12", True), ('{"a": x}', False), ('"ab" ', False), ("tr,", False)])
def test_a_value_cut_by_the_end_of_the_text_is_told_from_a_broken_one(text, cut):
    assert value_cut(text) is cut


@pytest.mark.parametrize("data", ["Привет, мир\nстрока\n".encode(), "Привет\n".encode("cp1251") + "ещё\n".encode(),
                                  "a;b\n".encode("utf-16"), b"\xef\xbb\xbfa;b\n"])
def test_text_decoded_piece_by_piece_is_decode_bytes_text(data):
    found = decode_bytes(data)
    for step in (1, 2, 3, 64):
        stream = TextStream()
        text = "".join(stream.feed(data[start:start + step]) for start in range(0, len(data), step))
        assert (text + stream.close(cut=False), stream.encoding) == (found.text, found.encoding)


def test_a_character_cut_by_the_sample_is_utf8_a_file_ending_in_one_is_not():
    data = "kód;ná".encode()[:-1]
    sample, whole = TextStream(), TextStream()
    sample.feed(data), whole.feed(data)
    sample.close(cut=True), whole.close(cut=False)
    assert (sample.utf8_error, whole.utf8_error) == (None, len(data) - 1)


# --- memory -------------------------------------------------------------------------------------------------------

def _pieces(kind: str, size: int) -> Iterator[bytes]:
    """A well-formed table of about ``size`` bytes, in 64 KiB pieces, never whole in memory."""
    heads = {"csv": b"kod;nazev;pocet\n", "json": b"[", "xml": b"<obce>"}
    tails = {"csv": b"", "json": b'{"kod": 0, "nazev": "x", "pocet": 0}]', "xml": b"</obce>"}
    rows = {"csv": "{n};Obec číslo {n};{n}\n", "json": '{{"kod": {n}, "nazev": "Obec číslo {n}", "pocet": {n}}}, ',
            "xml": "<obec kod='{n}'><nazev>Obec číslo {n}</nazev><pocet>{n}</pocet></obec>"}
    yield heads[kind]
    sent, n = 0, 0
    while sent < size:
        piece = "".join(rows[kind].format(n=n + i) for i in range(1000)).encode()
        n += 1000
        sent += len(piece)
        yield piece
    yield tails[kind]


@pytest.mark.parametrize("kind", ["csv", "json", "xml"])
def test_reading_eight_times_more_holds_no_more_memory(kind):
    def peak(size: int) -> int:
        tracemalloc.start()
        reader, text = {"csv": CsvShape, "json": JsonShape, "xml": XmlShape}[kind](), TextStream()
        for piece in _pieces(kind, size):
            decoded = text.feed(piece)
            reader.feed(piece if kind == "xml" else decoded)
        if kind != "xml":
            reader.feed(text.close(cut=False))
        shape = reader.close(cut=False)
        found = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert shape.error is None and shape.uneven == 0 and shape.rows > size // 100
        return found

    # 256 KiB against 2 MiB: the reading's pieces are 64 KiB, so eight times the file is four times a piece.
    small, large = peak(MIB // 4), peak(2 * MIB)
    assert large < 1.2 * small + 256 * 1024 and large < 4 * MIB
