"""A finding reads as a sentence in the reader's language, with its stable code apart in small type (issue 41):
the site check, the Conformance tab and the job page's error summary show it through one snippet,
passport/snippets/finding.html, where each once began with "[code] severity:" or a bare code."""
from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from ckan.plugins import toolkit as tk

from ckanext.passport.harvest.findings import shown
from ckanext.passport.mr.problems import problem
from ckanext.passport.mr.translation import translator

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins")]

FOUND = problem("fetch.not_found", url="http://example.org/opendata/list.csv", status=404)


def rendered(app, snippet: str, **data) -> BeautifulSoup:
    with app.flask_app.test_request_context():
        return BeautifulSoup(tk.render_snippet(snippet, data), "html.parser")


def sentence_and_code(soup: BeautifulSoup) -> tuple[str, str]:
    return (soup.select_one(".passport-finding-text").get_text(strip=True),
            soup.select_one("small.passport-finding-code").get_text(strip=True))


def test_the_site_check_shows_a_finding_as_a_sentence_with_its_code_apart(web):
    found = {"code": FOUND.code, "severity": "error", "message": FOUND.message(translator("cs")),
             "where": FOUND.location.url, "url": FOUND.location.url}
    soup = rendered(web, "site_check/findings.html", findings=[found])
    assert sentence_and_code(soup) == ("Soubor nebyl nalezen (HTTP 404)", "fetch.not_found")
    assert "[fetch.not_found]" not in soup.get_text()


def test_the_conformance_tab_shows_a_finding_as_a_sentence_with_its_code_apart(web):
    group = {"code": FOUND.code, "severity": "error", "severity_label": "ошибка",
             "message": FOUND.message(translator("ru")), "shown": [], "folded": []}
    soup = rendered(web, "passport_conformance/findings.html", row={"groups": [group]})
    assert sentence_and_code(soup) == ("Файл не найден (HTTP 404)", "fetch.not_found")
    assert soup.select_one(".badge").get_text(strip=True) == "ошибка"


def test_the_job_pages_error_summary_shows_a_finding_as_a_sentence_with_its_code_apart(web):
    error = shown(FOUND, 2, translator("cs")) | {"error_count": 2}
    soup = rendered(web, "snippets/job_error_summary.html", summary=[error])
    assert sentence_and_code(soup) == (
        "Soubor nebyl nalezen (HTTP 404) (http://example.org/opendata/list.csv) (×2)", "fetch.not_found")
    assert soup.select_one(".badge").get_text(strip=True) == "chyba"
    assert error["message"].startswith("[fetch.not_found] chyba: ")
