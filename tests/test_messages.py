"""Every problem code a harvest, a check or the catalog can write has its message in cs, ru and en."""
from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import polib
import pytest

import ckanext.passport.harvest_problems  # noqa: F401 (defines the harvest's codes)
import ckanext.passport.lkod.problems  # noqa: F401 (defines the LKOD eligibility codes)
import ckanext.passport.mr
from ckanext.passport.mr.problems import SEVERITY_LABELS, catalogue
from ckanext.passport.mr.translation import translator

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "ckanext" / "passport" / "i18n"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

# Importing every module of the MR library defines every code it may report.
for module in pkgutil.walk_packages(ckanext.passport.mr.__path__, "ckanext.passport.mr."):
    importlib.import_module(module.name)

KINDS = catalogue()


def po(lang: str) -> polib.POFile:
    return polib.pofile(str(CATALOGS / lang / "LC_MESSAGES" / "ckanext-passport.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_the_catalogue_holds_the_codes_of_the_library_and_of_the_harvest():
    assert {"fetch.not_found", "passport.unreachable", "config.invalid", "harvest.identifier_taken",
            "harvest.registry_incomplete", "harvest.invalid_dataset"} <= set(KINDS)
    assert len(KINDS) > 100


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_code_has_a_translation_with_the_same_placeholders(lang):
    entries = {e.msgid: e for e in po(lang) if not e.obsolete}
    wanted = {kind.message for kind in KINDS.values()} | set(SEVERITY_LABELS.values())
    missing = sorted(m for m in wanted if m not in entries or not entries[m].msgstr or entries[m].fuzzy)
    assert missing == []
    differing = sorted(m for m in wanted if placeholders(entries[m].msgstr) != placeholders(m))
    assert differing == []


def test_every_code_message_is_extracted_for_translators(tmp_path):
    pot = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-o", str(pot), "ckanext"], check=True, cwd=ROOT)
    extracted = {e.msgid for e in polib.pofile(str(pot))}
    assert sorted(kind.message for kind in KINDS.values() if kind.message not in extracted) == []


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_compiled_catalogs_speak_each_code(lang):
    translate = translator(lang)
    entries = {e.msgid: e.msgstr for e in po(lang) if not e.obsolete}
    assert sorted(code for code, kind in KINDS.items() if translate(kind.message) != entries[kind.message]) == []


def test_a_language_without_a_catalog_is_english():
    kind = KINDS["fetch.not_found"]
    assert translator("de")(kind.message) == kind.message
