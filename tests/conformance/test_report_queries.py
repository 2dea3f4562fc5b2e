"""The report's statements (conformance/harvest/queries.py) read a stored MR object by the layout harvest/stored.py
writes: every key they take out of an object's content, or out of its conformance part, is one MrContent writes
there, so a key renamed in stored.py cannot leave the Conformance tab reading a key no object has."""
from __future__ import annotations

import json
import re

from ckanext.passport.conformance.harvest import queries
from ckanext.passport.harvest import stored

# json_to_record(...) AS alias(key type, key type): the content's keys a statement takes apart.
TAKEN_APART = re.compile(r"json_to_record\([^)]*\)\s*AS\s+\w+\(([^)]*)\)")
# alias.conformance->'key' or ->>'key': a key read out of the conformance part.
CONFORMANCE_KEY = re.compile(rf"\w+\.{stored.CONFORMANCE}\s*->>?\s*'(\w+)'")


def written() -> dict:
    """An MR object's content once its passport was read, as the fetch stage stores it."""
    content = stored.MrContent(entry={"identifier": "7707083893-budget"}, registry_url="https://example.ru/opendata/",
                               passport={"title": "Budget"}, form="csv", problems=[], score=90)
    return json.loads(content.to_json())


def test_every_content_key_the_statements_take_apart_is_one_stored_py_writes():
    statements = str(queries.COUNTED)
    taken = {column.split()[0] for columns in TAKEN_APART.findall(statements) for column in columns.split(",")}
    taken |= {column.name for column in queries.stored_parts().c}
    assert taken and taken <= set(written())


def test_every_conformance_key_the_statements_read_is_one_stored_py_writes():
    read = set(CONFORMANCE_KEY.findall(str(queries.COUNTED)))
    assert read and read <= set(written()[stored.CONFORMANCE])
