"""A finished job of a passport source is summarized once, when ``harvest_jobs_run`` marks it finished: the numbers
of its report, its publisher, and whether it could read its registry at all."""
from __future__ import annotations

import shutil

import ckan.model as model
import pytest
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.demo_site import DEMO_SITE, IDENTIFIERS

from ckanext.harvest.model import HarvestJob, HarvestSource
from ckanext.passport.cli import passport as passport_cli
from ckanext.passport.conformance.harvest import report as harvest_report
from ckanext.passport.conformance.harvest.report import Counted
from ckanext.passport.conformance.scoreboard import summary
from ckanext.passport.conformance.scoreboard.model import FAILED, FINISHED, JobSummary

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("stack_once")]

ALLOW = {"allow_private_addresses": True}


@pytest.fixture(scope="module")
def site(stack_once, tmp_path_factory, serve_site):
    root = tmp_path_factory.mktemp("summary") / "site"
    shutil.copytree(DEMO_SITE, root)
    return serve_site(root)


@pytest.fixture(scope="module")
def harvested(site, harvest_source, run_harvest):
    """The demo site harvested twice (the second job finds every passport unchanged); the source and both jobs."""
    organization = factories.Organization(title="Demo municipality")
    source = harvest_source(f"{site.url}/opendata/list.csv", ALLOW, name="demo-summary",
                            owner_org=organization["id"])
    first = run_harvest(source)[1]
    second = run_harvest(source)[1]
    return source, first, second, organization


@pytest.fixture(scope="module")
def unreadable(site, harvest_source, run_harvest):
    """A source whose address holds no registry: its one job reads nothing."""
    source = harvest_source(f"{site.url}/no-registry-here/", ALLOW, name="no-registry")
    return source, run_harvest(source)[1]


def test_a_job_is_summarized_when_harvest_jobs_run_marks_it_finished(harvested):
    source, first, second, _ = harvested
    # Every finished job of the source, the two harvests' and any a test of this module ran since.
    finished = {job_id for (job_id,) in model.Session.query(HarvestJob.id).filter(
        HarvestJob.source_id == source["id"], HarvestJob.status == "Finished")}
    rows = model.Session.query(JobSummary).filter(JobSummary.source_id == source["id"]).all()
    assert {first["id"], second["id"]} <= finished
    assert {row.job_id for row in rows} == finished


def test_the_summary_has_the_numbers_of_the_jobs_report(harvested):
    source, first, second, _ = harvested
    for job in (first, second):
        report = call_action("passport_conformance_report", id=source["name"], job_id=job["id"])
        counts = report["summary"]
        kept = JobSummary.get(job["id"])
        assert (kept.listed, kept.read, kept.conformant, kept.refused, kept.mean_score) == (
            counts["passports"], counts["read"], counts["conformant"], counts["refused"], counts["mean_score"])
        assert kept.listed == len(IDENTIFIERS) and kept.mean_score is not None
        assert kept.codes == counts["by_code"]
        assert kept.errors == sum(1 for entry in report["passports"] for found in entry["findings"]
                                  if found["severity"] == "error")
        assert (kept.status, kept.failure_code, kept.organization_id) == (FINISHED, None, source["owner_org"])


def test_the_scoreboard_shows_the_last_jobs_report_numbers_for_its_publisher(harvested):
    source, _, second, _ = harvested
    counts = call_action("passport_conformance_report", id=source["name"])["summary"]
    key = JobSummary.get(second["id"]).publisher_key
    rows = call_action("passport_scoreboard", q="")["rows"]
    row = next(row for row in rows if row["publisher"] == key)
    assert (row["listed"], row["read"], row["conformant"], row["mean_score"]) == (
        counts["passports"], counts["read"], counts["conformant"], counts["mean_score"])
    assert [s["id"] for s in row["sources"]] == [source["id"]]
    assert row["codes"][0]["count"] == max(counts["by_code"].values())


def test_the_summary_is_the_same_row_when_made_again(harvested):
    _, first, _, _ = harvested
    before = {column: getattr(JobSummary.get(first["id"]), column) for column in JobSummary.__table__.columns.keys()}
    again = summary.summarize(first["id"])
    assert {column: getattr(again, column) for column in before} == before
    assert model.Session.query(JobSummary).filter(JobSummary.job_id == first["id"]).count() == 1


def test_a_job_is_summarized_without_reading_one_passport(harvested, monkeypatch):
    _, first, _, _ = harvested
    before = {column: getattr(JobSummary.get(first["id"]), column) for column in JobSummary.__table__.columns.keys()}
    read = []
    monkeypatch.setattr(harvest_report, "with_passports", lambda entries: read.append(entries) or list(entries))
    again = summary.summarize(first["id"])
    assert read == []
    assert {column: getattr(again, column) for column in before} == before


def test_a_source_whose_inns_no_organization_holds_is_its_organization_named_by_its_title(harvested):
    _, first, _, organization = harvested
    kept = JobSummary.get(first["id"])
    job = HarvestJob.get(first["id"])
    ids = [entry.object_id for entry in harvest_report.counted_entries(job)]
    creators = {entry.passport["creator"] for entry in harvest_report.with_passports(
        harvest_report.entries(ids, job.source_id)) if entry.passport}
    assert creators and kept.publisher_name not in creators
    assert (kept.publisher_key, kept.publisher_name) == (f"org:{organization['id']}", "Demo municipality")


def test_the_previous_summary_is_the_same_sources_job_before(harvested):
    _, first, second, _ = harvested
    assert summary.previous(JobSummary.get(second["id"])).job_id == first["id"]
    assert summary.previous(JobSummary.get(first["id"])) is None


def test_a_job_that_could_not_read_its_registry_is_failed_with_its_code(unreadable):
    source, job = unreadable
    kept = JobSummary.get(job["id"])
    assert (kept.status, kept.listed, kept.mean_score) == (FAILED, 0, None)
    assert kept.failure_code in summary.FAILURE_CODES
    assert kept.codes.get(kept.failure_code) == 1


def test_a_publisher_without_inn_is_its_sources_organization(harvested):
    source, _, _, organization = harvested
    # An identifier without a valid INN (check digit wrong, or none at all) names no publisher.
    passports = [Counted(object_id="o", identifier=i, score=None, refused=False, findings=())
                 for i in ("7708234641-a", "schools")]
    assert summary.publisher(passports, HarvestSource.get(source["id"]), organization["id"]) == (
        f"org:{organization['id']}", "Demo municipality")


def test_a_job_that_is_not_finished_is_not_summarized(harvested):
    source, _, _, _ = harvested
    job = HarvestJob(source_id=source["id"], status="Running")
    job.save()
    assert summary.summarize(job.id) is None and JobSummary.get(job.id) is None
    model.Session.delete(job)
    model.Session.commit()


def test_a_failure_to_summarize_does_not_fail_harvest_jobs_run(harvested, run_harvest, monkeypatch, cli):
    source, _, _, _ = harvested

    def broken(job_id: str) -> None:
        raise RuntimeError("summary store unavailable")

    monkeypatch.setattr(summary, "summarize", broken)
    results, job = run_harvest(source)
    assert job["status"] == "Finished" and JobSummary.get(job["id"]) is None
    monkeypatch.undo()
    # The job is summarized afterwards by the command, which then finds nothing more to do.
    assert summary.unsummarized(100) == [job["id"]]
    done = cli.invoke(passport_cli, ["scoreboard", "summarize"])
    assert (done.exit_code, done.output.strip()) == (0, "1 job summarized.")
    assert JobSummary.get(job["id"]).listed == len(IDENTIFIERS)
    assert cli.invoke(passport_cli, ["scoreboard", "summarize"]).output.strip() == "0 jobs summarized."
