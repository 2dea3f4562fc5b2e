"""Every registry and passport parser survives any input: it returns, quickly, a result that has a value or
says what was wrong. Inputs are random bytes and real publications damaged the way files get damaged
(flipped bytes, cut-off ends, stray quotes and separators, the wrong encoding)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ckanext.passport.mr.guarded import MAX_PER_CODE
from ckanext.passport.mr.model import ParseResult, Problem, RegistryEntry
from ckanext.passport.mr.passport import FORMS as PASSPORT_MODULES
from ckanext.passport.mr.passport import parse_passport
from ckanext.passport.mr.problems import catalogue, from_dict, stored_problem
from ckanext.passport.mr.registry import FORMS as REGISTRY_MODULES
from ckanext.passport.mr.registry import iter_registry, parse_registry
from ckanext.passport.mr.storable import storable_value
from ckanext.passport.mr.structure import read_structure_fields
from ckanext.passport.mr.translation import translator
from ckanext.passport.mr.writers.passport import write_passport
from ckanext.passport.mr.writers.registry import write_registry

RUSSIAN = translator("ru")

REAL = Path(__file__).parent.parent / "fixtures" / "real"
URL = "http://opendata.example.ru/opendata/7712345678-showrooms/"
HANG_SECONDS = 10


def _real(path: str, limit: int = 64 * 1024) -> bytes:
    # Large files are cut: the parsers' speed on them is the benchmark's business, not the fuzzer's.
    return (REAL / path).read_bytes()[:limit]


def _samples() -> dict[str, bytes]:
    samples = {
        "rosstat meta.csv": _real("rosstat-okved2/meta.csv"),
        "predgor meta.json": _real("predgor/2618017120-politicaldivisions/meta.json"),
        "predgor index.php": _real("predgor/2618017120-politicaldivisions/index.php"),
        "meteorf mr23 csv": _real("meteorf-terorg/meta.csv"),
        "predgor list.json": _real("predgor/list.json"),
        "fedstat list.xml (start)": _real("fedstat/list.xml", 16 * 1024),
        "rosstat structure csv": _real("rosstat-okved2/structure-20180402T1704.csv"),
        "meteorf structure csv": _real("meteorf-terorg/structure-1-2013-07-15.csv"),
    }
    # Forms without a real fixture are made by our writers from the real ones.
    passport = parse_passport(samples["rosstat meta.csv"], URL).value
    registry = parse_registry(samples["predgor list.json"], URL).value
    samples["written meta.xml"] = write_passport(passport, "meta.xml")
    samples["written list.csv"] = write_registry(registry, "list.csv")
    samples["written opendatalist.csv"] = write_registry(registry, "opendatalist.csv")
    return samples


SAMPLES = _samples()


def _consume_stream(data: bytes) -> ParseResult:
    """``iter_registry`` as gather uses it, folded into a ParseResult so that one check covers all parsers."""
    stream = iter_registry(data, URL)
    entries, problems = [], []
    for item in stream:
        assert isinstance(item, (RegistryEntry, Problem))
        (entries if isinstance(item, RegistryEntry) else problems).append(item)
    return ParseResult(entries or None, problems, form=stream.form)


def _module_parser(module: ModuleType) -> Callable[[bytes], ParseResult]:
    return lambda data: module.parse(data, URL)


PARSERS: dict[str, Callable[[bytes], ParseResult]] = {
    **{f"registry {form}": _module_parser(module) for form, module in REGISTRY_MODULES.items()},
    **{f"passport {form}": _module_parser(module) for form, module in PASSPORT_MODULES.items()},
    "parse_registry": lambda data: parse_registry(data, URL),
    "iter_registry": _consume_stream,
    "parse_passport": lambda data: parse_passport(data, URL),
    "read_structure_fields": lambda data: read_structure_fields(data, URL),
}
# What leaves these is guarded (mr.guarded): storable text only, the findings within budget.
ENTRY_POINTS = frozenset({"parse_registry", "iter_registry", "parse_passport", "read_structure_fields"})

# Compile schemas and load pyRdfa before timing starts, so that the first example is not the slow one.
for _parse in PARSERS.values():
    _parse(SAMPLES["rosstat meta.csv"])

FUZZ = settings(
    max_examples=40,
    deadline=timedelta(seconds=2),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail instead of hanging: a deadline only judges examples that return."""
    def alarm(signum, frame):
        raise TimeoutError(f"parser still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def assert_well_behaved(name: str, data: bytes) -> None:
    with hang_guard():
        result = PARSERS[name](data)

    assert isinstance(result, ParseResult)
    if name in ENTRY_POINTS:
        assert storable_value(result.value)[1] == 0 and storable_value(result.problems)[1] == 0
        assert max(Counter(found.code for found in result.problems).values(), default=0) <= MAX_PER_CODE
    assert result.value is not None or result.problems, "no value and no problem said why"
    known = catalogue()
    for found in result.problems:
        assert isinstance(found, Problem)
        assert found.code in known, f"unregistered problem code {found.code}"
        assert found.message(RUSSIAN) and found.message()
        # Harvest objects and ckanext-harvest's error mirror store findings as JSON.
        assert from_dict(json.loads(json.dumps(found.as_dict()))) == found


# --- mutations ------------------------------------------------------------------------------------------

_INSERTS = [b'"', b'""', b";", b",", b"\n", b"\r\n", b"\r", b"\t", b"<", b">", b"&", b"&amp", b"]]>", b"{", b"}",
            b"[", b"]", b"\\", b"\x00", b"\xef\xbb\xbf", b"\xd0", b"\xff\xfe", b"<!--", b"&lt;", b"null"]
_ENCODINGS = ["utf-8", "windows-1251", "koi8-r", "utf-16", "utf-16-be", "latin-1"]


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))])
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["flip", "truncate", "insert", "delete", "repeat", "encoding"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del data[at:]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(_INSERTS)) * draw(st.integers(1, 3))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif kind == "repeat":
            data[at:at] = data[at:at + draw(st.integers(1, 256))] * draw(st.integers(2, 8))
        elif kind == "encoding":
            source, target = draw(st.sampled_from(_ENCODINGS)), draw(st.sampled_from(_ENCODINGS))
            data = bytearray(bytes(data).decode(source, errors="replace").encode(target, errors="replace"))
    return bytes(data)


# --- properties -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(data=st.binary(max_size=4096))
def test_random_bytes_never_break_a_parser(name, data):
    assert_well_behaved(name, data)


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(data=mutated())
def test_damaged_real_files_never_break_a_parser(name, data):
    assert_well_behaved(name, data)


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(text=st.text(max_size=512))
def test_random_text_in_utf8_never_breaks_a_parser(name, text):
    assert_well_behaved(name, text.encode("utf-8", errors="surrogatepass"))


@st.composite
def deep_json(draw) -> bytes:
    """JSON nested to a random depth (arrays, objects or both), alone or as a passport's or registry's value."""
    depth = draw(st.integers(1, 3000))
    opening, closing = zip(*(draw(st.sampled_from([("[", "]"), ('{"a":', "}")])) for _ in range(depth)))
    value = "".join(opening) + "1" + "".join(reversed(closing))
    shape = draw(st.sampled_from(['{0}', '{{"identifier": "7712345678-showrooms", "title": {0}}}',
                                  '{{"meta": [{{"identifier": {0}}}]}}', '{{"data": [{{"source": {0}}}]}}']))
    return shape.format(value).encode()


@st.composite
def escaped_json(draw) -> bytes:
    """A real JSON passport or registry with JSON escapes of NUL, controls and lone surrogates in its strings."""
    text = SAMPLES[draw(st.sampled_from(["predgor meta.json", "predgor list.json"]))].decode("utf-8")
    for _ in range(draw(st.integers(1, 5))):
        quotes = [at for at, char in enumerate(text) if char == '"']
        at = draw(st.sampled_from(quotes)) + 1
        text = text[:at] + draw(st.sampled_from(["\\u0000", "\\ud800", "\\udfff", "\\u001f", "\\uffff"])) + text[at:]
    return text.encode("utf-8")


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(data=st.one_of(deep_json(), escaped_json()))
def test_deep_json_and_escapes_of_unstorable_characters_never_break_a_parser(name, data):
    assert_well_behaved(name, data)


HOSTILE = {
    "billion laughs": (
        b'<?xml version="1.0"?><!DOCTYPE meta [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(b'<!ENTITY %c "%s">' % (ord("b") + i, (b"&%c;" % (ord("a") + i)) * 10) for i in range(9))
        + b']><meta><title>&j;</title></meta>'
    ),
    "external entity": (
        b'<?xml version="1.0"?><!DOCTYPE meta [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<meta><title>&x;</title></meta>"
    ),
    "external DTD": b'<?xml version="1.0"?><!DOCTYPE list SYSTEM "http://127.0.0.1:9/x.dtd"><list/>',
    "deep nesting": b"<meta>" + b"<a>" * 50_000 + b"</a>" * 50_000 + b"</meta>",
    "deep JSON": b"[" * 100_000 + b"]" * 100_000,
    "one huge CSV field": b'property,value\r\ntitle,"' + b"x" * 2_000_000 + b'"\r\n',
    "unterminated quote": b'property,value\r\ntitle,"' + b"a,b\r\n" * 10_000,
    "only separators": b";" * 100_000,
    "NUL bytes": b"\x00" * 10_000,
    "JSON value 450 deep": b'{"identifier": "7712345678-showrooms", "title": ' + b"[" * 450 + b"]" * 450 + b"}",
    "unterminated JSON string": b'{"identifier": "7712345678-showrooms", "title": "' + b"a" * 1_000_000,
    "many unknown rows": b"property,value\r\n" + b"".join(b"unknown%d,1\r\n" % n for n in range(20_000)),
    "control characters": bytes(range(32)) * 1000,
}


@pytest.mark.parametrize("name", sorted(PARSERS))
@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_hostile_input_never_breaks_a_parser(name, hostile):
    assert_well_behaved(name, HOSTILE[hostile])


@pytest.mark.parametrize("name", ["passport meta.xml", "registry list.xml", "parse_passport"])
def test_xml_entities_are_never_expanded_or_fetched(name):
    with hang_guard():
        result = PARSERS[name](HOSTILE["external entity"])

    value = result.value
    assert value is None or "root:" not in getattr(value, "title", "")
    assert result.problems


def test_a_stored_finding_is_rebuilt_in_a_process_that_never_read_its_form():
    # A web process showing a report may never have imported the parser that defined the code.
    script = (
        "from ckanext.passport.mr.problems import from_dict\n"
        "found = from_dict({'code': 'schema.json_violation', 'params': {}})\n"
        "print(found.severity.value if found else 'lost')\n"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "warning"


def test_a_stored_finding_of_a_code_no_longer_catalogued_keeps_its_stored_text():
    found = stored_problem({"code": "gone.code", "severity": "warning", "message": "as it was found",
                            "location": {"url": "http://site/meta.csv", "line": 3}})
    assert (found.code, found.severity.value, found.message(), found.location.line) == (
        "gone.code", "warning", "as it was found", 3)
