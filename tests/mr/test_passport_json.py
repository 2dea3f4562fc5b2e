"""MR 3.0 meta.json: schema breaks are problems; loose keys and a missing brace are survived."""
from __future__ import annotations

import datetime as dt
import json
from importlib import resources

import jsonschema
import pytest

from ckanext.passport.mr.passport import meta_json
from ckanext.passport.mr.problems import from_dict
from ckanext.passport.mr.translation import translator

PREDGOR = "predgor/2618017120-politicaldivisions/meta.json"
PREDGOR_URL = "http://opendata.predgor-ray.ru/2618017120-politicaldivisions/meta.json"
BASE = "http://example.com/opendata/7712345678-showrooms"


def version(name: str, **overrides) -> dict:
    item = {
        "source": f"{BASE}/data-{name}-structure-20130401T0000.xml",
        "created": name,
        "provenance": "Обновление",
        "valid": "20130701",
        "structure": "20130401T0000",
    }
    item.update(overrides)
    return {k: v for k, v in item.items() if v is not None}


def example(**overrides) -> dict:
    """The MR 3.0 Appendix 8 meta.json example with its braces restored."""
    document = {
        "standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
        "identifier": "7712345678-showrooms",
        "title": "Список выставочных залов",
        "description": "Список выставочных залов с указанием контактных данных по округам и районам.",
        "creator": "Министерство культуры",
        "created": "20130401",
        "modified": "20130601",
        "subject": "Выставка,зал,выставочный зал,культура",
        "format": "xml",
        "data": [version("20130601T0000"), version("20130501T0000"), version("20130401T0000")],
        "structure": [{"source": f"{BASE}/structure-20130401T0000.xsd", "created": "20130401T0000"}],
        "publisher": {"name": "Иванов Иван Иванович", "phone": "+74951234567", "mbox": "ivanov@example.com"},
    }
    document.update(overrides)
    return document


def encode(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def codes(result) -> list[str]:
    return [p.code for p in result.problems]


def test_schema_is_draft_04_and_requires_what_the_xsd_requires():
    schema = json.loads(resources.files("ckanext.passport.mr").joinpath("schemas/meta-schema.json").read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert schema["required"] == [
        "standardversion", "identifier", "title", "description", "creator", "created", "modified", "subject",
        "format", "data", "structure", "publisher",
    ]
    assert schema["properties"]["data"]["items"]["required"] == ["source", "created", "provenance", "valid",
                                                                 "structure"]
    assert schema["properties"]["publisher"]["required"] == ["name", "phone", "mbox"]


def test_appendix_example_is_valid_and_fully_read():
    result = meta_json.parse(encode(example()))
    passport = result.value
    assert result.problems == []
    assert (result.form, result.encoding) == ("meta.json", "utf-8")
    assert passport.identifier == "7712345678-showrooms"
    assert passport.modified.value == dt.date(2013, 6, 1)
    assert passport.subject == ["Выставка", "зал", "выставочный зал", "культура"]
    assert [v.version for v in passport.data_versions] == ["20130601T0000", "20130501T0000", "20130401T0000"]
    assert passport.structure_versions[0].version == "20130401T0000"
    assert passport.publisher.mbox == "ivanov@example.com"


def test_real_predgor_passport_is_read_as_published(read_real):
    result = meta_json.parse(read_real(PREDGOR), PREDGOR_URL)
    passport = result.value
    assert result.encoding == "utf-8"
    assert passport.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    # The file names another dataset than its folder; judging that is the conformance checker's business.
    assert passport.identifier == "2618017120-subdivisions"
    assert passport.title == "Административно-территориальное деление Предгорного района"
    assert passport.creator == "Администрация Предгорного муниципального района Ставропольского края"
    assert passport.created.value == dt.date(2016, 2, 29)
    assert passport.subject == ["муниципальное образование", "сельсовет", "населённый пункт"]
    assert passport.format == "json"
    assert len(passport.data_versions) == 1
    data = passport.data_versions[0]
    assert data.source == ("http://opendata.predgor-ray.ru/2618017120-politicaldivisions/"
                           "data-20160229T0000-structure-20160229T0000.json")
    assert data.version == "20160229T0000"
    assert data.structure_version == "20160229T0000"
    assert data.created.value == dt.datetime(2016, 2, 29, 0, 0)
    assert data.valid.value == dt.date(2016, 2, 29)
    assert data.provenance == "Первичная публикация"
    assert [s.version for s in passport.structure_versions] == ["20160229T0000"]
    assert (passport.publisher.name, passport.publisher.phone, passport.publisher.mbox) == (
        "Усс Дмитрий Васильевич", "+78796150664", "it-apmr@yandex.ru")


def test_real_predgor_email_key_breaks_the_schema_at_the_publisher(read_real):
    result = meta_json.parse(read_real(PREDGOR), PREDGOR_URL)
    assert codes(result) == ["schema.json_violation"]
    violation = result.problems[0]
    assert violation.location.element == "/publisher"
    assert "the field publisher/mbox is missing" in violation.message()
    assert violation.location.url == PREDGOR_URL


def test_missing_provenance_is_a_schema_problem_at_the_version():
    result = meta_json.parse(encode(example(data=[version("20130601T0000", provenance=None)])))
    assert codes(result) == ["schema.json_violation"]
    assert result.problems[0].location.element == "/data/0"
    assert result.value.data_versions[0].provenance == ""


def test_every_schema_break_is_its_own_problem_at_its_path_naming_its_field_by_the_rule_broken():
    problems = meta_json.schema_problems(example(identifier=7712345678, data=[], publisher={"name": "Иванов"}))

    assert {p.code for p in problems} == {"schema.json_violation"}
    assert [(p.location.element, p.message().partition(": ")[2]) for p in problems] == [
        ("/identifier", "identifier must be text"),
        ("/data", "data must hold at least 1 item"),
        ("/publisher", "the field publisher/phone is missing"),
        ("/publisher", "the field publisher/mbox is missing"),
    ]


@pytest.mark.parametrize("lang, said", [
    ("cs", ["identifier musí být text", "data musí obsahovat alespoň 1 položku", "chybí pole publisher/mbox"]),
    ("ru", ["identifier должно быть текстом", "data должно содержать не менее 1 элемента",
            "отсутствует поле publisher/mbox"]),
])
def test_a_schema_break_is_said_in_the_readers_language_even_read_back(lang, said):
    """jsonschema's English ("'mbox' is a required property") once stood inside Russian findings."""
    problems = meta_json.schema_problems(example(identifier=7712345678, data=[], publisher={"name": "И", "phone": "1"}))
    stored = [from_dict(json.loads(json.dumps(p.as_dict()))) for p in problems]
    assert [p.message(translator(lang)).partition(": ")[2] for p in stored] == said
    assert not any("property" in p.message(translator(lang)) for p in stored)


def test_a_valid_passport_breaks_no_schema_rule():
    assert meta_json.schema_problems(example()) == []


def test_data_versions_are_sorted_newest_first():
    data = [version("20130401T0000"), version("20130601T0000"), version("20130501T0000")]
    result = meta_json.parse(encode(example(data=data)))
    assert [v.version for v in result.value.data_versions] == ["20130601T0000", "20130501T0000", "20130401T0000"]


def test_structure_version_comes_from_the_file_name_when_not_given():
    result = meta_json.parse(encode(example(data=[version("20130601T0000", structure=None)])))
    assert result.value.data_versions[0].structure_version == "20130401T0000"


def test_keys_are_read_loosely():
    document = example()
    document["standard version"] = document.pop("standardversion")
    document["Title"] = document.pop("title")
    result = meta_json.parse(encode(document))
    assert result.value.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    assert result.value.title == "Список выставочных залов"
    assert "schema.json_violation" in codes(result)


def test_wrong_case_standard_url_is_read_as_the_standard_with_a_warning():
    result = meta_json.parse(encode(example(standardversion="http://OpenData.gosmonitor.ru/standard/3.0")))
    assert result.value.standard_version == "http://opendata.gosmonitor.ru/standard/3.0"
    assert codes(result) == ["passport.standard_version_variant"]


DAMAGED = """{
"standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
"identifier": "7712345678-showrooms",
"title": "Список выставочных залов",
"created": "20130401",
"data": [
{
"source": "http://example.com/opendata/7712345678-showrooms/data-20130601T0000-structure-20130401T0000.xml",
"created": "20130601T0000",
"provenance": "Исправлены незначительные ошибки.",
"valid": "20130701",
"structure": "20130401T0000"
},
{
"source": "http://example.com/opendata/7712345678-showrooms/data-20130401T0000-structure-20130401T0000.xml",
"created": "20130401T0000",
"provenance": "Первичная публикация.",
"valid": "20130501",
"structure": "20130401T0000"
],
"structure": [
{
"source": "http://example.com/opendata/7712345678-showrooms/structure-20130401T0000.xsd",
"created": "20130401T0000"
}
],
"publisher": {
"name": "Иванов Иван Иванович",
"phone": "+74951234567",
"mbox": "ivanov@example.com"
}
}"""


def test_damaged_json_like_the_appendix_example_is_salvaged():
    result = meta_json.parse(DAMAGED.encode("utf-8"))
    passport = result.value
    assert codes(result) == ["passport.json_damaged"]
    assert result.problems[0].location.line == 20
    assert passport.identifier == "7712345678-showrooms"
    assert [v.version for v in passport.data_versions] == ["20130601T0000", "20130401T0000"]
    assert passport.data_versions[1].provenance == "Первичная публикация."
    assert [s.source.rsplit("/", 1)[1] for s in passport.structure_versions] == ["structure-20130401T0000.xsd"]
    assert passport.publisher.name == "Иванов Иван Иванович"


def test_json_that_is_not_an_object_is_not_a_passport():
    result = meta_json.parse(b"[1, 2]")
    assert result.value is None
    assert codes(result) == ["passport.json_not_object"]


def test_text_that_is_no_json_at_all_gives_no_value():
    result = meta_json.parse(b"<html>Access denied</html>")
    assert result.value is None
    assert codes(result) == ["passport.json_damaged"]
