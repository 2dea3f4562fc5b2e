"""Decoding published bytes: UTF-8, Windows-1251, files mixing both, BOMs, overrides and mojibake."""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.publisher_bytes import mojibake

from ckanext.passport.mr.decode import Decoded, decode_bytes, repair_mojibake


def codes(decoded: Decoded) -> list[str]:
    return [p.code for p in decoded.problems]


# --- real publications ---------------------------------------------------------------------------------

def test_rosstat_meta_csv_mixes_windows_1251_with_a_utf8_phone_line(read_real):
    decoded = decode_bytes(read_real("rosstat-okved2/meta.csv"))

    lines = decoded.text.split("\n")
    assert decoded.encoding == "mixed"
    assert lines[3] == 'title,"Общероссийский классификатор видов экономической деятельности (ОКВЭД2)"'
    assert lines[13] == 'publisherphone,"+7 (495) 568-00-42 доб. 99732"'
    assert codes(decoded) == ["decode.mixed_encoding"]
    assert decoded.problems[0].location.line == 14


def test_meteorf_passport_is_read_as_windows_1251(read_real):
    decoded = decode_bytes(read_real("meteorf-terorg/meta.csv"), url="https://example.org/meta.csv")

    assert decoded.encoding == "windows-1251"
    assert decoded.text.startswith("№;Характеристика;Значение\n")
    assert "2;Наименование набора данных;Перечень территориальных органов Росгидромета" in decoded.text
    assert codes(decoded) == ["decode.windows_1251"]
    assert decoded.problems[0].location.url == "https://example.org/meta.csv"


def test_rosstat_structure_file_is_plain_utf8(read_real):
    decoded = decode_bytes(read_real("rosstat-okved2/structure-20180402T1704.csv"))

    assert decoded.encoding == "utf-8"
    assert "Раздел общероссийского классификатора" in decoded.text
    assert decoded.problems == []


# --- BOMs and overrides ----------------------------------------------------------------------------------

def test_utf8_bom_is_dropped():
    decoded = decode_bytes(codecs.BOM_UTF8 + "property,value\n".encode())

    assert decoded.text == "property,value\n"
    assert decoded.encoding == "utf-8"
    assert decoded.problems == []


@pytest.mark.parametrize("codec, name", [("utf-16-le", "utf-16-le"), ("utf-16-be", "utf-16-be")])
def test_utf16_with_bom_is_read_and_reported(codec, name):
    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else codecs.BOM_UTF16_BE
    decoded = decode_bytes(bom + "title,Список\n".encode(codec))

    assert decoded.text == "title,Список\n"
    assert decoded.encoding == name
    assert codes(decoded) == ["decode.utf16"]


def test_override_forces_the_configured_encoding():
    decoded = decode_bytes("Перечень".encode("koi8-r"), override="koi8-r")

    assert decoded.text == "Перечень"
    assert decoded.encoding == "koi8-r"
    assert decoded.problems == []


def test_unknown_override_falls_back_to_detection():
    decoded = decode_bytes("Перечень".encode("cp1251"), override="no-such-codec")

    assert decoded.text == "Перечень"
    assert decoded.encoding == "windows-1251"
    assert codes(decoded) == ["decode.unknown_encoding", "decode.windows_1251"]


def test_override_that_does_not_fit_replaces_bad_bytes():
    decoded = decode_bytes("Перечень".encode("cp1251"), override="utf-8")

    assert "\ufffd" in decoded.text
    assert codes(decoded) == ["decode.undecodable_bytes"]


def test_nul_bytes_are_reported_as_binary_content():
    decoded = decode_bytes(b"PK\x03\x04\x00\x00binary")

    assert "decode.binary_content" in codes(decoded)


# --- per-line fallback -----------------------------------------------------------------------------------

def test_windows_1251_file_without_utf8_lines_is_windows_1251():
    data = "identifier,7703092752-terorg\r\ntitle,Перечень\r\n".encode("cp1251")
    decoded = decode_bytes(data)

    assert decoded.text == "identifier,7703092752-terorg\r\ntitle,Перечень\r\n"
    assert decoded.encoding == "windows-1251"


def test_mostly_utf8_file_reports_its_first_windows_1251_line():
    data = "a,Один\nb,Два\n".encode("utf-8") + "c,Три\n".encode("cp1251") + "d,Четыре\n".encode("utf-8")
    decoded = decode_bytes(data)

    assert decoded.text == "a,Один\nb,Два\nc,Три\nd,Четыре\n"
    assert decoded.encoding == "mixed"
    assert decoded.problems[0].location.line == 3


def test_utf8_fragment_inside_a_windows_1251_line_is_repaired():
    data = "Телефон: +7 495 ".encode("cp1251") + "доб. 5".encode("utf-8")
    decoded = decode_bytes(data)

    assert decoded.text == "Телефон: +7 495 доб. 5"
    assert codes(decoded) == ["decode.windows_1251", "decode.mojibake_repaired"]


# --- mojibake --------------------------------------------------------------------------------------------

def test_mojibake_title_is_repaired():
    decoded = decode_bytes('title,"РЎРїРёСЃРѕРє РІС‹СЃС‚Р°РІРѕС‡РЅС‹С… Р·Р°Р»РѕРІ"\n'.encode("utf-8"))

    assert decoded.text == 'title,"Список выставочных залов"\n'
    assert decoded.encoding == "utf-8"
    assert codes(decoded) == ["decode.mojibake_repaired"]
    assert decoded.problems[0].location.line == 1


def test_mojibake_with_the_undefined_0x98_byte_is_repaired():
    assert repair_mojibake(mojibake("Иванов Иван"))[0] == "Иванов Иван"


def test_one_letter_words_and_punctuation_are_repaired_beside_a_strong_run():
    text = mojibake("Список и «залы» — №5")

    assert repair_mojibake(text) == ("Список и «залы» — №5", [1])


def test_only_the_lines_with_mojibake_are_repaired():
    text = "title,Список\n" + "description," + mojibake("Описание") + "\n"

    assert repair_mojibake(text) == ("title,Список\ndescription,Описание\n", [2])


@pytest.mark.parametrize("ordinary", [
    "Сёмга и Рёва",
    "ЁЛКА, ЕЁ и ВЁЛ",
    "Список МФЦ «Тест» — №5",
    "Р\u00a0Ф",
    "СЂ",
    "Общероссийский классификатор видов экономической деятельности (ОКВЭД2)",
])
def test_ordinary_russian_text_is_left_alone(ordinary):
    assert repair_mojibake(ordinary) == (ordinary, [])


RUSSIAN = st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ ,.;«»—–№-0123456789")


@given(RUSSIAN)
@settings(max_examples=300)
def test_no_ordinary_russian_text_is_ever_changed(text):
    assert repair_mojibake(text) == (text, [])


@given(st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", min_size=2))
@settings(max_examples=300)
def test_any_russian_word_survives_a_round_trip_through_mojibake(word):
    assert repair_mojibake(mojibake(word))[0] == word


@given(st.binary(max_size=300), st.sampled_from([None, "utf-8", "windows-1251", "bogus"]))
@settings(max_examples=200)
def test_decoding_never_raises(data, override):
    decoded = decode_bytes(data, override=override)

    assert isinstance(decoded.text, str)
    assert decoded.encoding
