"""meta-schema.json checked in plain Python gives exactly jsonschema's errors (paths, messages, order)."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ckanext.passport.mr.passport.meta_json import json_schema_validator, meta_schema, schema_problems
from ckanext.passport.mr.schemacheck import compile_schema

VALID = {
    "standardversion": "http://opendata.gosmonitor.ru/standard/3.0",
    "identifier": "7710349494-mfclist", "title": "МФЦ", "description": "Список МФЦ", "creator": "Минэкономразвития",
    "created": "20130601", "modified": "20130601", "subject": "МФЦ", "format": "csv",
    "data": [{"source": "http://x/data-1-structure-1.csv", "created": "20130601", "provenance": "Первая",
              "valid": "20131231", "structure": "1"}],
    "structure": [{"source": "http://x/structure-1.csv", "created": "20130601"}],
    "publisher": {"name": "Иванов", "phone": "+74951234567", "mbox": "ivanov@example.com"},
}


def jsonschema_errors(document):
    return [(tuple(error.absolute_path), error.message) for error in json_schema_validator().iter_errors(document)]


def ours(document):
    return compile_schema(meta_schema())(document)


def broken(**changes):
    document = copy.deepcopy(VALID)
    for key, value in changes.items():
        if value is None:
            del document[key]
        else:
            document[key] = value
    return document


def test_meta_schema_is_within_the_plain_python_keywords():
    assert compile_schema(meta_schema()) is not None


def test_a_valid_passport_has_no_errors_either_way():
    assert ours(VALID) == jsonschema_errors(VALID) == []


@pytest.mark.parametrize("document", [
    broken(identifier=None),
    broken(identifier=7710349494),
    broken(data=[]),
    broken(data={"source": "x"}),
    broken(data=[{"source": 1}, "text", {"created": None}]),
    broken(structure=[{}]),
    broken(publisher={"name": "Иванов", "phone": "+7", "email": "a@b"}),
    broken(publisher=["Иванов"]),
    broken(title=None, format=None, subject=["a", "b"]),
    {},
    [],
    "meta",
])
def test_invalid_documents_give_jsonschemas_errors_in_its_order(document):
    assert ours(document) == jsonschema_errors(document)
    assert ours(document)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.dictionaries(st.sampled_from(sorted(VALID) + ["extra"]), json_values | st.none(), max_size=4))
def test_random_damage_gives_the_same_errors(changes):
    document = broken(**{key: value for key, value in changes.items() if key in VALID or value is not None})

    assert ours(document) == jsonschema_errors(document)


def test_keywords_beyond_the_subset_leave_validation_to_jsonschema():
    assert compile_schema({"type": "object", "additionalProperties": False}) is None
    assert compile_schema({"properties": {"a": {"pattern": "^x"}}}) is None
    assert compile_schema({"items": [{"type": "string"}]}) is None


def test_problems_name_the_path_and_jsonschemas_message():
    problems = schema_problems(json.loads(json.dumps(broken(publisher={"name": "Иванов", "phone": "+7"}))))

    assert [(p.code, p.location.element, p.message_en) for p in problems] == [
        ("schema.json_violation", "/publisher",
         "meta.json does not match meta-schema.json: 'mbox' is a required property"),
    ]
