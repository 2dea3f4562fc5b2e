"""What site checks may take of the portal and of the sites they read: their own queue with a cap on checks waiting or
running, a per-host limit keyed by registrable domain and resolved address that every host a check reads counts
toward, and anonymous visitors counted by IPv4 address or IPv6 /64."""
from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
import requests
from ckan.lib import jobs
from ckan.logic import ValidationError
from ckan.tests import factories
from tests.support.site_check_jobs import act, clean_site_checks, refusal, shown  # noqa: F401 (fixture)

from ckanext.passport import rate_limits
from ckanext.passport.conformance.site_check import job as site_check_job

pytestmark = [
    pytest.mark.stack,
    pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_site_checks"),
]

ROOT = Path(__file__).resolve().parents[2]
PER_HOST = "ckanext.passport.site_check_rate_per_host"
# A loopback address no test server listens on: a host of its own, besides the servers' 127.0.0.1.
OTHER_HOST = "127.0.0.2"


@pytest.fixture
def user():
    return factories.User()


@pytest.fixture
def sysadmin():
    return factories.Sysadmin()


def private_check(sysadmin, url: str) -> dict:
    """A sysadmin's check that may read the tests' loopback servers."""
    return act(sysadmin, "passport_site_check", url=url, allow_private_addresses=True)


@pytest.fixture
def registry_elsewhere(tmp_path, serve_site):
    """A registry on the local server whose one passport is on another host (:data:`OTHER_HOST`, same port)."""

    def serve():
        root = tmp_path / "registry"
        (root / "opendata").mkdir(parents=True)
        site = serve_site(root)
        port = site.url.rsplit(":", 1)[1]
        (root / "opendata" / "list.csv").write_text(
            "property,title,value,format\n"
            "standardversion,Версия методических рекомендаций,http://opendata.gosmonitor.ru/standard/3.0,\n"
            f"7708234640-okvedva,ОКВЭД2,http://{OTHER_HOST}:{port}/opendata/7708234640-okvedva/meta.csv,csv\n",
            "utf-8")
        return site, f"http://{OTHER_HOST}:{port}/"

    return serve


# --- the queue -----------------------------------------------------------------------------------------------


def test_a_check_is_queued_on_the_site_checks_own_queue_not_the_default_one(user):
    started = act(user, "passport_site_check", url="https://opendata.example.ru/")

    queued = [list(job.args) for job in jobs.get_queue(site_check_job.QUEUE).jobs]
    assert queued == [[started["id"]]]
    assert jobs.get_queue().jobs == []


def test_make_demo_and_the_readmes_process_table_start_a_worker_on_the_site_checks_queue():
    script = (ROOT / "dev" / "demo.sh").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")

    started = re.search(rf'^start (\S+) "\$ROOT/dev/supervise.sh" "\$BIN/ckan" jobs worker {site_check_job.QUEUE}$',
                        script, re.MULTILINE)
    assert started is not None
    assert started.group(1) in re.search(r"^PROCESSES=\((.*)\)$", script, re.MULTILINE).group(1).split()
    assert f"| site checks | `ckan -c ckan.ini jobs worker {site_check_job.QUEUE}` |" in readme


@pytest.mark.ckan_config("ckanext.passport.site_check_max_queued", "2")
def test_a_check_is_refused_while_as_many_as_the_site_takes_wait_or_run(user):
    act(user, "passport_site_check", url="https://opendata.example.ru/")
    act(factories.User(), "passport_site_check", url="https://data.example.cz/")

    with pytest.raises(ValidationError) as raised:
        act(factories.User(), "passport_site_check", url="https://opendata.example.org/")
    assert refusal(raised) == ("rate_limit: [site_check.busy] The portal is already running as many site checks as "
                               "it takes at once (2 waiting or running); please try again in a few minutes.")
    assert len(jobs.get_queue(site_check_job.QUEUE).jobs) == 2


# --- hosts -----------------------------------------------------------------------------------------------------


@pytest.mark.ckan_config(PER_HOST, "1")
def test_subdomains_of_one_registrable_domain_share_one_host_limit(user):
    """By the Public Suffix List: b.example.org is example.org's, but github.io is a suffix (of the list's private
    section), so a.github.io and b.github.io are two owners' hosts."""
    act(user, "passport_site_check", url="https://a.example.org/opendata/")
    with pytest.raises(ValidationError) as raised:
        act(factories.User(), "passport_site_check", url="https://b.example.org/opendata/")
    assert refusal(raised).startswith("rate_limit: [site_check.rate_host] b.example.org has been checked")
    act(user, "passport_site_check", url="https://a.github.io/opendata/")
    act(factories.User(), "passport_site_check", url="https://b.github.io/opendata/")


def test_two_names_resolving_to_one_address_share_its_key():
    addresses = {"portal-a.example": ["93.184.215.14"], "portal-b.example": ["93.184.215.14", "2a00:1450:4001:82b::1"],
                 "portal-c.example": ["2a00:1450:4001:82b::ff"]}

    def keys(host: str) -> list[str]:
        return rate_limits.host_keys(host, lambda name: addresses[name])

    assert keys("portal-a.example") == ["portal-a.example", "93.184.215.14"]
    assert set(keys("portal-a.example")) & set(keys("portal-b.example")) == {"93.184.215.14"}
    assert set(keys("portal-b.example")) & set(keys("portal-c.example")) == {"2a00:1450:4001:82b::/64"}


@pytest.mark.ckan_config(PER_HOST, "1")
def test_a_name_and_the_address_it_resolves_to_share_one_host_limit(sysadmin):
    private_check(sysadmin, "http://127.0.0.1:8080/opendata/")
    with pytest.raises(ValidationError) as raised:
        private_check(sysadmin, "http://localhost:8080/opendata/")
    assert refusal(raised).startswith("rate_limit: [site_check.rate_host] localhost has been checked")


def test_the_public_suffix_list_is_the_packages_own_copy_and_never_fetched(monkeypatch):
    def no_network(*args, **kwargs):
        raise AssertionError("the Public Suffix List was fetched")

    monkeypatch.setenv("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "https://publicsuffix.org/list/public_suffix_list.dat")
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(requests.Session, "request", no_network)
    rate_limits._public_suffixes.cache_clear()
    try:
        assert [rate_limits.registrable_domain(host) for host in ("a.opendata.mos.ru", "b.github.io", "пример.рф")] \
            == ["mos.ru", "b.github.io", "xn--e1afmkfd.xn--p1ai"]
    finally:
        rate_limits._public_suffixes.cache_clear()


@pytest.mark.ckan_config(PER_HOST, "1")
def test_a_host_a_registry_lists_counts_toward_its_own_limit(sysadmin, registry_elsewhere):
    site, other = registry_elsewhere()
    started = private_check(sysadmin, site.url + "/opendata/list.csv")
    site_check_job.run(started["id"])  # in this process, so that it reads this test's option
    assert shown(started["id"])["status"] == "finished"

    with pytest.raises(ValidationError) as raised:
        private_check(sysadmin, other)
    assert refusal(raised).startswith(f"rate_limit: [site_check.rate_host] {OTHER_HOST} has been checked")


@pytest.mark.ckan_config(PER_HOST, "1")
def test_a_listed_host_past_its_limit_is_left_unread_with_its_finding(sysadmin, registry_elsewhere):
    site, other = registry_elsewhere()
    private_check(sysadmin, other)
    started = private_check(sysadmin, site.url + "/opendata/list.csv")
    site_check_job.run(started["id"])

    report = json.dumps(shown(started["id"])["report"], ensure_ascii=False)
    assert '"code": "site_check.host_limited"' in report
    assert f"{OTHER_HOST} was not read: site checks have read it as often as allowed in 60 min (the limit is 1)" \
        in report


# --- anonymous visitors ----------------------------------------------------------------------------------------


def anonymous_check(app, url: str, address: str, status: int = 200):
    return app.post("/api/3/action/passport_site_check", json={"url": url}, status=status,
                    environ_base={"REMOTE_ADDR": address})


@pytest.mark.ckan_config("ckanext.passport.site_check_public", "true")
@pytest.mark.ckan_config("ckanext.passport.site_check_rate_per_user", "1")
def test_ipv6_visitors_in_one_64_share_a_limit_and_another_64_has_its_own(web):
    anonymous_check(web, "https://a.example.ru/", "2001:db8:1:2::1")
    again = anonymous_check(web, "https://b.example.ru/", "2001:db8:1:2:ffff:ffff:ffff:fffe", status=409)
    assert again.json["error"]["rate_limit"][0].startswith("[site_check.rate_user]")
    anonymous_check(web, "https://b.example.ru/", "2001:db8:1:3::1")


@pytest.mark.parametrize("address, key", [
    ("203.0.113.7", "203.0.113.7"),
    ("::ffff:203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
])
def test_a_client_is_keyed_by_its_ipv4_address_or_its_ipv6_64(address, key):
    assert rate_limits.address_key(address) == key
