"""Field readings shared by every form: link segments and the newest-version rule."""
from __future__ import annotations

from ckanext.passport.mr.dates import parse_date
from ckanext.passport.mr.fields import described_by_newest, last_segment
from ckanext.passport.mr.model import DataVersion, Passport


def test_a_bare_host_has_no_last_segment():
    assert last_segment("https://opendata.example.ru/") == ""
    assert last_segment("https://opendata.example.ru//") == ""


def test_last_segment_is_percent_decoded_without_query_or_fragment():
    assert last_segment("https://x.ru/a/data%20new.csv?v=1#top") == "data new.csv"


def newest_and_older(**newest) -> Passport:
    return Passport(data_versions=[DataVersion(version="2", **newest), DataVersion(version="1")])


def test_the_passport_takes_provenance_and_validity_from_its_newest_version():
    passport = described_by_newest(newest_and_older(provenance="Обновление", valid=parse_date("20301231")))

    assert (passport.provenance, passport.valid.text) == ("Обновление", "20301231")


def test_the_newest_version_takes_provenance_and_validity_from_the_passport_and_older_ones_do_not():
    stated = newest_and_older()
    stated.provenance, stated.valid = "Первичная публикация", parse_date("20301231")

    newest, older = described_by_newest(stated).data_versions

    assert (newest.provenance, newest.valid.text) == ("Первичная публикация", "20301231")
    assert (older.provenance, older.valid) == ("", None)


def test_what_each_states_wins_and_the_callers_passport_is_left_as_stated():
    stated = newest_and_older(provenance="Версия")
    stated.provenance = "Паспорт"

    described = described_by_newest(stated)

    assert (described.provenance, described.data_versions[0].provenance) == ("Паспорт", "Версия")
    assert stated.valid is None and stated.data_versions[0].valid is None
    assert described is not stated


def test_a_passport_without_data_versions_is_returned_as_it_is():
    stated = Passport(provenance="Паспорт")
    assert described_by_newest(stated) is stated
