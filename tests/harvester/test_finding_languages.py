"""A harvest's findings speak the reader's language: the job page and the API render each one in the request's
locale, while ckanext-harvest's tables keep ``[code] text`` in the site's default language."""
from __future__ import annotations

import shutil

import pytest
from ckan import model
from ckan.tests import factories
from ckanext.harvest.model import HarvestGatherError, HarvestObject, HarvestObjectError
from tests.support.demo_site import DEMO_SITE
from tests.support.http_site import Fault

pytestmark = [pytest.mark.stack]

ALLOW = {"allow_private_addresses": True}
SCHOOLS = "/opendata/7701234560-schools/meta.xml"
CZECH = "[fetch.server_error] chyba: chyba serveru (HTTP 500) po "
RUSSIAN = "[fetch.server_error] ошибка: ошибка сервера (HTTP 500) после "
ENGLISH = "[fetch.server_error] error: server error (HTTP 500) after "
NO_REGISTRY_CZECH = "[fetch.not_found] chyba: soubor nebyl nalezen (HTTP 404)"
NO_REGISTRY_ENGLISH = "[fetch.not_found] error: file not found (HTTP 404)"
# A page shows a finding as a sentence, its code apart in small type (passport/snippets/finding.html).
CZECH_PAGE = "Chyba serveru (HTTP 500) po "
ENGLISH_PAGE = "Server error (HTTP 500) after "
CODE_APART = '<small class="passport-finding-code text-muted"'


@pytest.fixture(scope="module")
def site(tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("languages") / "site"
    shutil.copytree(DEMO_SITE, root)
    served = serve_site(root)
    served.fault(SCHOOLS, Fault(status=500))
    return served


@pytest.fixture(scope="module")
def harvested(stack_once, site, harvest_source, run_harvest):
    """One job with an object error (a passport the server fails on), one with a gather error (no registry)."""
    broken = harvest_source(f"{site.url}/opendata/list.csv", ALLOW | {"formats": ["meta.xml"]}, name="broken-passport")
    _, job = run_harvest(broken)
    missing = harvest_source(f"{site.url}/opendata/nothing.csv", ALLOW | {"registry_url": f"{site.url}/nothing.csv"},
                             name="missing-registry")
    _, gather_job = run_harvest(missing)
    return {"source": broken, "job": job, "missing": missing, "gather_job": gather_job}


@pytest.fixture(scope="module")
def token(harvested) -> str:
    return factories.SysadminWithToken()["token"]


def job_page(app, token: str, source: dict, job: dict, prefix: str = "") -> str:
    page = app.get(f"{prefix}/harvest/{source['name']}/job/{job['id']}", headers={"Authorization": token})
    assert page.status_code == 200, page.body[-3000:]
    return page.body


def api(app, token: str, action: str, prefix: str = "", **params) -> dict:
    response = app.get(f"{prefix}/api/3/action/{action}", params=params, headers={"Authorization": token})
    assert response.status_code == 200
    return response.json["result"]


def object_messages(report: dict) -> list[str]:
    return [error["message"] for found in report["object_errors"].values() for error in found["errors"]]


def test_the_job_page_shows_a_finding_in_czech_under_cs(web, harvested, token):
    body = job_page(web, token, harvested["source"], harvested["job"], "/cs")
    assert CZECH_PAGE in body and CODE_APART in body
    assert ENGLISH_PAGE not in body
    assert "[fetch.server_error]" not in body


def test_the_job_page_shows_the_finding_in_english_by_default(web, harvested, token):
    body = job_page(web, token, harvested["source"], harvested["job"])
    assert ENGLISH_PAGE in body
    assert CZECH_PAGE not in body and "Ошибка сервера" not in body


def test_the_job_report_api_speaks_russian_under_ru(web, harvested, token):
    report = api(web, token, "harvest_job_report", "/ru", id=harvested["job"]["id"])
    assert [message for message in object_messages(report) if message.startswith(RUSSIAN)]


def test_the_error_summary_speaks_the_reader_s_language(web, harvested, token):
    job = api(web, token, "harvest_job_show", "/ru", id=harvested["job"]["id"])
    assert [e for e in job["object_error_summary"] if e["message"].startswith(RUSSIAN)]
    status = api(web, token, "harvest_source_show_status", "/cs", id=harvested["source"]["id"])
    assert [e for e in status["last_job"]["object_error_summary"] if e["message"].startswith(CZECH)]


def test_a_harvest_object_s_errors_speak_the_reader_s_language(web, harvested, token):
    report = api(web, token, "harvest_job_report", id=harvested["job"]["id"])
    (object_id,) = [key for key, found in report["object_errors"].items()
                    if any(e["message"].startswith(ENGLISH) for e in found["errors"])]
    harvest_object = api(web, token, "harvest_object_show", "/cs", id=object_id)
    assert [e for e in harvest_object["errors"] if e["message"].startswith(CZECH)]


def test_a_gather_error_speaks_czech_under_cs(web, harvested, token):
    report = api(web, token, "harvest_job_report", "/cs", id=harvested["gather_job"]["id"])
    assert [e for e in report["gather_errors"] if e["message"].startswith(NO_REGISTRY_CZECH)]
    assert "Soubor nebyl nalezen (HTTP 404)" in job_page(web, token, harvested["missing"], harvested["gather_job"], "/cs")


def test_ckanext_harvest_stores_the_code_and_the_site_s_language(harvested):
    stored = (
        model.Session.query(HarvestObjectError.message)
        .join(HarvestObject, HarvestObject.id == HarvestObjectError.harvest_object_id)
        .filter(HarvestObject.harvest_job_id == harvested["job"]["id"])
        .all()
    )
    assert [message for (message,) in stored if message.startswith(ENGLISH)]
    gathered = model.Session.query(HarvestGatherError.message).filter_by(harvest_job_id=harvested["gather_job"]["id"])
    assert [message for (message,) in gathered if message.startswith(NO_REGISTRY_ENGLISH)]
    assert harvested["job"]["stats"]["errored"] >= 1


def test_an_error_stored_without_its_finding_is_shown_as_stored(web, harvested, token):
    harvest_object = model.Session.query(HarvestObject).filter_by(harvest_job_id=harvested["job"]["id"]).first()
    HarvestObjectError(message="[fetch.not_found] file not found (HTTP 404) / файл не найден (HTTP 404)",
                       object=harvest_object, stage="Fetch").save()
    body = job_page(web, token, harvested["source"], harvested["job"], "/cs")
    assert "[fetch.not_found] file not found (HTTP 404) / файл не найден (HTTP 404)" in body
    assert CZECH_PAGE in body


@pytest.mark.parametrize(("prefix", "shown", "english"), [
    ("/cs", ["Úlohy sklizně", "Zahájeno:", "Dokončeno:"], ["Harvest Jobs", "Started:", "Finished:"]),
    ("/ru", ["Задания сбора", "Начато:", "Завершено:"], ["Harvest Jobs", "Started:", "Finished:"]),
])
def test_ckanext_harvests_job_list_speaks_czech_and_russian(web, harvested, token, prefix, shown, english):
    page = web.get(f"{prefix}/harvest/{harvested['source']['name']}/job", headers={"Authorization": token}).body
    assert all(text in page for text in shown)
    assert not any(text in page for text in english)


@pytest.mark.parametrize(("prefix", "shown", "english"), [
    ("/cs", ["Sklidit znovu", "Vyčistit", "Poslední úloha sklizně"], [">Reharvest<", "Last Harvest Job"]),
    ("/ru", ["Собрать заново", "Очистить", "Последнее задание сбора"], [">Reharvest<", "Last Harvest Job"]),
])
def test_ckanext_harvests_source_admin_page_speaks_czech_and_russian(web, harvested, token, prefix, shown, english):
    page = web.get(f"{prefix}/harvest/admin/{harvested['source']['name']}", headers={"Authorization": token}).body
    assert all(text in page for text in shown), page[:200]
    assert not any(text in page for text in english)
