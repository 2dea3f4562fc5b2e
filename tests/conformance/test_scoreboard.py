"""The scoreboard's actions over jobs' summaries written directly (the arithmetic, not the harvest: a real harvest's
row is in test_job_summary.py).

Rosstat publishes through two public sources, a town hall (no INN) through one, a district whose last job could
not read its registry through one, and a ministry through a private source.
"""
from __future__ import annotations

from typing import Any

import pytest
from ckan.plugins import toolkit
from ckan.tests import factories
from tests.support.scoreboard_rows import add_source, add_summary

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once")]

ROSSTAT = "7708234640"
CODES = {f"check.code_{n}": n for n in range(1, 8)}


@pytest.fixture(scope="module")
def board(stack_once) -> dict[str, Any]:
    town = factories.Organization(title="Town hall")
    statistics = add_source("rosstat-statistics", title="Statistics")
    registers = add_source("rosstat-registers", title="Registers")
    add_summary(statistics, ROSSTAT, 40, 50.0, name="Rosstat")
    add_summary(statistics, ROSSTAT, 10, 60.0, name="Rosstat")
    add_summary(statistics, ROSSTAT, 1, 70.0, listed=10, conformant=4, name="Rosstat", codes=CODES)
    add_summary(registers, ROSSTAT, 2, 90.0, listed=30, conformant=20, name="Rosstat", codes={"check.code_1": 10})
    town_source = add_source("town-hall", owner_org=town["id"])
    add_summary(town_source, f"org:{town['id']}", 1, 40.0, listed=5, conformant=1, name="Town hall")
    broken = add_source("broken-district")
    add_summary(broken, "org:broken", 20, 30.0, listed=8, name="Broken district")
    add_summary(broken, "org:broken", 0.5, None, listed=0, name="Broken district", status="failed",
                failure_code="registry.not_discovered", codes={"registry.not_discovered": 1})
    secret = add_source("secret-ministry", private=True)
    add_summary(secret, "7703092752", 3, 99.0, listed=3, name="Secret ministry")
    return {"sysadmin": factories.Sysadmin(), "town": town}


def _board(user: Any = None, **params: Any) -> dict[str, Any]:
    context = {"user": user["name"] if user else "", "ignore_auth": False}
    return toolkit.get_action("passport_scoreboard")(context, params)


def _names(result: dict[str, Any]) -> list[str]:
    return [row["name"] for row in result["rows"]]


def _row(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(row for row in result["rows"] if row["name"] == name)


def test_a_publisher_sums_the_last_finished_job_of_each_of_its_sources(board):
    rosstat = _row(_board(), "Rosstat")
    assert rosstat["publisher"] == ROSSTAT
    assert [source["name"] for source in rosstat["sources"]] == ["rosstat-registers", "rosstat-statistics"]
    assert (rosstat["listed"], rosstat["read"], rosstat["conformant"]) == (40, 40, 24)
    # The mean over the publisher's 40 passports read: (10 × 70 + 30 × 90) / 40.
    assert rosstat["mean_score"] == 85.0
    assert rosstat["last_status"] == "finished" and rosstat["failure_code"] is None


def test_a_publisher_without_inn_is_keyed_by_its_organization(board):
    town = _row(_board(), "Town hall")
    assert town["publisher"] == f"org:{board['town']['id']}" and town["mean_score"] == 40.0


def test_the_most_frequent_codes_are_the_top_five_with_counts(board):
    codes = _row(_board(), "Rosstat")["codes"]
    assert codes == [{"code": "check.code_1", "count": 11}, {"code": "check.code_7", "count": 7},
                     {"code": "check.code_6", "count": 6}, {"code": "check.code_5", "count": 5},
                     {"code": "check.code_4", "count": 4}]


def test_the_change_is_the_mean_now_less_the_mean_of_the_jobs_finished_a_period_before(board):
    # A month ago only the statistics source had finished a job (50); a week ago its job scored 60.
    assert _row(_board(), "Rosstat")["change"] == 35.0
    assert _row(_board(period="week"), "Rosstat")["change"] == 25.0
    assert _row(_board(period="month"), "Town hall")["change"] is None


def test_a_publisher_whose_last_job_failed_shows_its_status_and_code(board):
    broken = _row(_board(), "Broken district")
    assert (broken["last_status"], broken["failure_code"]) == ("failed", "registry.not_discovered")
    assert (broken["listed"], broken["mean_score"], broken["change"]) == (0, None, None)


def test_rows_sort_by_score_change_passports_or_name_and_a_minus_reverses(board):
    assert _names(_board()) == ["Rosstat", "Town hall", "Broken district"]
    assert _names(_board(sort="-score")) == ["Town hall", "Rosstat", "Broken district"]
    assert _names(_board(sort="change")) == ["Rosstat", "Broken district", "Town hall"]
    assert _names(_board(sort="passports")) == ["Rosstat", "Town hall", "Broken district"]
    assert _names(_board(sort="name")) == ["Broken district", "Rosstat", "Town hall"]
    assert _names(_board(sort="-name")) == ["Town hall", "Rosstat", "Broken district"]


def test_q_finds_publishers_by_any_case_part_of_their_name(board):
    result = _board(q="ROSS")
    assert (result["count"], _names(result)) == (1, ["Rosstat"])
    assert _board(q="100%")["count"] == 0


def test_limit_and_offset_page_the_rows_and_count_them_all(board):
    result = _board(limit=1, offset=1)
    assert (result["count"], _names(result), result["period"]) == (3, ["Town hall"], "month")
    assert _board(offset=10) == {"count": 3, "period": "month", "rows": []}


def test_private_sources_are_hidden_from_visitors_and_shown_to_sysadmins(board):
    assert "Secret ministry" not in _names(_board())
    assert "Secret ministry" not in _names(_board(factories.User()))
    as_sysadmin = _board(board["sysadmin"])
    assert _names(as_sysadmin)[0] == "Secret ministry" and as_sysadmin["count"] == 4


@pytest.mark.parametrize("params, field, message", [
    ({"period": "year"}, "period", "Must be one of: week, month"),
    ({"sort": "size"}, "sort", "Must be one of: score, change, passports, name (- reverses)"),
    ({"limit": "many"}, "limit", "Invalid integer"),
    ({"limit": 0}, "limit", "Must be at least 1"),
    ({"limit": 501}, "limit", "Must be at most 500"),
    ({"offset": -1}, "offset", "Must be at least 0"),
    # 20 digits overflowed PostgreSQL's bigint: a 500 (issue 37)
    ({"offset": "9" * 20}, "offset", "Must be at most 1000000"),
])
def test_a_bad_parameter_is_a_validation_error_naming_it(board, params, field, message):
    with pytest.raises(toolkit.ValidationError) as refused:
        _board(**params)
    assert refused.value.error_dict == {field: [message]}


def test_a_publishers_history_is_its_jobs_oldest_first(board):
    history = toolkit.get_action("passport_scoreboard_history")({"user": ""}, {"publisher": ROSSTAT})
    assert [job["mean_score"] for job in history["jobs"]] == [50.0, 60.0, 90.0, 70.0]
    last_two = toolkit.get_action("passport_scoreboard_history")({"user": ""}, {"publisher": ROSSTAT, "limit": 2})
    assert [job["mean_score"] for job in last_two["jobs"]] == [90.0, 70.0]
    assert set(last_two["jobs"][0]) >= {"job_id", "source_id", "finished", "listed", "read", "conformant"}


def test_the_portals_history_is_its_mean_per_day_of_public_sources(board):
    days = toolkit.get_action("passport_scoreboard_history")({"user": ""}, {})["days"]
    assert [day["day"] for day in days] == sorted(day["day"] for day in days)
    assert 99.0 not in [day["mean_score"] for day in days]
    assert sum(day["jobs"] for day in days) == 7
    private = toolkit.get_action("passport_scoreboard_history")({"user": ""}, {"publisher": "7703092752"})
    assert private["jobs"] == []
