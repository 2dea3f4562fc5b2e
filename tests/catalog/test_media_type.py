"""The one media-type grammar (catalog.record.media_type), used by the record's validator and the LKOD's IANA IRIs."""
from __future__ import annotations

import pytest

from ckanext.passport.catalog.record.media_type import split_media_type
from ckanext.passport.lkod import iris


def test_a_media_type_splits_into_type_and_subtype_as_written_parameters_dropped() -> None:
    assert split_media_type(" Text/CSV; charset=utf-8") == ("Text", "CSV")


@pytest.mark.parametrize("value", ["text", "text/", "/csv", "text/csv/x", "-text/csv", "text/c sv", "text/" + "a" * 128,
                                   "", None])
def test_text_outside_the_grammar_is_no_media_type(value: object) -> None:
    assert split_media_type(value) is None


def test_the_lkod_reads_an_iana_iri_only_when_all_of_it_is_one_media_type() -> None:
    assert iris.media_type(iris.media_type_iri("text/csv; charset=utf-8")) == "text/csv"
    assert iris.media_type(iris.IANA_MEDIA_TYPES + "text/csv;charset=utf-8") is None
