"""The page a report's selection picks from the stream of a job's entries (conformance.harvest.report.Page): pure,
no stack. It must be the slice of the whole list, filtered and ordered, while holding no more than the page."""
from __future__ import annotations

import itertools
import random

import pytest

from ckanext.passport.conformance.harvest.report import SORTS, Counted, Page, Selection

ERROR, WARNING = ("mr.missing_title", "error"), ("mr.date_format", "warning")


def entries(count: int) -> list[Counted]:
    picked = random.Random(27)
    return [Counted(object_id=f"o{n}", identifier=f"id-{picked.randrange(50):02d}",
                    score=picked.choice([None, *range(0, 101, 10)]), refused=False,
                    findings=tuple(picked.sample([ERROR, WARNING], picked.randrange(3))))
            for n in range(count)]


def sliced(whole: list[Counted], selection: Selection) -> list[str]:
    """The selection done the plain way: filter, sort the whole list, slice."""
    picked = [e for e in whole if not (selection.code or selection.severity)
              or any(selection.wants(*found) for found in e.findings)]
    if selection.sort:
        key = {"score": lambda e: (e.score is not None, e.score or 0, e.identifier),
               "-score": lambda e: (e.score is None, -(e.score or 0), e.identifier),
               "identifier": lambda e: (e.identifier,)}[selection.sort]
        picked = sorted(picked, key=key)
    end = None if selection.limit is None else selection.offset + selection.limit
    return [e.object_id for e in picked[selection.offset:end]]


@pytest.mark.parametrize("sort, severity, window", itertools.product(
    ("", *SORTS), ("", "warning"), ((0, 10), (25, 10), (0, None), (995, 10))))
def test_a_page_is_the_slice_of_the_filtered_and_ordered_whole(sort, severity, window):
    whole = entries(1000)
    selection = Selection(severity=severity, sort=sort, offset=window[0], limit=window[1])
    page = Page(selection)
    for entry in whole:
        page.add(entry)
    assert page.object_ids() == sliced(whole, selection)
    assert page.count == len(sliced(whole, Selection(severity=severity)))


@pytest.mark.parametrize("sort", ("", *SORTS))
def test_a_page_holds_no_more_than_twice_its_end_however_long_the_stream(sort):
    page = Page(Selection(sort=sort, offset=10, limit=10))
    held = 0
    for entry in entries(5000):
        page.add(entry)
        held = max(held, len(page.kept))
    assert held <= 2 * 20 + 1
