"""Each harvest source has its own HTTP session: a cookie one source's site sets never travels with another's.

Both sources read the same local site (one consumer process serves every source), through different
registries; only the first source's registry answer sets a cookie.
"""
from __future__ import annotations

import json

import pytest
from tests.support.fault_passports import valid_passport
from tests.support.http_site import Fault

pytestmark = [pytest.mark.stack]

INN = "7701234560"
STANDARD = "standardversion,Версия,http://opendata.gosmonitor.ru/standard/3.0,\n"


def _registry(identifier: str) -> str:
    return f"property,title,value,format\n{STANDARD}{identifier},Набор,/opendata/{identifier}/meta.json,json\n"


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("sessions")
    for name in ("first", "second"):
        folder = root / "opendata" / f"{INN}-{name}"
        folder.mkdir(parents=True)
        (folder / "meta.json").write_text(json.dumps(valid_passport(f"{INN}-{name}", name), ensure_ascii=False),
                                          "utf-8")
    (root / "opendata" / "second.csv").write_text(_registry(f"{INN}-second"), "utf-8")
    cookie = Fault(body=_registry(f"{INN}-first").encode("utf-8"), content_type="text/csv; charset=utf-8",
                   headers=(("Set-Cookie", "visitor=first-source; Path=/"),))
    return serve_site(root, {"/opendata/first.csv": cookie})


def test_a_cookie_set_for_one_source_is_not_sent_for_another(stack_once, shared_site, harvest_source, run_harvest):
    first, second = (
        harvest_source(f"{shared_site.url}/opendata/{name}.csv", name=f"cookie-{name}",
                       config={"registry_url": f"{shared_site.url}/opendata/{name}.csv", "allow_private_addresses": True})
        for name in ("first", "second")
    )

    run_harvest(first)
    read_by_first = len(shared_site.cookies)
    run_harvest(second)

    by_first, by_second = shared_site.cookies[:read_by_first], shared_site.cookies[read_by_first:]
    assert ("/opendata/7701234560-first/meta.json", "visitor=first-source") in by_first
    assert [path for path, _ in by_second] == ["/opendata/second.csv", "/opendata/7701234560-second/meta.json"]
    assert all(cookie == "" for _, cookie in by_second)
