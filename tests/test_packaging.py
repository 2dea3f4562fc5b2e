"""A non-editable install carries everything the plugins read at run time."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (path,) = out.glob("ckanext_passport-*.whl")
    with zipfile.ZipFile(path) as zf:
        yield zf


@pytest.fixture(scope="module")
def wheel_names(wheel) -> set[str]:
    return set(wheel.namelist())


@pytest.mark.parametrize("lang", ["cs", "ru", "en"])
def test_wheel_ships_compiled_translations(wheel_names, lang):
    assert f"ckanext/passport/i18n/{lang}/LC_MESSAGES/ckanext-passport.mo" in wheel_names


@pytest.mark.parametrize("name", ["catalog", "harvester", "publish"])
def test_wheel_ships_config_declarations(wheel_names, name):
    assert f"ckanext/passport/config/{name}.yaml" in wheel_names


def test_wheel_registers_the_three_plugins(wheel, wheel_names):
    (name,) = [n for n in wheel_names if n.endswith("entry_points.txt")]
    text = wheel.read(name).decode()
    for plugin in ("passport", "passport_harvester", "passport_publish"):
        assert f"{plugin} = ckanext.passport.plugins." in text


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_message_is_translated(lang):
    import polib

    catalog = polib.pofile(str(ROOT / f"ckanext/passport/i18n/{lang}/LC_MESSAGES/ckanext-passport.po"))
    assert [e.msgid for e in catalog.untranslated_entries() + catalog.fuzzy_entries()] == []


def test_catalogs_hold_every_message_of_the_code(tmp_path):
    import polib

    pot = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-o", str(pot), "ckanext"], check=True, cwd=ROOT)
    extracted = {e.msgid for e in polib.pofile(str(pot))}
    known = {e.msgid for e in polib.pofile(str(ROOT / "ckanext/passport/i18n/cs/LC_MESSAGES/ckanext-passport.po"))}
    assert len(extracted) > 100
    assert extracted - known == set()
