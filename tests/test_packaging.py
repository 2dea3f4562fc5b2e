"""A non-editable install carries everything the plugins read at run time."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


PACKAGE = ROOT / "ckanext" / "passport"

# What the plugins read from the package at run time, by kind (paths below ckanext/passport/).
DATA_KINDS = {
    "templates": "templates/**/*.html",
    "record schemas": "catalog/schemas/*.yaml",
    "MR schemas": "mr/schemas/*",
    "vocabularies": "catalog/vocabularies/*",
    "i18n catalogs": "i18n/**/*.[mp]o",
    "config declarations": "config/*.yaml",
    "problem tables": "**/problems.toml",
    "migrations": "migration/**/*",
}


def source_files(pattern: str = "**/*") -> list[Path]:
    """Files of the source package matching ``pattern``, relative to it; bytecode left out."""
    return sorted(
        path.relative_to(PACKAGE)
        for path in PACKAGE.glob(pattern)
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> tuple[Path, str]:
    """The wheel, and everything the build printed."""
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (path,) = out.glob("ckanext_passport-*.whl")
    return path, done.stdout + done.stderr


@pytest.fixture(scope="module")
def venv(build, tmp_path_factory) -> Path:
    """A fresh virtualenv holding the wheel alone: what a non-editable install really puts on disk."""
    wheel, _ = build
    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
    subprocess.run(
        [str(root / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True
    )
    return root


def run_in(venv: Path, code: str) -> str:
    return subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True, cwd=venv
    ).stdout


@pytest.fixture(scope="module")
def installed(venv) -> Path:
    """``ckanext/passport`` as installed in the fresh virtualenv."""
    purelib = run_in(venv, "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    return Path(purelib) / "ckanext" / "passport"


def test_the_build_warns_of_nothing(build):
    _, output = build
    assert "would be ignored" not in output
    assert [line for line in output.splitlines() if "Warning" in line] == []


@pytest.mark.parametrize("kind", DATA_KINDS)
def test_a_wheel_install_carries_every_data_file_of_its_kind(installed, kind):
    files = source_files(DATA_KINDS[kind])
    assert files, f"no {kind} in the source tree"
    assert [str(f) for f in files if not (installed / f).is_file()] == []


def test_a_wheel_install_carries_every_file_of_the_source_package(installed):
    assert [str(f) for f in source_files() if not (installed / f).is_file()] == []


@pytest.mark.parametrize("lang", ["cs", "ru", "en"])
def test_a_wheel_install_carries_compiled_translations(installed, lang):
    assert (installed / "i18n" / lang / "LC_MESSAGES" / "ckanext-passport.mo").is_file()


def test_a_wheel_install_registers_every_plugin(venv):
    listed = run_in(
        venv,
        "from importlib.metadata import entry_points\n"
        "for e in sorted(entry_points(group='ckan.plugins'), key=lambda e: e.name): print(e.name, e.value)",
    )
    assert listed.splitlines() == [
        "passport ckanext.passport.plugins.catalog:PassportPlugin",
        "passport_conformance ckanext.passport.plugins.conformance:PassportConformancePlugin",
        "passport_harvester ckanext.passport.plugins.harvester:PassportHarvesterPlugin",
        "passport_lkod ckanext.passport.plugins.lkod:PassportLkodPlugin",
        "passport_lkod_harvester ckanext.passport.plugins.lkod_harvester:PassportLkodHarvesterPlugin",
        "passport_publish ckanext.passport.plugins.publish:PassportPublishPlugin",
    ]


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_message_is_translated(lang):
    import polib

    from ckanext.passport.borrowed_messages import LEFT_TO_CORE

    catalog = polib.pofile(str(ROOT / f"ckanext/passport/i18n/{lang}/LC_MESSAGES/ckanext-passport.po"))
    left = [e.msgid for e in catalog.untranslated_entries() + catalog.fuzzy_entries() if not e.msgctxt]
    assert [msgid for msgid in left if msgid not in LEFT_TO_CORE] == []
    assert [e.msgid for e in catalog.untranslated_entries() if e.msgctxt] == []


def _extracted(tmp_path: Path, folder: str) -> set[str]:
    import polib

    pot = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "-o", str(pot), folder], check=True, cwd=ROOT)
    return {e.msgid for e in polib.pofile(str(pot))}


def _known(lang: str) -> set[str]:
    import polib

    catalog = polib.pofile(str(ROOT / f"ckanext/passport/i18n/{lang}/LC_MESSAGES/ckanext-passport.po"))
    return {e.msgid for e in catalog.translated_entries()}


def test_catalogs_hold_every_message_of_the_code(tmp_path):
    extracted = _extracted(tmp_path, "ckanext")
    assert len(extracted) > 100
    assert extracted - _known("cs") == set()


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_catalogs_translate_every_message_of_ckanext_harvest(tmp_path, lang):
    """ckanext-harvest ships no Czech or Russian: its source and job pages take their text from our catalogs."""
    import ckanext.harvest

    extracted = _extracted(tmp_path, str(Path(ckanext.harvest.__file__).parent))
    assert {"Reharvest", "No errors for this job", "Harvest Jobs"} <= extracted
    assert extracted - _known(lang) == set()


def test_the_suite_beside_the_service_fault_tests_runs_on_the_default_services():
    """make test runs the service-fault tests at the same time on services of their own: none of their variables may
    reach the rest of the suite, whose jobs and queues would then sit on services those tests kill."""
    import os

    assert not {"SERVICES_NAME", "SERVICES_RUN", "REDIS_PORT", "AMQP_PORT"} & set(os.environ)
