"""The words of the pages every visitor meets, in Czech and Russian (issue 41): our catalog is merged over
CKAN's, so a msgid we translate for one page changes it on every page, and the words ckanext-harvest and CKAN
core leave untranslated are ours to ship."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.tests import factories

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

CORE_ABOUT = {"cs": "O nás", "ru": "О проекте"}
SOURCE_ABOUT = {"cs": "O zdroji", "ru": "Об источнике"}


def page(app, path: str, **kwargs) -> BeautifulSoup:
    return BeautifulSoup(app.get(path, **kwargs).get_data(as_text=True), "html.parser")


def texts(soup: BeautifulSoup, selector: str) -> list[str]:
    return [node.get_text(" ", strip=True) for node in soup.select(selector)]


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_main_menu_about_is_ckans_and_the_source_tab_is_the_sources(web, harvest_source, lang):
    source = harvest_source("http://example.org/opendata/", name="menu-source", title="Menu source")
    soup = page(web, f"/{lang}/harvest/{source['name']}")
    menu = texts(soup, "header .navigation ul li a, header nav ul li a")
    assert CORE_ABOUT[lang] in menu
    assert SOURCE_ABOUT[lang] not in menu
    assert SOURCE_ABOUT[lang] in texts(soup, ".nav-tabs a")


HARVEST_COUNTS = {"cs": ["přidáno", "aktualizováno", "smazáno", "beze změny"],
                  "ru": ["добавлено", "обновлено", "удалено", "без изменений"]}


@pytest.fixture
def harvested_job(tmp_path, serve_site, harvest_source, run_harvest):
    import shutil

    from tests.support.demo_site import DEMO_SITE

    root = tmp_path / "site"
    shutil.copytree(DEMO_SITE, root)
    site = serve_site(root)
    source = harvest_source(f"{site.url}/opendata/list.csv", {"allow_private_addresses": True, "formats": ["meta.json"]},
                            name="counted-source")
    _, job = run_harvest(source)
    return {"source": source, "job": job, "token": factories.SysadminWithToken()["token"]}


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_a_jobs_counts_are_in_the_readers_language(web, harvested_job, lang):
    source, job, token = harvested_job["source"], harvested_job["job"], harvested_job["token"]
    headers = {"Authorization": token}
    for path in (f"/{lang}/harvest/{source['name']}/job/{job['id']}", f"/{lang}/harvest/{source['name']}/job"):
        badges = " ".join(texts(page(web, path, headers=headers), "[data-diff]"))
        assert all(word in badges for word in HARVEST_COUNTS[lang]), (path, badges)
        assert "not modified" not in badges and "added" not in badges


@pytest.mark.parametrize("lang, found", [("cs", "Nalezeny 2 zdroje sklizně"), ("ru", "Найдено 2 источника сбора")])
def test_the_count_of_harvest_sources_is_in_the_readers_language(web, harvest_source, lang, found):
    harvest_source("http://example.org/a/", name="first-source")
    harvest_source("http://example.org/b/", name="second-source")
    heading = " ".join(texts(page(web, f"/{lang}/harvest/"), ".search-form h1"))
    assert found in heading


@pytest.mark.parametrize("lang, words", [
    ("cs", ["Přejít na hlavní obsah", "Uživatelské jméno nebo e-mail"]),
    ("ru", ["Перейти к основному содержанию", "Имя пользователя или адрес эл. почты"]),
])
def test_ckans_own_words_that_its_catalog_lacks_are_translated(web, lang, words):
    soup = page(web, f"/{lang}/user/login")
    assert words[0] in texts(soup, "a[href='#content']")
    assert words[1] in texts(soup, "label[for='field-login']")


@pytest.mark.parametrize("lang, words", [
    ("cs", ["(viz", "Pro přístup na tuto stránku se možná budete muset přihlásit."]),
    ("ru", ["(см.", "Возможно, для доступа к этой странице нужно войти."]),
])
def test_the_search_note_and_the_sign_in_hint_are_translated(web, lang, words):
    assert words[0] in page(web, f"/{lang}/dataset/").get_text(" ")
    refused = web.get(f"/{lang}/dataset/new", status=403).get_data(as_text=True)
    assert words[1] in refused
