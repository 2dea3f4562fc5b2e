"""docs/install.md names what the project is tested with: the extensions' versions, the plugins and their order."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "install.md").read_text("utf-8")


@pytest.mark.parametrize("pins", sorted((ROOT / "requirements").glob("ckan-*.txt")), ids=lambda path: path.name)
def test_the_page_installs_the_extensions_each_ckan_version_is_tested_with(pins):
    tested = re.findall(r"^(ckanext-[a-z]+==\S+)$", pins.read_text("utf-8"), re.MULTILINE)
    installed = re.search(r"^pip install (ckanext-harvest.*)$", PAGE, re.MULTILINE).group(1).split()
    assert sorted(installed) == sorted(tested)


def test_the_page_names_every_supported_ckan_version():
    for pins in (ROOT / "requirements").glob("ckan-*.txt"):
        assert pins.stem.removeprefix("ckan-") in PAGE


@pytest.mark.parametrize("ini", ["test.ini", "dev/ckan.ini"])
def test_the_pages_plugins_are_the_ones_the_tests_and_the_demo_run_in_their_order(ini):
    page = re.search(r'"ckan\.plugins=([^"]+)"', PAGE).group(1)
    configured = re.search(r"^ckan\.plugins = (.+)$", (ROOT / ini).read_text("utf-8"), re.MULTILINE).group(1)
    assert page.split() == configured.split()


def test_the_pages_wheel_is_the_version_setup_cfg_builds():
    version = re.search(r"^version = (\S+)$", (ROOT / "setup.cfg").read_text("utf-8"), re.MULTILINE).group(1)
    assert f"pip install ckanext_passport-{version}-py3-none-any.whl" in PAGE
