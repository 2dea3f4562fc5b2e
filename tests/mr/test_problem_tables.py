"""The problem codes are rows of one table a room (``problems.toml``), and the catalogue names the rooms: a code
is known in every process, and a table that would break a rendered finding is refused when read."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ckanext.passport.mr.model import Plural, Severity
from ckanext.passport.mr.problems import ROOMS, TableError, catalogue, read_tables, table_path

PACKAGE = Path(__file__).resolve().parents[2] / "ckanext" / "passport"


def table(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name / "problems.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    return path


def test_every_table_of_the_package_is_a_room_of_the_catalogue():
    """A room's table left out of ROOMS would be codes no process knows: every problems.toml is one of them."""
    assert sorted(PACKAGE.rglob("problems.toml")) == sorted(table_path(room) for room in ROOMS)


def test_a_row_gives_the_code_its_severity_message_plural_and_meaning(tmp_path):
    kinds = read_tables([table(tmp_path, "room", """
["room.gone"]
severity = "warning"
message = "{gone} thing is gone"
plural = "{gone} things are gone"
count = "gone"
meaning = "Things are gone"
""")])
    kind = kinds["room.gone"]
    assert (kind.severity, kind.message, kind.meaning) == (
        Severity.WARNING, Plural("{gone} thing is gone", "{gone} things are gone", "gone"), "Things are gone")


def test_a_row_whose_message_has_placeholders_but_no_meaning_is_refused(tmp_path):
    path = table(tmp_path, "room", '["room.bad"]\nseverity = "error"\nmessage = "The file {name} is bad"\n')
    with pytest.raises(TableError, match="room.bad.*meaning"):
        read_tables([path])


def test_a_row_of_an_unknown_severity_is_refused(tmp_path):
    path = table(tmp_path, "room", '["room.bad"]\nseverity = "fatal"\nmessage = "The file is bad"\n')
    with pytest.raises(TableError, match="room.bad.*severity 'fatal'"):
        read_tables([path])


def test_a_row_with_a_field_the_catalogue_does_not_read_is_refused(tmp_path):
    """A misspelt ``meaning`` would leave the reports' Meaning column empty without a word."""
    path = table(tmp_path, "room", '["room.bad"]\nseverity = "error"\nmessage = "Bad"\nmeanig = "Bad"\n')
    with pytest.raises(TableError, match="room.bad.*meanig"):
        read_tables([path])


def test_a_code_in_two_rooms_tables_is_refused_even_with_the_same_row(tmp_path):
    row = '["shared.code"]\nseverity = "error"\nmessage = "Bad"\n'
    first, second = table(tmp_path, "first", row), table(tmp_path, "second", row)
    with pytest.raises(TableError, match=r"shared.code.*first.*second"):
        read_tables([first, second])


def test_the_catalogue_holds_every_rooms_codes_without_importing_the_rooms():
    codes = set(catalogue())
    assert {"fetch.not_found", "config.invalid", "lkod.no_ico_publisher", "links.not_found", "site_check.rate_user",
            "openness.rate_user", "vocab.unreadable"} <= codes


def test_a_stored_finding_of_another_rooms_code_is_rendered_by_a_process_that_imported_only_the_library():
    """A web process showing a stored site check report may never have imported the site check's modules: the
    finding still reads as its code's message, not as the text stored with it."""
    script = ("from ckanext.passport.mr.problems import stored_problem\n"
              "found = stored_problem({'code': 'site_check.rate_user', 'severity': 'error', 'message': 'stored',"
              " 'params': {'limit': 3, 'minutes': 10}})\n"
              "print(found.message())\n")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "You have used up your site checks (at most 3 in 10 min); please try again later."
