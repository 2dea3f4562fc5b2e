"""Who may check a site and how often, which addresses a check reads, and how a check that cannot end says so."""
from __future__ import annotations

import datetime
import json
import threading
import time

import pytest
import sqlalchemy as sa
from ckan import model
from ckan.logic import NotAuthorized, ValidationError
from ckan.tests import factories
from tests.support.http_site import Fault
from tests.support.site_check_jobs import act, clean_site_checks, home_site, refusal, shown  # noqa: F401

from ckanext.passport.conformance.site_check import job as site_check_job
from ckanext.passport.conformance.site_check.model import SiteCheck, add

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks"),
]

PUBLIC_SITE = "https://opendata.example.ru/opendata/"  # never fetched: the checks below stay queued
# Naming neither the host (the caller gave it) nor what it resolves to; saying who could check it.
PRIVATE_REFUSAL = ("url: [site_check.private_address] This address is on a private, local or special-purpose network, "
                   "and the site check reads only public sites. A sysadmin of the portal can check it, with the option "
                   "to read private addresses.")


@pytest.fixture
def user():
    return factories.User()


# --- who may check, who may read -----------------------------------------------------------------------------


def test_a_signed_in_user_starts_a_check_and_gets_its_id(user):
    started = act(user, "passport_site_check", url=PUBLIC_SITE)
    assert set(started) == {"id"}
    check = act(user, "passport_site_check_show", id=started["id"])
    assert (check["status"], check["progress"], check["report"]) == ("queued", {"done": 0, "total": 0}, None)


def test_anonymous_visitors_may_not_check_when_the_check_is_not_public(user):
    with pytest.raises(NotAuthorized, match=r"site_check.sign_in"):
        act(None, "passport_site_check", url=PUBLIC_SITE)


def test_a_check_s_link_is_shared_with_anyone_who_has_it_signed_in_or_not(user):
    started = act(user, "passport_site_check", url=PUBLIC_SITE)
    assert act(None, "passport_site_check_show", id=started["id"])["url"] == PUBLIC_SITE
    assert act(factories.User(), "passport_site_check_show", id=started["id"])["url"] == PUBLIC_SITE


def test_a_check_that_read_private_addresses_is_for_sysadmins_only(user):
    started = act(factories.Sysadmin(), "passport_site_check", url=PUBLIC_SITE, allow_private_addresses=True)
    for reader in (None, user):
        with pytest.raises(NotAuthorized, match=r"site_check.private_sysadmin_only"):
            act(reader, "passport_site_check_show", id=started["id"])
    assert act(factories.Sysadmin(), "passport_site_check_show", id=started["id"])["url"] == PUBLIC_SITE


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
def test_anonymous_visitors_check_and_read_when_the_check_is_public(user):
    started = act(None, "passport_site_check", url=PUBLIC_SITE)
    assert act(None, "passport_site_check_show", id=started["id"])["status"] == "queued"
    assert SiteCheck.get(started["id"]).user_id is None


def test_an_unknown_check_is_not_found(user):
    from ckan.logic import NotFound

    with pytest.raises(NotFound):
        act(user, "passport_site_check_show", id="no-such-check")


# --- what a check may read -----------------------------------------------------------------------------------


@pytest.mark.parametrize("url, code", [
    ("", "site_check.url_missing"),
    ("   ", "site_check.url_missing"),
    ("opendata.example.ru", "site_check.url_invalid"),
    ("ftp://opendata.example.ru/", "site_check.url_invalid"),
    ("https://", "site_check.url_invalid"),
    ("https://opendata.example.ru:99999/", "site_check.url_invalid"),
    ("https://opendata.example.ru/a b", "site_check.url_invalid"),
    ("https://opendata.example.ru/" + "a" * 2000, "site_check.url_too_long"),
])
def test_a_bad_address_is_refused_with_its_code(user, url, code):
    with pytest.raises(ValidationError) as raised:
        act(user, "passport_site_check", url=url)
    assert refusal(raised).startswith(f"url: [{code}] ")


def test_a_bad_address_is_refused_in_the_readers_language(web, user):
    token = factories.APIToken(user=user["name"])["token"]
    answer = web.post("/cs/api/3/action/passport_site_check", json={"url": "ftp://example.ru/"},
                      headers={"Authorization": token}, status=409)
    [message] = answer.json["error"]["url"]
    assert message.startswith("[site_check.url_invalid] 'ftp://example.ru/' není webová adresa")


def test_a_user_may_not_check_a_private_address_although_harvests_may(user, home_site):
    # test.ini lets harvests read loopback servers (ckanext.passport.allow_private_addresses = true).
    with pytest.raises(ValidationError) as raised:
        act(user, "passport_site_check", url=home_site.url + "/opendata/")
    assert refusal(raised) == PRIVATE_REFUSAL
    with pytest.raises(ValidationError, match="site_check.private_address"):
        act(user, "passport_site_check", url="http://localhost:8080/opendata/")
    assert model.Session.query(SiteCheck).count() == 0


def test_a_refused_host_name_is_refused_without_the_address_it_resolves_to(user):
    """Where an internal name points is the portal's network plan, not the visitor's to learn."""
    with pytest.raises(ValidationError) as raised:
        act(user, "passport_site_check", url="http://localhost:8080/opendata/")
    assert refusal(raised) == PRIVATE_REFUSAL


def test_a_host_lookup_that_does_not_answer_does_not_hold_the_request_that_starts_a_check(user, monkeypatch):
    from ckanext.passport.mr import addresses

    real = addresses.socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "slow-dns.test":
            time.sleep(10)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)
    started = time.monotonic()
    check = act(user, "passport_site_check", url="http://slow-dns.test/opendata/")

    assert set(check) == {"id"}
    assert time.monotonic() - started < 8


def test_only_a_sysadmin_may_ask_for_private_addresses(user, home_site):
    with pytest.raises(NotAuthorized, match="site_check.private_sysadmin_only"):
        act(user, "passport_site_check", url=home_site.url + "/opendata/", allow_private_addresses=True)
    started = act(factories.Sysadmin(), "passport_site_check", url=home_site.url + "/opendata/",
                  allow_private_addresses=True)
    assert SiteCheck.get(started["id"]).allow_private_addresses is True


def test_the_job_of_a_check_without_private_addresses_refuses_them_while_reading(user, home_site):
    """A name that resolves to a private address only when the job reads it (or a redirect there) meets the
    fetch guard itself: the check's policy refuses private addresses whatever the site option says."""
    check = add(home_site.url + "/opendata/", "127.0.0.1", None, allow_private_addresses=False)
    site_check_job.run(check.id)

    done = shown(check.id)
    assert done["status"] == "finished"
    assert "fetch.refused_address" in json.dumps(done["report"])
    assert home_site.hits == []


# --- how often -----------------------------------------------------------------------------------------------


@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_user", "2")
@pytest.mark.ckan_config("ckanext.passport.site_check_rate_window", "600")
def test_a_user_may_start_so_many_checks_per_window(user):
    for number in range(2):
        act(user, "passport_site_check", url=f"https://site{number}.example.ru/")
    with pytest.raises(ValidationError) as raised:
        act(user, "passport_site_check", url="https://site3.example.ru/")
    assert refusal(raised) == ("rate_limit: [site_check.rate_user] You have used up your site checks "
                               "(at most 2 in 10 min); please try again later.")
    act(factories.User(), "passport_site_check", url="https://site3.example.ru/")


@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_host", "2")
def test_a_host_is_checked_so_many_times_per_window_whoever_asks(user):
    act(user, "passport_site_check", url="https://opendata.example.ru/opendata/")
    act(factories.User(), "passport_site_check", url="https://OPENDATA.example.ru/opendata/list.csv")
    with pytest.raises(ValidationError) as raised:
        act(factories.User(), "passport_site_check", url="https://opendata.example.ru/")
    assert refusal(raised).startswith("rate_limit: [site_check.rate_host] opendata.example.ru has been checked")
    act(user, "passport_site_check", url="https://opendata.example.cz/")


@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_host", "1")
@pytest.mark.parametrize("first, second", [
    ("https://opendata.example.ru/", "https://opendata.example.ru./opendata/"),
    ("https://пример.рф/", "https://xn--e1afmkfd.xn--p1ai/opendata/"),
    ("https://пример.рф/", "https://ПРИМЕР.РФ./"),
    ("https://93.184.215.14/", "https://[::ffff:93.184.215.14]/"),
    ("https://93.184.215.14/", "https://1572394766/"),
    ("https://[2a00:1450:4001:82b::200e]/", "https://[2A00:1450:4001:082B:0:0:0:200E]/"),
])
def test_spellings_of_one_host_share_its_limit(user, first, second):
    act(user, "passport_site_check", url=first)
    with pytest.raises(ValidationError) as raised:
        act(factories.User(), "passport_site_check", url=second)
    assert refusal(raised).startswith("rate_limit: [site_check.rate_host] ")


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_user", "1")
def test_anonymous_visitors_are_counted_by_their_address(web):
    first = web.post("/api/3/action/passport_site_check", json={"url": "https://a.example.ru/"},
                     environ_base={"REMOTE_ADDR": "203.0.113.7"})
    assert first.status_code == 200
    again = web.post("/api/3/action/passport_site_check", json={"url": "https://b.example.ru/"},
                     environ_base={"REMOTE_ADDR": "203.0.113.7"}, status=409)
    assert again.json["error"]["rate_limit"][0].startswith("[site_check.rate_user]")
    other = web.post("/api/3/action/passport_site_check", json={"url": "https://b.example.ru/"},
                     environ_base={"REMOTE_ADDR": "203.0.113.8"})
    assert other.status_code == 200


def _anonymous_check(app, url: str, forwarded_for: str, status: int = 200):
    # Both requests come from one reverse proxy at 10.0.0.2; only the header names the client.
    return app.post("/api/3/action/passport_site_check", json={"url": url}, status=status,
                    environ_base={"REMOTE_ADDR": "10.0.0.2"}, headers={"X-Forwarded-For": forwarded_for})


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_user", "1")
@pytest.mark.ckan_config("ckanext.passport.trusted_proxies", "1")
def test_behind_a_trusted_proxy_anonymous_visitors_are_counted_by_the_address_it_forwards(web):
    _anonymous_check(web, "https://a.example.ru/", "203.0.113.7")
    _anonymous_check(web, "https://b.example.ru/", "203.0.113.8")
    # A client's own X-Forwarded-For comes first; the proxy appends the address it saw.
    again = _anonymous_check(web, "https://c.example.ru/", "198.51.100.1, 203.0.113.7", status=409)
    assert again.json["error"]["rate_limit"][0].startswith("[site_check.rate_user]")


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_user", "1")
def test_without_trusted_proxies_a_forwarded_address_gives_no_fresh_bucket(web):
    _anonymous_check(web, "https://a.example.ru/", "203.0.113.7")
    again = _anonymous_check(web, "https://b.example.ru/", "203.0.113.8", status=409)
    assert again.json["error"]["rate_limit"][0].startswith("[site_check.rate_user]")


def test_a_refused_address_does_not_use_up_the_limit(user):
    for _ in range(12):
        with pytest.raises(ValidationError):
            act(user, "passport_site_check", url="not an address")
    act(user, "passport_site_check", url=PUBLIC_SITE)


# --- how much -----------------------------------------------------------------------------------------------


@pytest.mark.ckan_config("ckanext.passport.site_check_max_passports", "2")
def test_a_check_reads_at_most_so_many_passports_of_a_registry(home_site):
    started = act(factories.Sysadmin(), "passport_site_check", url=home_site.url + "/opendata/",
                  allow_private_addresses=True)
    site_check_job.run(started["id"])  # in this process, so that it reads this test's option

    check = shown(started["id"])
    assert check["progress"] == {"done": 2, "total": 2}
    assert (check["report"]["registry_size"], len(check["report"]["passports"])) == (6, 2)


@pytest.mark.ckan_config("ckanext.passport.site_check_passport_budget", "2")
@pytest.mark.ckan_config("ckanext.passport.timeout", "60")
def test_all_fetches_of_one_passport_share_its_budget(home_site):
    # The passport's meta.json answers only after 60 s; its other forms and its data files would be tried after it.
    slow = "/opendata/2618017120-politicaldivisions/meta.json"
    released = threading.Event()
    home_site.fault(slow, Fault(hold=released, delay=60))
    check = add(home_site.url + "/opendata/", "127.0.0.1", None, allow_private_addresses=True)
    started = time.monotonic()
    try:
        site_check_job.run(check.id)
    finally:
        released.set()

    assert time.monotonic() - started < 40
    report = shown(check.id)["report"]
    [entry] = [e for e in report["passports"] if e["identifier"] == "2618017120-politicaldivisions"]
    assert entry["score"] is None
    assert "fetch.timeout" in {found["code"] for found in entry["findings"]}
    assert report["summary"]["read"] == report["summary"]["passports"] - 1


# --- a check that cannot end ---------------------------------------------------------------------------------


def test_an_error_inside_the_job_ends_the_check_as_failed_with_a_code(user, monkeypatch):
    started = act(user, "passport_site_check", url=PUBLIC_SITE)

    def broken(*args, **kwargs):
        raise KeyError("an internal secret path /srv/ckan/x.py")

    monkeypatch.setattr(site_check_job, "check_site", broken)
    site_check_job.run(started["id"])

    check = shown(started["id"])
    assert check["status"] == "failed"
    assert check["report"] is None
    assert check["failure"]["code"] == "site_check.failed"
    assert "KeyError" in check["failure"]["message"]
    assert "/srv/ckan" not in json.dumps(check) and "Traceback" not in json.dumps(check)
    assert check["finished"] is not None


@pytest.fixture
def stopped_check(user) -> str:
    """A check still marked running five minutes after it started (tests set a 60 s timeout): its worker stopped."""
    started = act(user, "passport_site_check", url=PUBLIC_SITE)
    check = SiteCheck.get(started["id"])
    check.status, check.started = "running", datetime.datetime.utcnow() - datetime.timedelta(minutes=5)
    model.Session.commit()
    return started["id"]


@pytest.mark.ckan_config("ckanext.passport.site_check_timeout", "60")
def test_a_check_running_long_after_its_timeout_is_shown_as_failed(stopped_check):
    shown_check = shown(stopped_check)
    assert (shown_check["status"], shown_check["failure"]["code"]) == ("failed", "site_check.timed_out")


def _rows() -> list[tuple]:
    model.Session.remove()
    return [tuple(row) for row in model.Session.execute(
        sa.text("SELECT * FROM passport_site_check ORDER BY id")).fetchall()]


@pytest.mark.ckan_config("ckanext.passport.site_check_timeout", "60")
def test_reading_a_check_its_worker_stopped_writes_nothing(web, stopped_check):
    before = _rows()

    assert shown(stopped_check)["status"] == "failed"
    assert web.get(f"/api/3/action/passport_site_check_show?id={stopped_check}").json["result"]["status"] == "failed"
    assert _rows() == before


@pytest.mark.ckan_config("ckanext.passport.site_check_timeout", "60")
def test_the_jobs_worker_writes_down_a_check_it_stopped(stopped_check):
    site_check_job.run("another-check")

    model.Session.remove()
    kept = SiteCheck.get(stopped_check)
    assert (kept.status, json.loads(kept.failure)["code"]) == ("failed", "site_check.timed_out")
    assert kept.finished == kept.started + datetime.timedelta(seconds=60)


def test_a_job_for_a_check_already_taken_does_nothing(user, monkeypatch):
    started = act(user, "passport_site_check", url=PUBLIC_SITE)
    check = SiteCheck.get(started["id"])
    check.status = "finished"
    model.Session.commit()
    monkeypatch.setattr(site_check_job, "check_site", lambda *a, **k: pytest.fail("the check ran twice"))
    site_check_job.run(started["id"])
