"""bench/bench_portal_scale.py cannot rot: its bulk fill writes records our harvest code reads as other sources'
records, and its pure parts (who sent a statement, which plans scan a portal table, the report) say what they say."""
from __future__ import annotations

import sys
import traceback
from pathlib import Path

import ckan.model as model
import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import bench_portal_scale as scale  # noqa: E402

from ckanext.passport.catalog.record import identity  # noqa: E402
from ckanext.passport.harvest import objects  # noqa: E402


@pytest.mark.usefixtures("shared_plugins", "empty_db")
def test_the_bulk_fill_writes_records_as_another_source_s_harvest_left_them():
    for statement in scale.fill_statements(1500)[:-1]:  # ANALYZE cannot run in the test's transaction
        model.Session.execute(sa.text(statement))
    datasets = model.Session.execute(sa.text("SELECT count(*) FROM package WHERE type = 'dataset'")).scalar()
    holders = identity.holders("7708234640-fill1400", field="mr_identifier")

    assert datasets == 1500
    assert [holder.id for holder in holders] == ["fill-1400"]
    assert objects.source_of("fill-1400") == "fill-source-1"


@pytest.mark.usefixtures("shared_plugins", "empty_db")
def test_the_bulk_fill_writes_the_error_rows_findings_and_job_summaries_a_harvest_leaves():
    for statement in scale.fill_statements(1500)[:-1]:
        model.Session.execute(sa.text(statement))
    count = lambda table: model.Session.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()  # noqa: E731

    assert count("harvest_object_error") == 1500 // scale.ERRORS_EVERY * scale.OBJECTS_PER_RECORD * 2
    assert count("harvest_gather_error") == 2 * scale.JOBS_PER_SOURCE // scale.GATHER_ERRORS_EVERY
    assert count("passport_harvest_finding") == count("harvest_object_error") + count("harvest_gather_error")
    assert count("passport_job_summary") == count("harvest_job") == 2 * scale.JOBS_PER_SOURCE


def test_a_statement_sent_inside_ckan_code_our_code_called_is_ckan_s():
    ours = traceback.FrameSummary("/x/ckanext/passport/harvest/records.py", 10, "create_record")
    ckan = traceback.FrameSummary("/x/ckan/logic/action/create.py", 20, "package_create")
    alchemy = traceback.FrameSummary("/x/sqlalchemy/engine/base.py", 30, "execute")

    assert scale.origin([ours, alchemy]) == "ours records:create_record"
    assert scale.origin([ours, ckan, alchemy]) == "CKAN's (via records:create_record)"
    assert scale.origin([ckan, alchemy]) is None


def test_only_sequential_scans_of_the_portal_s_tables_are_counted():
    plan = "Nested Loop\n  -> Seq Scan on harvest_source\n  -> Seq Scan on package_extra\n  -> Index Scan on package"

    assert scale.seq_scans(plan) == ["package_extra"]


def test_the_report_gives_each_run_s_cost_per_dataset_as_a_ratio_to_the_first():
    stages = dict.fromkeys(scale.STAGES, 1.0)
    run = {"landed": 100, "stages": stages, "rss_before_kib": 102400, "rss_after_kib": 104448, "peak_kib": 110000}
    runs = {"empty": {**run, "seconds": 10.0}, "full": {**run, "seconds": 12.0}}

    lines = scale.report_lines(runs, "empty")

    assert "100.0   1.00" in lines[1]
    assert "120.0   1.20" in lines[2] and lines[2].endswith("MISSED")
    assert "100→102" in lines[2]


def test_the_short_listing_drops_the_last_entry_only():
    assert scale.shortened([b"header", b"a", b"b", b""]) == [b"header", b"a", b""]
