"""A page of a source's conformance report is the slice of the whole report its filter and order select, and costs
that page: the Conformance tab reads, corrects and renders only the passports it shows, whatever the job's size.

The demo site (six passports, all read) is harvested twice, the second job finding every passport unchanged; the
Predgorny district's registry (one passport missing, one refused: the demo source holds its identifier) once.
"""
from __future__ import annotations

import itertools
import shutil

import pytest
from ckan.plugins import toolkit
from ckan.tests.helpers import call_action
from ckanext.harvest.model import HarvestJob
from tests.support.demo_site import DEMO_SITE, IDENTIFIERS

from ckanext.passport.conformance.harvest import fixed as harvest_fixed
from ckanext.passport.conformance.harvest import report as harvest_report
from ckanext.passport.conformance.harvest import views as harvest_views
from ckanext.passport.harvest import stored

pytestmark = [pytest.mark.stack]

ALLOW = {"allow_private_addresses": True}
PREDGOR_HOST = "http://opendata.predgor-ray.ru"
SORTS = ("", "score", "-score", "identifier")
PAGES = ((0, 2), (2, 2), (1, 4), (5, 10), (20, 3), (0, 0))


@pytest.fixture(scope="module")
def demo(stack_once, tmp_path_factory, serve_site, harvest_source, run_harvest):
    """The demo source, harvested twice: (source, first job, second job)."""
    root = tmp_path_factory.mktemp("demo") / "site"
    shutil.copytree(DEMO_SITE, root)
    site = serve_site(root)
    source = harvest_source(f"{site.url}/opendata/list.csv", ALLOW, name="demo-pages")
    _, first = run_harvest(source)
    _, second = run_harvest(source)
    return source, first, second


@pytest.fixture(scope="module")
def predgor(demo, tmp_path_factory, serve_site, harvest_source, run_harvest):
    """A source with a passport not read and one refused, beside one job's worth of the demo source's."""
    root = tmp_path_factory.mktemp("predgor") / "predgor"
    shutil.copytree(DEMO_SITE.parent.parent / "tests" / "fixtures" / "real" / "predgor", root)
    served = serve_site(root)
    registry = root / "list.json"
    registry.write_text(registry.read_text("utf-8").replace(PREDGOR_HOST, served.url), "utf-8")
    source = harvest_source(f"{served.url}/list.json", ALLOW | {"registry_url": f"{served.url}/list.json"},
                            name="predgor-pages")
    run_harvest(source)
    return source


def _report(source, **params):
    return call_action("passport_conformance_report", id=source["name"], **params)


def _expected(whole, code="", severity="", sort="", offset=0, limit=None):
    """What the selection should list, from the whole report: the filter narrowing each passport's findings, the
    order the action documents (stable over the registry's order), then the slice."""
    entries = whole["passports"]
    if code or severity:
        entries = [{**entry, "findings": found} for entry in entries
                   if (found := [f for f in entry["findings"] if (not code or f["code"] == code)
                                 and (not severity or f["severity"] == severity)])]
    keys = {"score": lambda e: (e["score"] is not None, e["score"] or 0, e["identifier"]),
            "-score": lambda e: (e["score"] is None, -(e["score"] or 0), e["identifier"]),
            "identifier": lambda e: (e["identifier"],)}
    if sort:
        entries = sorted(entries, key=keys[sort])
    return len(entries), entries[offset:None if limit is None else offset + limit]


def _filters(whole):
    """No filter, the most frequent code, the least frequent one, and each severity found."""
    codes = list(whole["summary"]["by_code"])
    severities = sorted({f["severity"] for entry in whole["passports"] for f in entry["findings"]})
    return [{}, {"code": codes[0]}, {"code": codes[-1]}, *({"severity": s} for s in severities),
            {"code": codes[0], "severity": "error"}]


@pytest.mark.parametrize("sort", SORTS)
def test_a_page_is_the_slice_of_the_whole_report_its_filter_and_order_select(demo, predgor, sort):
    for source in (demo[0], predgor):
        whole = _report(source)
        for selection, (offset, limit) in itertools.product(_filters(whole), PAGES):
            page = _report(source, sort=sort, offset=offset, limit=limit, **selection)
            count, expected = _expected(whole, sort=sort, offset=offset, limit=limit, **selection)
            assert page["passports"] == expected, (source["name"], selection, offset, limit)
            assert page["count"] == count


def test_without_a_limit_the_selection_lists_every_passport_it_selects(demo):
    source, _, _ = demo
    whole = _report(source)
    code = next(iter(whole["summary"]["by_code"]))
    narrowed = _report(source, code=code, sort="-score")
    assert narrowed["passports"] == _expected(whole, code=code, sort="-score")[1]
    assert narrowed["count"] == len(narrowed["passports"]) == whole["summary"]["by_code"][code]
    assert whole["count"] == len(whole["passports"]) == len(IDENTIFIERS)


def test_every_page_has_the_whole_jobs_summary_problems_and_scores(predgor):
    whole = _report(predgor)
    assert whole["scores"] == [entry["score"] for entry in whole["passports"] if not entry["refused"]]
    for offset, limit in PAGES:
        page = _report(predgor, offset=offset, limit=limit, severity="error")
        assert page["summary"] == whole["summary"]
        assert page["scores"] == whole["scores"] and page["problems"] == whole["problems"]


def test_a_page_of_an_unchanged_reharvest_is_the_first_jobs_page(demo):
    source, first, second = demo
    for sort, (offset, limit) in itertools.product(SORTS, PAGES):
        before = _report(source, job_id=first["id"], sort=sort, offset=offset, limit=limit)
        after = _report(source, job_id=second["id"], sort=sort, offset=offset, limit=limit)
        assert after["passports"] == before["passports"] and after["count"] == before["count"]


def test_the_api_takes_the_selection_as_query_args(demo, web):
    source, _, _ = demo
    body = web.get(f"/api/3/action/passport_conformance_report?id={source['name']}&sort=identifier&offset=1"
                   "&limit=2").json["result"]
    assert [entry["identifier"] for entry in body["passports"]] == sorted(IDENTIFIERS)[1:3]
    assert body["count"] == len(IDENTIFIERS)


@pytest.mark.parametrize("name, value", [("sort", "worst"), ("severity", "fatal"), ("limit", "-1"),
                                         ("offset", "first"), ("limit", "2.5")])
def test_a_selection_the_report_does_not_know_is_refused(demo, name, value):
    source, _, _ = demo
    with pytest.raises(toolkit.ValidationError) as refused:
        _report(source, **{name: value})
    assert name in refused.value.error_dict


@pytest.fixture
def counted(monkeypatch):
    """What a call did to passports: those read from the database into Python, deserialized and corrected."""
    calls = {"read": 0, "deserialized": 0, "corrected": 0}
    from_json, from_jsonable, correct = (stored.MrContent.from_json, harvest_report.serialize.passport_from_jsonable,
                                         harvest_fixed.correct)

    def read(text):
        content = from_json(text)
        calls["read"] += content.read
        return content

    def counting(name, call):
        def counted_call(*args, **kwargs):
            calls[name] += 1
            return call(*args, **kwargs)
        return counted_call

    monkeypatch.setattr(stored.MrContent, "from_json", staticmethod(read))
    monkeypatch.setattr(harvest_report.serialize, "passport_from_jsonable", counting("deserialized", from_jsonable))
    monkeypatch.setattr(harvest_fixed, "correct", counting("corrected", correct))
    return calls


def test_a_tab_view_reads_and_corrects_only_the_passports_of_its_page(demo, web, monkeypatch, counted):
    monkeypatch.setattr(harvest_views, "PAGE_SIZE", 2)
    source, _, _ = demo
    page = web.get(f"/harvest/{source['name']}/conformance?sort=identifier&page=2").body
    assert page.count('class="passport-conformance-row"') == 2
    assert counted == {"read": 2, "deserialized": 2, "corrected": 2}


def test_a_tab_view_of_an_unchanged_reharvest_reads_the_earlier_passports_of_its_page_only(demo, web, monkeypatch,
                                                                                          counted):
    monkeypatch.setattr(harvest_views, "PAGE_SIZE", 2)
    source, _, second = demo
    page = web.get(f"/harvest/{source['name']}/conformance?job_id={second['id']}&sort=-score").body
    assert page.count('class="passport-conformance-row"') == 2
    assert counted == {"read": 2, "deserialized": 2, "corrected": 2}


def test_the_summary_only_reads_no_passport(demo, counted):
    source, _, _ = demo
    body = _report(source, limit=0)
    assert body["passports"] == [] and body["count"] == len(IDENTIFIERS)
    assert body["summary"]["passports"] == len(IDENTIFIERS)
    assert counted == {"read": 0, "deserialized": 0, "corrected": 0}


def test_a_page_past_the_last_shows_the_last(demo, web, monkeypatch):
    monkeypatch.setattr(harvest_views, "PAGE_SIZE", 4)
    source, _, _ = demo
    page = web.get(f"/harvest/{source['name']}/conformance?sort=identifier&page=9").body
    assert page.count('class="passport-conformance-row"') == len(IDENTIFIERS) - 4
    assert 'rel="prev"' in page and 'rel="next"' not in page


@pytest.mark.parametrize("which", ("first", "unchanged", "unread and refused"))
def test_the_stream_a_report_counts_from_has_what_each_entry_read_in_full_has(demo, predgor, which):
    _, first, second = demo
    job = {"first": first, "unchanged": second}.get(which) or harvest_report.last_finished_job(predgor["id"])
    job = HarvestJob.get(job["id"]) if isinstance(job, dict) else job
    counted = list(harvest_report.counted_entries(job))
    whole = harvest_report.entries([entry.object_id for entry in counted], job.source_id)
    assert [(e.identifier, e.score, e.refused, sorted(e.findings)) for e in counted] == [
        (e.identifier, e.score, e.refused, sorted((p.code, p.severity.value) for p in e.problems)) for e in whole]
    assert len(counted) > 1
