"""Fast paths give the careful paths' answers.

The hot helpers read MR's own spellings with cheap checks first and leave everything else to the careful
reading; these properties hold the two to each other over generated and real-world shaped input.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

from hypothesis import assume, given
from hypothesis import strategies as st

from ckanext.passport.mr import dates, fields
from ckanext.passport.mr.csvrows import compact, is_column_number_row

DIGITS = st.text(alphabet="0123456789", min_size=0, max_size=14)
DATE_LIKE = st.one_of(
    DIGITS,
    st.builds(lambda a, b: f"{a}T{b}", DIGITS, DIGITS),
    st.builds(lambda y, m, d: f"{y}-{m}-{d}", DIGITS, DIGITS, DIGITS),
    st.text(max_size=16),
)
SEGMENT = st.text(alphabet="abcDATA019-_.%T ?#:", max_size=12)


@given(DATE_LIKE)
def test_canonical_dates_read_as_the_careful_reader_reads_them(text):
    fast = dates._canonical(text)
    if fast is not None:
        slow = dates._understand(text)
        assert (fast, type(fast)) == (slow, type(slow))


def _careful_last_segment(link: str) -> str:
    path = urlsplit(link.strip()).path if "://" in link else link.strip().split("?")[0].split("#")[0]
    segments = [s for s in path.split("/") if s]
    return unquote(segments[-1]) if segments else ""


@given(st.one_of(
    st.builds(lambda host, parts: f"https://{host}/" + "/".join(parts), SEGMENT, st.lists(SEGMENT, max_size=4)),
    st.builds("/".join, st.lists(SEGMENT, max_size=4)),
    st.text(max_size=30),
))
def test_last_segment_of_plain_links_is_the_url_parsers(link):
    assert fields.last_segment(link) == _careful_last_segment(link)


def test_a_bare_host_has_no_last_segment():
    assert fields.last_segment("https://opendata.example.ru/") == ""
    assert fields.last_segment("https://opendata.example.ru//") == ""


def _careful_version_name(name: str):
    stem = fields._EXTENSIONS.sub("", fields._spelled_out(fields.last_segment(name)))
    data = fields._DATA_NAME.match(stem)
    if data:
        version, created = fields.version_parts(data.group("version"))
        return fields.VersionName("data", version, created, fields.version_parts(data.group("structure"))[0])
    structure = fields._STRUCTURE_NAME.match(stem)
    if structure:
        version, created = fields.version_parts(structure.group("structure"))
        return fields.VersionName("structure", version, created)
    return None


VERSION_TOKEN = st.one_of(
    st.builds(lambda d: d, st.text(alphabet="0123456789", min_size=8, max_size=8)),
    st.builds(lambda d, t: f"{d}T{t}", st.text(alphabet="0123456789", min_size=8, max_size=8),
              st.text(alphabet="0123456789", min_size=4, max_size=4)),
)


@given(VERSION_TOKEN, VERSION_TOKEN, st.sampled_from(["", ".csv", ".CSV", ".xml", ".csv.zip", ".json", ".abcdef"]),
       st.sampled_from(["", "https://opendata.example.ru/opendata/7708234640-okvedva/"]))
def test_canonical_data_names_read_as_the_respelling_reader_reads_them(version, structure, extension, folder):
    name = f"{folder}data-{version}-structure-{structure}{extension}"
    assert fields.read_version_name(name) == _careful_version_name(name)


@given(st.text(max_size=20))
def test_field_keys_are_compacted_the_same_way(name):
    key = compact(name)
    assert fields.field_key(name) == fields._KEY_ALIASES.get(key, key)


@given(st.lists(st.sampled_from(["1", "2", "3", "1.", " 2 ", "x", ""]), max_size=5))
def test_column_number_rows_are_told_apart_the_same_way(cells):
    values = [c.strip().rstrip(".") for c in cells]
    expected = len(values) >= 2 and values == [str(n) for n in range(1, len(values) + 1)]
    assert is_column_number_row(cells) == expected


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _decoded_line_by_line(body: bytes) -> tuple[str, bool]:
    """The careful reading: each line as UTF-8 if it is, else Windows-1251; and whether any line was UTF-8."""
    lines, any_utf8 = [], False
    for raw in body.split(b"\n"):
        try:
            lines.append(raw.decode("utf-8"))
            any_utf8 = any_utf8 or not raw.isascii()
        except UnicodeDecodeError:
            lines.append(raw.decode("cp1251", errors="replace"))
    return "\n".join(lines), any_utf8


@given(st.lists(st.one_of(
    st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗ №«»–,;\"0123456789abc", max_size=20)
    .map(lambda text: text.encode("cp1251")),
    st.text(max_size=10).map(lambda text: text.encode("utf-8")),
    st.binary(max_size=10),
), min_size=1, max_size=6))
def test_a_file_without_utf8_lines_reads_as_windows_1251_in_one_step(lines):
    from ckanext.passport.mr.decode import WINDOWS_1251, _decode_by_line

    body = b"\n".join(line.replace(b"\n", b" ") for line in lines)
    assume(not _is_utf8(body))  # the line-by-line reading is only for text that is not UTF-8 as a whole
    expected_text, any_utf8 = _decoded_line_by_line(body)
    text, encoding = _decode_by_line(body, "", [])
    assert text == expected_text
    assert (encoding == WINDOWS_1251) == (not any_utf8)


@given(st.lists(st.tuples(st.sampled_from(["identifier", "Title", "x:link", "format", "note"]),
                          st.text(alphabet="ab <>&", max_size=6)), max_size=5))
def test_child_texts_of_plain_and_odd_tags_match_a_walk_by_local_name(children):
    from xml.sax.saxutils import escape

    from lxml import etree

    from ckanext.passport.mr.safexml import child_texts

    body = "".join(f"<{tag}>{escape(text)}</{tag}>" for tag, text in children)
    element = etree.fromstring(f'<item xmlns:x="urn:x">{body}</item>')
    expected: dict[str, str] = {}
    for node in element:
        expected.setdefault(node.tag.rpartition("}")[2].lower(), (node.text or "").strip())
    assert child_texts(element) == expected
