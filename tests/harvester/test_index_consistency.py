"""The database and the search index agree after every harvest: a record is COMPLETE only when both stores took it,
an index write the database did not keep never stays in the index, and what one job failed to index the next job
indexes, unchanged passport or not; ``ckan passport check-index`` finds and repairs every kind of difference."""
from __future__ import annotations

import json
import os

import pytest
import sqlalchemy as sa
from ckan import model
from ckan.tests import factories
from ckan.tests.helpers import call_action
from tests.support.catalog_records import owned_record
from ckanext.harvest import queue
from ckanext.harvest.model import HarvestJob, HarvestObject, HarvestSource
from ckanext.harvest.tests.factories import HarvestJobObj
from tests.support.fault_passports import one_passport_site, valid_passport

from ckanext.passport.harvest import index_check
from ckanext.passport.cli import passport as passport_cli
from ckanext.passport.plugins.harvester import PassportHarvesterPlugin

pytestmark = [pytest.mark.stack, pytest.mark.usefixtures("shared_plugins", "empty_db", "clean_index")]

# A source whose registry may lose its only entry: the deletion guard would keep it otherwise.
CONFIG = {"allow_private_addresses": True, "max_delete_ratio": 1}
IDENTIFIER = "7707329152-consistency"


@pytest.fixture
def one_passport(tmp_path, serve_site, harvest_source):
    """A site of one valid passport, and its source: ``(site, source, write)``; ``write(title)`` republishes it."""
    root = tmp_path / "site"
    one_passport_site(root, valid_passport(IDENTIFIER, "Первое название"))
    site = serve_site(root)

    def write(title: str) -> None:
        path = root / "opendata" / IDENTIFIER / "meta.json"
        modified = path.stat().st_mtime
        path.write_text(json.dumps(valid_passport(IDENTIFIER, title), ensure_ascii=False), "utf-8")
        # Last-Modified has whole seconds: a rewrite within the second of the last fetch would be "not modified".
        os.utime(path, (modified + 60, modified + 60))

    return site, harvest_source(f"{site.url}/opendata/list.csv", CONFIG), write


def _job_stages(source: dict) -> tuple[HarvestJob, list[HarvestObject]]:
    """Gather, fetch and import one job of the source in this process, as the consumers would, without the job run
    that marks it finished (it re-indexes the source, which needs the index)."""
    harvester = PassportHarvesterPlugin()
    job = HarvestJobObj(source=HarvestSource.get(source["id"]), run=False)
    job.status = "Running"
    job.save()
    objects = [HarvestObject.get(object_id) for object_id in queue.gather_stage(harvester, job)]
    for harvest_object in objects:
        queue.fetch_and_import_stages(harvester, harvest_object)
    job.status = "Finished"
    job.save()
    return job, objects


def _error_codes(harvest_object: HarvestObject) -> list[str]:
    return [error.message.split("]")[0].lstrip("[") for error in harvest_object.errors]


def _indexed_title(package_id: str) -> str | None:
    found = call_action("package_search", fq=f'id:"{package_id}"', include_private=True)["results"]
    return found[0]["title"] if found else None


def test_a_harvest_while_the_index_is_unreachable_stores_each_record_as_an_index_failed_error(
        one_passport, solr_unreachable):
    _, source, _ = one_passport
    with solr_unreachable:
        job, objects = _job_stages(source)
    [harvest_object] = objects
    assert harvest_object.state == "ERROR"
    assert _error_codes(harvest_object) == ["harvest.index_failed"]
    assert model.Package.get(harvest_object.package_id).title == "Первое название"
    assert "harvest.index_check_failed" in " ".join(error.message for error in job.gather_errors)


def test_the_next_harvest_indexes_what_the_last_one_could_not_though_no_passport_changed(
        one_passport, solr_unreachable):
    _, source, _ = one_passport
    with solr_unreachable:
        _job_stages(source)
    package_id = model.Session.query(HarvestObject.package_id).filter(HarvestObject.current == True).scalar()  # noqa: E712
    assert _indexed_title(package_id) is None

    _, [again] = _job_stages(source)
    assert again.report_status == "not modified"
    assert _indexed_title(package_id) == "Первое название"


def test_a_deletion_the_index_refused_is_taken_out_of_the_index_by_the_next_harvest(
        one_passport, solr_unreachable, run_harvest):
    site, source, _ = one_passport
    listing = site.root / "opendata" / "list.csv"
    one_entry = listing.read_text("utf-8")
    withdrawn = "7707329153-withdrawn"
    (site.root / "opendata" / withdrawn).mkdir()
    (site.root / "opendata" / withdrawn / "meta.json").write_text(
        json.dumps(valid_passport(withdrawn, "Отозванный набор"), ensure_ascii=False), "utf-8")
    listing.write_text(one_entry + f"{withdrawn},Отозванный набор,/opendata/{withdrawn}/meta.json,json\n", "utf-8")
    results, _ = run_harvest(source)
    [package_id] = [r["dataset"]["id"] for r in results.values() if r["dataset"]["title"] == "Отозванный набор"]
    listing.write_text(one_entry, "utf-8")
    with solr_unreachable:
        _job_stages(source)
    assert model.Package.get(package_id).state == "deleted"
    assert _indexed_title(package_id) == "Отозванный набор"

    _job_stages(source)
    assert _indexed_title(package_id) is None


def test_a_record_the_index_refuses_again_is_named_on_the_next_job(one_passport):
    _, source, write = one_passport
    write("Очень длинное название " * 3000)  # ~130 KB: Solr keeps at most 32,766 bytes a term
    _, [refused] = _job_stages(source)
    assert _error_codes(refused) == ["harvest.index_failed"]

    job, [again] = _job_stages(source)
    assert again.report_status == "not modified"
    [gather_error] = [error.message for error in job.gather_errors]
    assert gather_error.startswith("[harvest.index_repair_refused]")
    assert model.Package.get(refused.package_id).name in gather_error


def test_a_write_whose_commit_failed_never_reaches_the_index(one_passport, run_harvest):
    _, source, write = one_passport
    results, _ = run_harvest(source)
    [result] = results.values()
    # A deferred constraint fails the COMMIT itself, after every statement (and CKAN's index write) went through.
    model.Session.execute(sa.text("""
        CREATE FUNCTION refuse_title() RETURNS trigger AS $$
        BEGIN IF NEW.title = 'Отклонено при фиксации' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END
        $$ LANGUAGE plpgsql;
        CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT OR UPDATE ON package
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_title();"""))
    model.Session.commit()
    try:
        write("Отклонено при фиксации")
        _, [refused] = _job_stages(source)
    finally:
        model.Session.rollback()
        model.Session.execute(sa.text(
            "DROP TRIGGER refuse_at_commit ON package; DROP FUNCTION refuse_title();"))
        model.Session.commit()
    assert refused.state == "ERROR"
    assert model.Package.get(result["dataset"]["id"]).title == "Первое название"
    assert _indexed_title(result["dataset"]["id"]) == "Первое название"


@pytest.fixture
def four_differences():
    """Four records, each put out of step with its index document in one of the four ways: name → kind."""
    sysadmin = {"user": factories.Sysadmin()["name"]}
    kinds = {"gone-from-index": "missing", "older-in-index": "stale", "newer-in-index": "ahead",
             "deleted-in-database": "orphan"}
    ids = {name: call_action("package_create", dict(sysadmin), **owned_record(name=name))["id"] for name in kinds}
    from ckan.lib.search import index_for

    index_for(model.Package).delete_package({"id": ids["gone-from-index"]})
    for name, change in (("older-in-index", "metadata_modified = metadata_modified + interval '1 minute'"),
                         ("newer-in-index", "metadata_modified = metadata_modified - interval '1 minute'"),
                         ("deleted-in-database", "state = 'deleted'")):
        model.Session.execute(sa.text(f"UPDATE package SET {change} WHERE id = :id"), {"id": ids[name]})
    model.Session.commit()
    return {ids[name]: kind for name, kind in kinds.items()}


def test_records_just_written_by_ckan_do_not_differ():
    sysadmin = {"user": factories.Sysadmin()["name"]}
    for n in range(3):
        call_action("package_create", dict(sysadmin), **owned_record(name=f"agreeing-{n}"))
    assert index_check.differences() == []


def test_each_kind_of_difference_is_found(four_differences):
    assert {d.package_id: d.kind for d in index_check.differences()} == four_differences


def test_a_repair_leaves_no_difference(four_differences):
    assert index_check.repair(index_check.differences()) == []
    assert index_check.differences() == []
    assert call_action("package_search", q="name:deleted-in-database")["count"] == 0


def test_recent_selects_only_records_changed_since(four_differences):
    import datetime

    later = datetime.datetime.utcnow() + datetime.timedelta(minutes=5)
    assert index_check.differences(since=later) == []
    earlier = datetime.datetime.utcnow() - datetime.timedelta(minutes=10)
    assert {d.kind for d in index_check.differences(since=earlier)} == set(four_differences.values())


def test_the_command_prints_each_difference_and_exits_1_until_repaired(cli, four_differences):
    found = cli.invoke(passport_cli, ["check-index"])
    assert found.exit_code == 1, found.output
    assert "missing from the search index" in found.output
    assert "in the search index, but deleted or absent in the database" in found.output
    assert found.output.rstrip().endswith("4 records differ.")

    repaired = cli.invoke(passport_cli, ["check-index", "--repair"])
    assert repaired.exit_code == 0, repaired.output
    assert "4 records repaired, 0 could not be." in repaired.output
    again = cli.invoke(passport_cli, ["check-index"])
    assert (again.exit_code, again.output.strip()) == (0, "0 records differ.")


def test_the_command_speaks_czech(cli, four_differences):
    found = cli.invoke(passport_cli, ["check-index", "--lang", "cs"])
    assert "ve vyhledávacím indexu chybí" in found.output
    assert found.output.rstrip().endswith("4 záznamy se liší.")


def test_the_command_checks_one_source(cli, one_passport, run_harvest, four_differences):
    _, source, _ = one_passport
    run_harvest(source)
    result = cli.invoke(passport_cli, ["check-index", "--source", source["name"]])
    assert (result.exit_code, result.output.strip()) == (0, "0 records differ.")


def test_an_unknown_source_is_a_clear_error_without_a_traceback(cli):
    result = cli.invoke(passport_cli, ["check-index", "--source", "no-such-source"])
    assert result.exit_code == 1
    assert "There is no harvest source no-such-source." in result.output
    assert "Traceback" not in result.output
