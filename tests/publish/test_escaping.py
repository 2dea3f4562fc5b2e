"""Harvested text holding HTML or script comes out as text: escaped in pages, data in every export."""
from __future__ import annotations

import csv
import io
import json

import pytest
from lxml import etree
from tests.support.publish_shapes import PUBLISH_CONFIG

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index"), *PUBLISH_CONFIG]

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quoted"'
ESCAPED = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#34;quoted&#34;"


@pytest.fixture
def hostile(publish):
    return publish("harvested", title=HOSTILE, notes=HOSTILE, maintainer=HOSTILE, publisher_name=HOSTILE,
                   mr_provenance=HOSTILE)


@pytest.mark.usefixtures("hostile")
@pytest.mark.parametrize("path", ["/dataset/7712345678-showrooms", "/opendata/7712345678-showrooms", "/opendata/"])
def test_pages_show_hostile_text_escaped(web, path):
    page = web.get(path).data.decode("utf-8")
    assert "<script>alert(" not in page
    assert "onerror=alert(1)>" not in page
    assert ESCAPED in page


@pytest.mark.usefixtures("hostile")
def test_meta_xml_carries_hostile_text_as_text(web):
    root = etree.fromstring(web.get("/opendata/7712345678-showrooms/meta.xml").data)
    assert root.find("script") is None
    assert [root.findtext(tag) for tag in ("title", "description", "creator")] == [HOSTILE] * 3
    assert root.findtext("publisher/name") == HOSTILE


@pytest.mark.usefixtures("hostile")
def test_meta_json_carries_hostile_text_as_strings(web):
    document = json.loads(web.get("/opendata/7712345678-showrooms/meta.json").data)
    assert [document[key] for key in ("title", "description", "creator")] == [HOSTILE] * 3
    assert document["publisher"]["name"] == HOSTILE


@pytest.mark.usefixtures("hostile")
def test_meta_csv_carries_hostile_text_as_data(web):
    rows = dict(csv.reader(io.StringIO(web.get("/opendata/7712345678-showrooms/meta.csv").data.decode("utf-8"),
                                       newline="")))
    assert [rows[key] for key in ("title", "description", "creator", "provenance", "publishername")] == [HOSTILE] * 5


@pytest.mark.usefixtures("hostile")
def test_registries_carry_hostile_titles_as_data(web):
    rows = list(csv.reader(io.StringIO(web.get("/opendata/list.csv").data.decode("utf-8"), newline="")))
    assert rows[2][1] == HOSTILE
    assert etree.fromstring(web.get("/opendata/list.xml").data).findtext("meta/item/title") == HOSTILE
    assert json.loads(web.get("/opendata/list.json").data)["meta"][0]["title"] == HOSTILE
