"""Every /lkod/ answer may be read by any site's scripts: the public LKOD validator runs in a browser."""
from __future__ import annotations

import pytest
from tests.support.lkod_view_records import LKOD_CONFIG

pytestmark = list(LKOD_CONFIG)


@pytest.mark.parametrize("url", ["/lkod/catalog", "/lkod/catalog?format=ttl", "/lkod/", "/lkod/dataset/no-such-id"])
def test_every_answer_allows_any_origin(web, url):
    response = web.get(url, headers={"Origin": "https://data.gov.cz"})

    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_a_preflight_for_a_conditional_request_is_answered(web):
    response = web.options("/lkod/catalog", headers={
        "Origin": "https://data.gov.cz",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
    })

    assert response.status_code in (200, 204)
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in response.headers["Access-Control-Allow-Methods"]
    assert "If-None-Match" in response.headers["Access-Control-Allow-Headers"]


def test_scripts_may_read_the_etag(web):
    assert "ETag" in web.get("/lkod/catalog").headers["Access-Control-Expose-Headers"]
