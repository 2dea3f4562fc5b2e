"""Each chart of the Conformance tab and the scoreboard has a text equivalent (WCAG 1.1.1): the drawing is hidden
from assistive technology, and its numbers follow it as a list named by the chart's title."""
from __future__ import annotations

from bs4 import BeautifulSoup

from ckanext.passport.conformance import charts


def _read(markup: str) -> BeautifulSoup:
    return BeautifulSoup(markup, "html.parser")


def test_the_score_histogram_lists_each_bucket_s_count_under_its_title():
    page = _read(charts.distribution_svg([100, 95, 42, None], "Passports of ČSÚ by score", "not read"))

    assert page.svg["aria-hidden"] == "true" and not page.svg.get("role")
    numbers = page.select_one(".passport-chart-numbers.visually-hidden")
    assert numbers.p.get_text() == "Passports of ČSÚ by score"
    items = [item.get_text() for item in numbers.select("li")]
    assert "40–49: 1" in items and "90–99: 1" in items and "100: 1" in items and "not read: 1" in items


def test_the_history_lists_each_job_s_mean_score_with_its_time():
    jobs = [{"job_id": "a", "finished": "2026-11-02T10:00:00", "mean_score": 61},
            {"job_id": "b", "finished": "2026-11-09T10:30:00", "mean_score": 78}]
    page = _read(charts.history_svg(jobs, "Mean score of each harvest job", "mean score"))

    assert page.svg["aria-hidden"] == "true"
    assert [item.get_text() for item in page.select(".passport-chart-numbers li")] == [
        "2026-11-02 10:00: mean score 61", "2026-11-09 10:30: mean score 78"]


def test_a_sparkline_reads_as_its_means_in_order():
    page = _read(charts.sparkline_svg([55, None, 60.5, 72], "Mean score of the last 4 jobs"))

    assert page.svg["aria-hidden"] == "true"
    assert page.select_one(".visually-hidden").get_text() == "Mean score of the last 4 jobs: 55, 60.5, 72"
