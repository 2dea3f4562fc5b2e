"""Every problem code a harvest, a check or the catalog can write has its message in cs, ru and en."""
from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from gettext import c2py
from pathlib import Path

import ckan
import polib
import pytest

import ckanext.passport.harvest.problems  # noqa: F401 (defines the harvest's codes)
import ckanext.passport.lkod.problems  # noqa: F401 (defines the LKOD eligibility codes)
import ckanext.passport.conformance.site_check.problems  # noqa: F401 (defines the site check codes)
import ckanext.passport.catalog.skos  # noqa: F401 (defines the SKOS reader's codes)
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


@pytest.mark.parametrize("lang, core", [("cs", "cs_CZ"), ("ru", "ru")])
def test_plural_forms_agree_with_ckans_own_catalog(lang, core):
    """CKAN merges our catalog into its own and counts with its own plural rule: ours must give each count the
    same form (a Czech page once said "jsou 0 záznamy")."""
    ours = po(lang)
    theirs = polib.pofile(str(Path(ckan.__file__).parent / "i18n" / core / "LC_MESSAGES" / "ckan.po"))
    plural = {name: c2py(catalog.metadata["Plural-Forms"].split("plural=", 1)[1].rstrip(";"))
              for name, catalog in (("ours", ours), ("theirs", theirs))}
    for n in range(0, 112):
        assert plural["ours"](n) == plural["theirs"](n), n
    forms = max(plural["theirs"](n) for n in range(0, 112)) + 1
    for entry in ours:
        if entry.msgid_plural:
            assert all(entry.msgstr_plural.get(index) for index in range(forms)), entry.msgid
