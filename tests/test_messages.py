"""Every problem code a harvest, a check or the catalog can write has its message in cs, ru and en."""
from __future__ import annotations

import re
import subprocess
import sys
from gettext import c2py
from pathlib import Path
from typing import Callable

import ckan
import polib
import pytest

from ckanext.passport.mr.model import Message, Plural
from ckanext.passport.mr.problems import SEVERITY_LABELS, catalogue, problem
from ckanext.passport.mr.translation import translator

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "ckanext" / "passport" / "i18n"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

# Every room's table (mr.problems.ROOMS): nothing to import for a code to be known.
KINDS = catalogue()


def po(lang: str) -> polib.POFile:
    return polib.pofile(str(CATALOGS / lang / "LC_MESSAGES" / "ckanext-passport.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def msgid(message: Message) -> str:
    return message.singular if isinstance(message, Plural) else message


def plural_rule(catalog: polib.POFile) -> Callable[[int], int]:
    return c2py(catalog.metadata["Plural-Forms"].split("plural=", 1)[1].rstrip(";"))


def form_count(catalog: polib.POFile) -> int:
    return int(catalog.metadata["Plural-Forms"].split("nplurals=", 1)[1].split(";", 1)[0])


def translations(entry: polib.POEntry) -> list[str]:
    """What a translator wrote for the entry: its msgstr, or each of its plural forms."""
    return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)] if entry.msgid_plural else [entry.msgstr]


def test_the_catalogue_holds_the_codes_of_the_library_and_of_the_harvest():
    assert {"fetch.not_found", "passport.unreachable", "config.invalid", "harvest.identifier_taken",
            "harvest.registry_incomplete", "harvest.invalid_dataset"} <= set(KINDS)
    assert len(KINDS) > 100


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_code_has_a_translation_with_the_same_placeholders(lang):
    catalog = po(lang)
    entries = {e.msgid: e for e in catalog if not e.obsolete}
    wanted = {msgid(kind.message) for kind in KINDS.values()} | set(SEVERITY_LABELS.values())
    missing = sorted(m for m in wanted if m not in entries or not all(translations(entries[m])) or entries[m].fuzzy)
    assert missing == []
    differing = sorted(m for m in wanted if any(placeholders(text) != placeholders(m) for text in translations(entries[m])))
    assert differing == []


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_a_counting_message_has_every_plural_form_of_the_language(lang):
    """Each message that counts (a code's Nn_, an ngettext, a template's pluralize) is translated in as many forms
    as the language's Plural-Forms says, each with the English plural's placeholders."""
    catalog = po(lang)
    forms = form_count(catalog)
    counting = [e for e in catalog if e.msgid_plural and not e.obsolete]
    assert len(counting) >= 30
    incomplete = [e.msgid for e in counting if sorted(e.msgstr_plural) != list(range(forms))
                  or not all(e.msgstr_plural.values()) or e.fuzzy]
    assert incomplete == []
    differing = [e.msgid for e in counting
                 if any(placeholders(text) != placeholders(e.msgid_plural) for text in e.msgstr_plural.values())]
    assert differing == []


def test_a_counting_code_names_a_placeholder_of_its_message():
    plurals = {code: kind.message for code, kind in KINDS.items() if isinstance(kind.message, Plural)}
    assert len(plurals) >= 20
    assert sorted(code for code, message in plurals.items()
                  if f"{{{message.count}}}" not in message.singular or f"{{{message.count}}}" not in message.plural) == []


def test_a_code_whose_message_has_particulars_has_a_meaning_without_them():
    """The reports' "Meaning" column names what a code means; a code's message, its particulars filled in, cannot."""
    with_particulars = {code: kind for code, kind in KINDS.items() if placeholders(msgid(kind.message))}
    assert len(with_particulars) > 150
    assert sorted(code for code, kind in with_particulars.items() if not kind.meaning or "{" in kind.meaning) == []


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_meaning_is_translated(lang):
    entries = {e.msgid: e for e in po(lang) if not e.obsolete}
    meanings = {kind.meaning for kind in KINDS.values() if kind.meaning}
    assert sorted(m for m in meanings if m not in entries or not entries[m].msgstr or entries[m].fuzzy
                  or "{" in entries[m].msgstr) == []


def test_no_message_works_around_plurals():
    """"line(s)" was how a count was written before plural forms."""
    assert [e.msgid for e in po("cs") if not e.obsolete and "(s)" in e.msgid] == []


@pytest.mark.parametrize("lang, counts", [
    ("en", {1: "… and 1 more finding 'x'", 3: "… and 3 more findings 'x'", 5: "… and 5 more findings 'x'",
            21: "… and 21 more findings 'x'"}),
    ("cs", {1: "… a další 1 zjištění „x“", 3: "… a další 3 zjištění „x“", 5: "… a dalších 5 zjištění „x“",
            21: "… a dalších 21 zjištění „x“"}),
    ("ru", {1: "… и ещё 1 замечание «x»", 3: "… и ещё 3 замечания «x»", 5: "… и ещё 5 замечаний «x»",
            21: "… и ещё 21 замечание «x»"}),
])
def test_a_count_takes_the_form_its_number_asks_for(lang, counts):
    assert {n: problem("findings.more", count=n, kind="x").message(translator(lang)) for n in counts} == counts


@pytest.mark.parametrize("lang, counts", [
    ("en", {1: "1 dataset is gone", 3: "3 datasets are gone", 5: "5 datasets are gone", 21: "21 datasets are gone"}),
    ("cs", {1: "Z registru zmizela 1 datová sada", 3: "Z registru zmizely 3 datové sady",
            5: "Z registru zmizelo 5 datových sad", 21: "Z registru zmizelo 21 datových sad"}),
    ("ru", {1: "Из реестра пропал 1 набор данных", 3: "Из реестра пропали 3 набора данных",
            5: "Из реестра пропало 5 наборов данных", 21: "Из реестра пропал 21 набор данных"}),
])
def test_the_count_is_the_placeholder_the_code_names(lang, counts):
    """harvest.mass_deletion counts what is gone ({gone}), not what the registry keeps ({kept})."""
    for n, start in counts.items():
        found = problem("harvest.mass_deletion", gone=n, kept=1, largest=n + 1, max_ratio=0.5)
        assert found.message(translator(lang)).startswith(start), n


def test_a_count_shown_without_its_number_reads_as_many():
    """A code's meaning (its particulars left out) takes the form that reads for any number."""
    assert translator("ru").template(KINDS["findings.more"].message) == "… и ещё {count} замечаний «{kind}»"
    assert translator("cs").template(KINDS["findings.more"].message) == "… a dalších {count} zjištění „{kind}“"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> polib.POFile:
    """What `make i18n` extracts from the code, the templates and the problem tables, into a catalog of its own."""
    pot = tmp_path_factory.mktemp("extract") / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    # The keyword of counting messages, as `make i18n` passes it.
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-k", "Nn_:1,2", "-o", str(pot), "ckanext"],
                   check=True, cwd=ROOT)
    return polib.pofile(str(pot))


def test_every_code_message_is_extracted_for_translators(extracted):
    found = {(e.msgid, e.msgid_plural or None) for e in extracted}
    wanted = {(kind.message.singular, kind.message.plural) if isinstance(kind.message, Plural) else (kind.message, None)
              for kind in KINDS.values()}
    assert sorted(wanted - found) == []


def test_a_codes_meaning_is_extracted_from_its_rooms_table_with_a_note_naming_the_code(extracted):
    entry = extracted.find(KINDS["site_check.rate_user"].meaning)
    assert entry is not None
    assert "The meaning of the problem code site_check.rate_user" in entry.comment
    assert any(place.endswith("site_check/problems.toml") for place, _line in entry.occurrences)
    assert sorted(kind.meaning for kind in KINDS.values() if kind.meaning and extracted.find(kind.meaning) is None) == []


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_compiled_catalogs_speak_each_code(lang):
    translate = translator(lang)
    catalog = po(lang)
    rule = plural_rule(catalog)
    entries = {e.msgid: e for e in catalog if not e.obsolete}

    def speaks(message: Message) -> bool:
        if isinstance(message, str):
            return translate(message) == entries[message].msgstr
        forms = entries[message.singular].msgstr_plural
        return all(translate.template(message, {message.count: n}) == forms[rule(n)] for n in (0, 1, 2, 5, 21, 111))

    assert sorted(code for code, kind in KINDS.items() if not speaks(kind.message)) == []


def test_a_language_without_a_catalog_is_english():
    kind = KINDS["fetch.not_found"]
    assert translator("de")(kind.message) == kind.message


@pytest.mark.parametrize("lang, core", [("cs", "cs_CZ"), ("ru", "ru")])
def test_plural_forms_agree_with_ckans_own_catalog(lang, core):
    """CKAN merges our catalog into its own and counts with its own plural rule: ours must give each count the
    same form (a Czech page once said "jsou 0 záznamy")."""
    ours = po(lang)
    theirs = polib.pofile(str(Path(ckan.__file__).parent / "i18n" / core / "LC_MESSAGES" / "ckan.po"))
    plural = {name: plural_rule(catalog) for name, catalog in (("ours", ours), ("theirs", theirs))}
    for n in range(0, 112):
        assert plural["ours"](n) == plural["theirs"](n), n
    forms = max(plural["theirs"](n) for n in range(0, 112)) + 1
    for entry in ours:
        if entry.msgid_plural:
            assert all(entry.msgstr_plural.get(index) for index in range(forms)), entry.msgid


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_a_finding_stored_before_its_template_named_a_param_still_reads(lang):
    """harvest.identifier_taken gained {holder}: a finding stored without it reads "…" there, not raw braces."""
    stored = problem("harvest.identifier_taken", identifier="7701234560-schools", name="schools", title="Školy")
    text = stored.message(translator(lang))
    assert "{" not in text and "…" in text and "7701234560-schools" in text
