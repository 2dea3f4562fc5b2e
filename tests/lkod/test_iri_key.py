"""One dataset IRI, however a catalog spells it, has one key (lkod/iris.py ``iri_key``): the harvester's identity
of a listed dataset."""
from __future__ import annotations

import pytest

from ckanext.passport.lkod.iris import iri_key

KEY = "https://data.kraj.example/lkod/datov%C3%A9%20sady/j%C3%ADzdn%C3%AD-%C5%99%C3%A1dy.jsonld"


@pytest.mark.parametrize("spelling", [
    "https://data.kraj.example/lkod/datové%20sady/jízdní-řády.jsonld",
    "https://data.kraj.example/lkod/datové sady/jízdní-řády.jsonld",
    KEY,
    "https://data.kraj.example/lkod/datov%c3%a9%20sady/j%C3%ADzdní-%c5%99ády.jsonld",
    "HTTPS://Data.Kraj.example/lkod/datové%20sady/jízdní-řády.json%6Cd",
])
def test_raw_encoded_and_mixed_spellings_of_one_iri_share_its_key(spelling):
    assert iri_key(spelling) == KEY


def test_escaped_reserved_characters_stay_escaped_as_they_mean_something_else_decoded():
    assert iri_key("https://x.example/a%2fb?q=%26") == "https://x.example/a%2Fb?q=%26"
    assert iri_key("https://x.example/a%2Fb") != iri_key("https://x.example/a/b")


def test_the_path_keeps_its_case_as_only_scheme_and_host_are_case_blind():
    assert iri_key("https://x.example/Sady") != iri_key("https://x.example/sady")
