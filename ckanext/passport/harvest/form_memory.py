"""Which passport locations a fetch tries, and in what order, given where the last read found the passport.

A registry link offers several places a passport may be (``mr.passport.passport_locations``: a folder's
``meta.json``, ``meta.xml``, ``meta.csv``, then its RDFa page). Trying them all in the source's preference order on
every harvest costs a publisher who uses only the RDFa page three requests answered 404 per passport per job,
more than the one conditional request an unchanged passport needs. So the place the last read found it is tried
first, and the whole order only when a probe is due: the link's places changed (the remembered one is not among
them), none was ever probed, or the last probe is older than ``ckanext.passport.harvest_form_probe_hours``. A
form the publisher adds later (a ``meta.json`` beside the page) is so found by the next probe: within that
interval, at once when the registry's link changes.

The time of the last probe is the extra ``forms_probed`` (``stored.FORMS_PROBED``) of the record's current
object.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Mapping, Optional, Sequence

from ckanext.passport.harvest import stored

Location = tuple[Any, str]  # (the form expected there, its URL)


def probed_at(previous: Mapping[str, str]) -> Optional[dt.datetime]:
    """When the locations were last tried in full, from the current object's extras; ``None`` if never (or
    unreadable)."""
    try:
        return dt.datetime.fromisoformat(previous.get(stored.FORMS_PROBED) or "")
    except ValueError:
        return None


def probe_due(previous: Mapping[str, str], urls: Sequence[str], now: dt.datetime, interval: dt.timedelta) -> bool:
    """Whether every location must be tried in preference order: no place remembered among ``urls``, or no probe
    within ``interval`` of ``now``."""
    last = probed_at(previous)
    return previous.get(stored.PASSPORT_URL) not in urls or last is None or now - last >= interval


def ordered(locations: Sequence[Location], previous: Mapping[str, str], now: dt.datetime,
            interval: dt.timedelta) -> tuple[list[Location], bool]:
    """``(locations to try, probing)``: ``locations`` (``(form, url)`` pairs in preference order) as they are when
    a probe is due (``probing`` true), else with the remembered place first."""
    if probe_due(previous, [url for _, url in locations], now, interval):
        return list(locations), True
    remembered = previous[stored.PASSPORT_URL]
    first = [loc for loc in locations if loc[1] == remembered][:1]
    return first + [loc for loc in locations if loc not in first], False
