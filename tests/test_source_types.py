"""The two source types' names are defined once (ckanext/passport/source_types.py): the harvesters declare them
from there, and no other module of the extension spells one out to compare a source's type with it, in Python or
in SQL (the migrations, a snapshot of their day, aside)."""
from __future__ import annotations

import re
from pathlib import Path

from ckanext.passport import source_types
from ckanext.passport.harvest.mr_harvester import PassportHarvester
from ckanext.passport.lkod.harvester import LkodHarvester

PACKAGE = Path(source_types.__file__).resolve().parent
# A source's type compared with, or listed as, a literal name: `type == "passport"`, `source_type") != "lkod"`,
# `s.type = 'passport'`, `("passport", "lkod")`, the source form's `passport_source_config_help('passport')`.
SPELLED_OUT = re.compile(r"""type["')\]]*\s*(?:[!=]=|=|!=|\.in_\()\s*["']{1,2}(?:passport|lkod)["']"""
                         r"""|\(\s*["']passport["']\s*,\s*["']lkod["']\s*\)"""
                         r"""|config_help\(\s*["'](?:passport|lkod)["']""", re.IGNORECASE)


def test_each_harvester_declares_the_name_source_types_defines():
    assert (PassportHarvester.SOURCE_TYPE, LkodHarvester.SOURCE_TYPE) == source_types.OURS
    assert PassportHarvester().info()["name"] == source_types.PASSPORT
    assert LkodHarvester().info()["name"] == source_types.LKOD


def test_no_module_but_source_types_spells_a_source_type_out():
    spelled = [f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
               for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.html")])
               if path.name != "source_types.py" and "migration" not in path.parts
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if SPELLED_OUT.search(line)]
    assert spelled == []
