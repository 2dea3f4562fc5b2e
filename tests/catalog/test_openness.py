"""The automatic openness check (level 3 standards): the pure assessment, and the check as a background job that a
real ``ckan jobs worker`` runs against files served by a real local HTTP server, with the site check's address rule."""
from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from ckan import model
from ckan.lib.redis import connect_to_redis
from ckan.logic import NotAuthorized, ValidationError
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.site_check_jobs import clean_site_checks, run_worker_burst  # noqa: F401 (fixtures)

from ckanext.passport import settings
from ckanext.passport.catalog.openness import actions, jobs
from ckanext.passport.catalog.openness.assessment import assess
from tests.support.catalog_records import complete_record, complete_resource

OKVED_DATA = "rosstat-okved2/data-20251101T1411-structure-20180402T1704.csv"
GOOD_CSV = "kód;název;počet obyvatel\n582786;Brno;396778\n554782;Praha;1384732\n".encode("utf-8")


def _verdicts(checks: list[dict]) -> dict[str, object]:
    return {check["code"]: check["passed"] for check in checks}


# --- pure assessment ----------------------------------------------------------------------------------------


def test_well_formed_utf8_csv_table_passes():
    assert _verdicts(assess(GOOD_CSV, "CSV")) == {
        "utf8": True, "format": True, "one_table": True, "header": True, "consistent_rows": True,
    }


def test_rows_of_another_width_than_the_header_fail():
    checks = assess(b"a,b,c\n1,2,3\n4,5\n6,7,8,9\n", "csv")
    row_check = next(c for c in checks if c["code"] == "consistent_rows")
    assert row_check["passed"] is False
    assert row_check["detail"] == {"columns": 3, "line": 3, "count": 2}


def test_two_tables_separated_by_a_blank_line_fail_one_table():
    checks = assess(b"a,b\n1,2\n\nx,y,z\n7,8,9\n", "csv")
    assert _verdicts(checks)["one_table"] is False


def test_trailing_blank_lines_are_not_a_second_table():
    assert _verdicts(assess(b"a,b\n1,2\n\n\n", "csv"))["one_table"] is True


def test_json_array_of_objects_with_the_same_keys_passes():
    document = b'[{"kod": 1, "nazev": "Brno"}, {"kod": 2, "nazev": "Praha"}]'
    assert _verdicts(assess(document, "JSON")) == {
        "utf8": True, "format": True, "one_table": True, "header": None, "consistent_rows": True,
    }


def test_json_objects_with_different_keys_fail():
    assert _verdicts(assess(b'{"rows": [{"a": 1}, {"b": 2}]}', ""))["consistent_rows"] is False


def test_xml_rows_of_one_element_with_the_same_structure_pass():
    document = b"<obce><obec kod='1'><nazev>Brno</nazev></obec><obec kod='2'><nazev>Praha</nazev></obec></obce>"
    assert _verdicts(assess(document, "XML"))["consistent_rows"] is True


def test_xml_mixing_record_kinds_fails_one_table():
    document = b"<data><obec/><kraj/></data>"
    assert _verdicts(assess(document, "XML"))["one_table"] is False


def test_xml_with_an_external_entity_is_read_without_resolving_it():
    document = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d><r>&x;</r></d>'
    assert "root:" not in repr(assess(document, "XML"))


def test_spreadsheet_is_not_a_level_3_table_format():
    assert _verdicts(assess(b"PK\x03\x04\x00\x00binary", "XLSX", "application/vnd.ms-excel"))["format"] is False


# --- through the action and the jobs worker, real HTTP ----------------------------------------------------------


@pytest.fixture
def served(httpserver, read_real):
    httpserver.expect_request("/okved.csv").respond_with_data(read_real(OKVED_DATA), content_type="text/csv")
    httpserver.expect_request("/obce.csv").respond_with_data(GOOD_CSV, content_type="text/csv; charset=utf-8")
    return httpserver


@pytest.fixture
def curator() -> dict:
    return factories.User()


@pytest.fixture
def sysadmin() -> dict:
    return factories.Sysadmin()


@pytest.fixture
def record(served, curator) -> dict:
    org = factories.Organization(users=[{"name": curator["name"], "capacity": "editor"}])
    return call_action(
        "package_create", {"user": curator["name"]},
        **complete_record(owner_org=org["id"], resources=[
            complete_resource(name="OKVED 2", url=served.url_for("/okved.csv"), format="CSV", mimetype="text/csv",
                              mimetype_inner=""),
            complete_resource(name="Obce", url=served.url_for("/obce.csv"), format="CSV", mimetype="text/csv",
                              mimetype_inner=""),
        ]),
    )


def _stored(record: dict) -> dict[str, dict]:
    model.Session.remove()  # the jobs worker wrote the results, in its own process
    shown = call_action("package_show", id=record["id"])
    return {resource["name"]: resource.get("openness_check") for resource in shown["resources"]}


def _start(user: dict, identifier: str, **data) -> dict:
    return call_action("passport_openness_check", {"user": user["name"], "ignore_auth": False}, id=identifier, **data)


def _checked(user: dict, identifier: str) -> None:
    """Run the check as ``user`` (a sysadmin may read the local server) through a real jobs worker."""
    _start(user, identifier, allow_private_addresses=user.get("sysadmin", False))
    run_worker_burst()


@pytest.fixture
def clean_openness_counts():
    """No openness check counted against anyone by an earlier test."""
    redis = connect_to_redis()
    for key in redis.scan_iter(actions.rate_limit_keys()):
        redis.delete(key)


stack = pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index", "clean_site_checks",
                                "clean_openness_counts")


@pytest.mark.stack
@stack
def test_the_check_is_queued_pending_and_read_by_the_jobs_worker_not_in_the_request(web, record, curator, sysadmin,
                                                                                 served):
    queued = _start(sysadmin, record["id"], allow_private_addresses=True)
    assert queued["queued"] is True and sorted(queued["resources"]) == sorted(r["id"] for r in record["resources"])
    assert served.log == []
    assert {name: result["pending"] for name, result in _stored(record).items()} == {"OKVED 2": True, "Obce": True}
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body
    assert page.count("passport-openness-pending") == 2

    run_worker_burst()

    assert _stored(record)["Obce"]["passed"] is True
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body
    assert "passport-openness-pending" not in page


@pytest.mark.stack
@stack
def test_windows_1251_csv_without_header_fails_utf8_and_header(record, sysadmin):
    _checked(sysadmin, record["id"])
    okved = _stored(record)["OKVED 2"]
    assert okved["passed"] is False
    assert _verdicts(okved["checks"]) == {
        "available": True, "utf8": False, "format": True, "one_table": True, "header": False,
        "consistent_rows": True,
    }
    assert okved["checks"][1]["detail"]["encoding"] == "windows-1251"


@pytest.mark.stack
@stack
def test_good_utf8_csv_passes_and_the_result_is_stored(record, sysadmin):
    _checked(sysadmin, record["id"])
    good = _stored(record)["Obce"]
    assert good["passed"] is True
    assert good["url"].endswith("/obce.csv")
    assert set(_verdicts(good["checks"]).values()) == {True}


@pytest.mark.stack
@stack
def test_one_resource_can_be_checked_alone(record, sysadmin):
    _checked(sysadmin, record["resources"][1]["id"])
    stored = _stored(record)
    assert stored["OKVED 2"] is None and stored["Obce"]["passed"] is True


@pytest.mark.stack
@stack
def test_unreachable_file_is_reported_as_not_available(record, sysadmin, served):
    served.clear()
    served.expect_request("/okved.csv").respond_with_data("gone", status=404)
    _checked(sysadmin, record["resources"][0]["id"])
    okved = _stored(record)["OKVED 2"]
    (available,) = okved["checks"]
    assert (available["code"], available["passed"], available["detail"]["status"]) == ("available", False, 404)
    assert available["detail"]["problem"]["code"] == "fetch.not_found"


@pytest.mark.stack
@stack
def test_an_unreachable_file_is_explained_in_the_reader_s_language(web, record, curator, sysadmin, served):
    served.clear()
    served.expect_request("/okved.csv").respond_with_data("gone", status=404)
    _checked(sysadmin, record["resources"][0]["id"])
    token = factories.APIToken(user=curator["name"])["token"]
    for locale, words in [("cs", "soubor nebyl nalezen (HTTP 404)"), ("ru", "файл не найден (HTTP 404)"),
                          ("en", "file not found (HTTP 404)")]:
        assert words in web.get(f"/{locale}/dataset/{record['name']}", headers={"Authorization": token}).body


@pytest.mark.stack
@stack
@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_only_curators_may_run_the_check(record, who):
    user = factories.User()["name"] if who == "outsider" else None
    with pytest.raises(NotAuthorized):
        call_action("passport_openness_check", {"user": user, "ignore_auth": False}, id=record["id"])


@pytest.mark.stack
@stack
def test_a_curator_s_check_never_reads_private_addresses_although_harvests_may(record, curator, served):
    # test.ini lets harvests read loopback servers (ckanext.passport.allow_private_addresses = true).
    _checked(curator, record["id"])
    okved = _stored(record)["OKVED 2"]
    assert okved["checks"][0]["passed"] is False
    assert okved["checks"][0]["detail"]["problem"]["code"] == "fetch.refused_address"
    assert served.log == []


@pytest.mark.stack
@stack
def test_only_a_sysadmin_may_ask_for_private_addresses(record, curator):
    with pytest.raises(NotAuthorized, match="site_check.private_sysadmin_only"):
        _start(curator, record["id"], allow_private_addresses=True)
    assert _stored(record) == {"OKVED 2": None, "Obce": None}


@pytest.mark.stack
@stack
def test_results_are_shown_beside_the_conditions_checklist(web, record, curator, sysadmin):
    _checked(sysadmin, record["id"])
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body
    checklist = page.index("passport-conditions")
    results = page.index("passport-openness-results")
    assert checklist < results
    assert "UTF-8 encoding" in page and "the text is in windows-1251" in page


@pytest.mark.stack
@stack
def test_a_curator_starts_the_check_from_the_dataset_page_and_sees_it_pending(web, record, curator):
    headers = {"Authorization": factories.APIToken(user=curator["name"])["token"]}
    client = web.test_client()  # one visitor, one cookie jar: the form's CSRF token is its session's
    page = client.get(f"/en/dataset/{record['name']}", headers=headers).body
    token = re.search(r'class="passport-openness-start[^>]*>\s*<input[^>]*name="_csrf_token" value="([^"]+)"',
                      page).group(1)
    answer = client.post(f"/dataset/{record['name']}/passport/openness-check", headers=headers,
                      data={"_csrf_token": token}, follow_redirects=False)
    assert answer.status_code == 302
    assert {name: result["pending"] for name, result in _stored(record).items()} == {"OKVED 2": True, "Obce": True}
    assert web.get(f"/en/dataset/{record['name']}", headers=headers).body.count("passport-openness-pending") == 2


@pytest.mark.stack
@stack
def test_a_visitor_who_may_not_run_the_check_may_not_post_it(web, record):
    outsider = {"Authorization": factories.APIToken(user=factories.User()["name"])["token"]}
    client = web.test_client()
    page = client.get("/passport/check", headers=outsider).body
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)
    answer = client.post(f"/dataset/{record['name']}/passport/openness-check", headers=outsider,
                         data={"_csrf_token": token})
    assert answer.status_code == 403
    assert _stored(record) == {"OKVED 2": None, "Obce": None}


# --- a bounded read: the file's first bytes, as they come -------------------------------------------------------

MIB = 1024 * 1024
# A table of each kind: its start, a block of rows repeated to the size wanted, its end, and a tail that breaks it.
TABLES = {
    "csv": (b"kod;nazev;pocet obyvatel\n", "{n};Obec č. {n};{n}\n", b"", b'1;2\n"unclosed;'),
    "json": (b'{"obce": [', '{{"kod": {n}, "nazev": "Obec č. {n}", "pocet": {n}}}, ', b'{"kod": 0}]}', b"]]]}}}"),
    "xml": (b"<obce>", "<obec kod='{n}'><nazev>Obec č. {n}</nazev><pocet>{n}</pocet></obec>", b"</obce>", b"</x><"),
}


def _table_file(folder: Path, kind: str, size: int) -> Path:
    """A table of ``size`` bytes written block by block, whose last bytes break it: only a reader that stops at
    its sample finds it good."""
    start, row, end, broken = TABLES[kind]
    block = "".join(row.format(n=n) for n in range(1000)).encode()
    path = folder / f"obce.{kind}"
    with path.open("wb") as out:
        out.write(start)
        for _ in range(size // len(block)):
            out.write(block)
        out.write(broken + end)
    return path


@pytest.mark.stack
@pytest.mark.usefixtures("shared_plugins")
@pytest.mark.parametrize("kind", ["csv", "json", "xml"])
def test_a_50_mib_file_is_judged_by_its_sample_in_flat_memory(tmp_path, serve_site, kind):
    site = serve_site(_table_file(tmp_path, kind, 50 * MIB).parent)  # the standard file server ignores Range
    resource = {"id": "r", "url": f"{site.url}/obce.{kind}", "format": kind.upper()}

    tracemalloc.start()
    try:
        result = jobs.check_resource(resource, settings.site_check_fetch_policy(True))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert result["passed"] is True, result["checks"]
    assert result["sample_bytes"] == settings.openness_sample_bytes() == 4 * MIB
    assert peak < 8 * MIB  # the whole file read and parsed took 50 MiB and hundreds more


@pytest.mark.stack
@stack
@pytest.mark.ckan_config("ckanext.passport.openness_sample_bytes", "1000")
def test_a_file_longer_than_the_sample_is_judged_by_it_and_the_page_says_so(web, record, curator, sysadmin):
    _checked(sysadmin, record["resources"][0]["id"])
    okved = _stored(record)["OKVED 2"]
    assert okved["sample_bytes"] == 1000 and okved["checks"][0]["passed"] is True
    token = factories.APIToken(user=curator["name"])["token"]
    page = web.get(f"/en/dataset/{record['name']}", headers={"Authorization": token}).body
    assert re.search(r'passport-openness-sample[^>]*>judged by the file(\'|&#39;)s first 1,000 bytes<', page)


# --- rate limits ----------------------------------------------------------------------------------------------------


@pytest.mark.stack
@stack
@pytest.mark.ckan_config("ckanext.passport.openness_rate_per_user", "2")
def test_a_user_s_third_check_within_the_window_is_refused_with_its_code(record, curator):
    org = model.Package.get(record["id"]).owner_org
    other = call_action("package_create", {"user": curator["name"]},
                        **complete_record(owner_org=org, name="obce-druhy",
                                        resources=[complete_resource(url="http://example.org/a.csv")]))
    _start(curator, record["id"])
    _start(curator, other["id"])
    with pytest.raises(ValidationError, match=r"\[openness.rate_user\] .*at most 2 in 60 min"):
        _start(curator, record["resources"][0]["id"])
    assert _stored(record)["OKVED 2"]["pending"] is True  # the refused check changed nothing


@pytest.mark.stack
@stack
@pytest.mark.ckan_config("ckanext.passport.openness_rate_per_record", "2")
def test_a_record_s_third_check_within_the_window_is_refused_whoever_asks(record, curator, sysadmin):
    _start(curator, record["id"])
    _start(sysadmin, record["resources"][1]["id"])
    with pytest.raises(ValidationError, match=r"\[openness.rate_record\] .*at most 2 checks in 60 min"):
        _start(curator, record["resources"][0]["id"])


@pytest.mark.stack
@stack
@pytest.mark.ckan_config("ckanext.passport.openness_rate_per_record", "0")
def test_the_dataset_page_s_button_past_the_limit_answers_429_in_the_reader_s_language(web, record, curator):
    headers = {"Authorization": factories.APIToken(user=curator["name"])["token"]}
    client = web.test_client()
    page = client.get(f"/cs/dataset/{record['name']}", headers=headers).body
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page).group(1)
    answer = client.post(f"/cs/dataset/{record['name']}/passport/openness-check", headers=headers,
                         data={"_csrf_token": token})
    assert answer.status_code == 429
    assert "[openness.rate_record] Datové zdroje tohoto záznamu byly kontrolovány" in answer.body
    assert _stored(record) == {"OKVED 2": None, "Obce": None}
