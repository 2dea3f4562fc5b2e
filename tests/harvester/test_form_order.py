"""The order a fetch tries a passport's places in (harvest.form_memory): pure, no stack."""
from __future__ import annotations

import datetime as dt

from ckanext.passport.harvest import stored
from ckanext.passport.harvest.form_memory import ordered

NOW = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.timezone.utc)
DAY = dt.timedelta(hours=24)
FOLDER = "http://site/opendata/1/"
PLACES = [("meta.json", FOLDER + "meta.json"), ("meta.xml", FOLDER + "meta.xml"), ("meta.csv", FOLDER + "meta.csv"),
          ("rdfa", FOLDER)]


def _read_at(url: str, probed: dt.datetime) -> dict[str, str]:
    return {stored.PASSPORT_URL: url, stored.FORMS_PROBED: probed.isoformat()}


def test_the_place_last_read_comes_first_within_the_interval():
    assert ordered(PLACES, _read_at(FOLDER, NOW - dt.timedelta(hours=23)), NOW, DAY) == (
        [PLACES[3], *PLACES[:3]], False)


def test_every_place_in_preference_order_once_the_interval_has_passed():
    assert ordered(PLACES, _read_at(FOLDER, NOW - DAY), NOW, DAY) == (PLACES, True)


def test_every_place_in_preference_order_when_nothing_was_read_before():
    assert ordered(PLACES, {}, NOW, DAY) == (PLACES, True)


def test_every_place_in_preference_order_when_the_link_no_longer_offers_the_place_last_read():
    assert ordered(PLACES, _read_at("http://site/opendata/1.csv", NOW), NOW, DAY) == (PLACES, True)


def test_every_place_in_preference_order_when_the_probe_time_is_unreadable():
    previous = {stored.PASSPORT_URL: FOLDER, stored.FORMS_PROBED: "yesterday"}
    assert ordered(PLACES, previous, NOW, DAY) == (PLACES, True)


def test_an_interval_of_zero_probes_every_time():
    assert ordered(PLACES, _read_at(FOLDER, NOW), NOW, dt.timedelta(0)) == (PLACES, True)
