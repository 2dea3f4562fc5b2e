"""The words of the pages every visitor meets, in Czech and Russian (issue 41): our catalog is merged over
CKAN's, so a msgid we translate for one page changes it on every page, and the words ckanext-harvest and CKAN
core leave untranslated are ours to ship."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("with_plugins", "clean_db", "clean_index")]

CORE_ABOUT = {"cs": "O nás", "ru": "О проекте"}
SOURCE_ABOUT = {"cs": "O zdroji", "ru": "Об источнике"}


def page(app, path: str, **kwargs) -> BeautifulSoup:
    return BeautifulSoup(app.get(path, **kwargs).get_data(as_text=True), "html.parser")


def texts(soup: BeautifulSoup, selector: str) -> list[str]:
    return [node.get_text(" ", strip=True) for node in soup.select(selector)]


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_main_menu_about_is_ckans_and_the_source_tab_is_the_sources(app, harvest_source, lang):
    source = harvest_source("http://example.org/opendata/", name="menu-source", title="Menu source")
    soup = page(app, f"/{lang}/harvest/{source['name']}")
    menu = texts(soup, "header .navigation ul li a, header nav ul li a")
    assert CORE_ABOUT[lang] in menu
    assert SOURCE_ABOUT[lang] not in menu
    assert SOURCE_ABOUT[lang] in texts(soup, ".nav-tabs a")
