"""Indexes for the queries a harvest runs per object or per job, so that their cost does not follow the portal's size

Each was a sequential scan over a table every record adds rows to, at 50,000 records (bench/bench_portal_scale.py
prints the plans):
- the identity claim (catalog.record.identity.holders), an identifier among every record's extras: CKAN 2.11 keeps
  them as ``package_extra`` rows, 2.12 in the ``package.extras`` JSONB column (indexed for the two identity fields of ours);
  hash indexes, which any value's length fits;
- the deletion guard's recent jobs of a source (harvest.deletion_guard), by source and time, and the recovery's
  running jobs (harvest.recovery), by status: ckanext-harvest indexes no ``harvest_job`` column but the id;
- a job's outcomes (harvest.records.outcomes) and its deletions left out of its report (conformance.harvest.report),
  rare extras of its objects: the planner reads those extras by key rather than the job's objects, so the keys of
  short values are indexed with them (a partial index: ``etag`` or a URL may outgrow a b-tree entry).

Revision ID: 7a3e9c1d5b24
Revises: 6f1b3d5a7c9e
Create Date: 2026-12-06 05:20:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7a3e9c1d5b24"
down_revision = "6f1b3d5a7c9e"
branch_labels = None
depends_on = None

# The identity fields of ours kept as extras: the site's MR identifier field by default and an LKOD record's IRI.
IDENTITY_EXTRAS = ("mr_identifier", "lkod_iri")
# Harvest object extras whose values are short words (harvest.stored.STATUS, RECORD_OUTCOME, RECORD_GONE).
WORD_EXTRAS = ("status", "record_outcome", "record_gone")


def _indexes() -> list[tuple[str, str, str]]:
    """(name, table, definition) of each index whose table (and column) this database has."""
    inspector = sa.inspect(op.get_bind())
    tables = set(inspector.get_table_names())
    found = []
    if "package_extra" in tables:
        found.append(("ix_passport_package_extra_value", "package_extra", "USING hash (value)"))
    if "package" in tables and "extras" in {c["name"] for c in inspector.get_columns("package")}:
        found += [(f"ix_passport_package_extras_{field}", "package", f"USING hash ((extras ->> '{field}'))")
                  for field in IDENTITY_EXTRAS]
    if "harvest_job" in tables:
        found.append(("ix_passport_harvest_job_source_created", "harvest_job", "(source_id, created)"))
        found.append(("ix_passport_harvest_job_unfinished", "harvest_job",
                      "(status) WHERE status IN ('New', 'Running')"))
    if "harvest_object_extra" in tables:
        words = ", ".join(f"'{key}'" for key in WORD_EXTRAS)
        found.append(("ix_passport_harvest_object_extra_word", "harvest_object_extra",
                      f"(key, value, harvest_object_id) WHERE key IN ({words})"))
    return found


def upgrade():
    # ckanext-harvest's tables may not exist yet when the base plugin's migrations run: those are left out.
    for name, table, definition in _indexes():
        op.execute(f'CREATE INDEX IF NOT EXISTS {name} ON "{table}" {definition}')


def downgrade():
    for name, _table, _definition in _indexes():
        op.execute(f"DROP INDEX IF EXISTS {name}")
